# Turn a text file into a C source defining `const char NAME[]`.
# cmake -DIN=schema.sql -DOUT=schema_sql.c -DNAME=pb_schema_sql -P embed.cmake
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" n)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" body "${body}")
file(WRITE "${OUT}.tmp"
  "/* Generated from ${IN} by cmake/embed.cmake; do not edit. */\n"
  "const char ${NAME}[] = {\n${body}0x00};\n")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
