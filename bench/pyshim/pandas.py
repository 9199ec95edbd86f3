# stand-in: fiologparser_hist.py imports pandas but its --noweight path
# never uses it
