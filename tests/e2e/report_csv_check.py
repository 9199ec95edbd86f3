#!/usr/bin/env python3
"""Check the CSV data behind every chart of a poolbench report folder.

usage: report_csv_check.py OUTDIR

For every page (index.html, tests-NNN.html): every chart (an <img> of
charts/ or an inline <svg> in a <figure>) has exactly one link to its CSV
in a <figcaption class="csv">, the link is charts/NNN-stem.csv and the file
exists; the CSV has as many rows as the table under the chart, and its
numbers equal the table's: the "Exact (unit)" column text exactly, else
the table cell's data-v (which holds %.10g of the same double). Prints one
line per problem and "checked N charts" at the end; exit 1 on problems.
"""
import csv
import html.parser
import io
import os
import re
import sys


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.items = []  # ("figure", {...}) and ("table", {...}) in order
        self.fig = None
        self.cap = False
        self.table = None
        self.cell = None
        self.row = None
        self.in_head = False
        self.svg = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "figure":
            self.fig = {"chart": None, "csv": [], "linktext": ""}
            self.items.append(("figure", self.fig))
        elif self.fig is not None and tag == "img":
            self.fig["chart"] = a.get("src")
        elif self.fig is not None and tag == "svg" and not self.svg:
            self.fig["chart"] = "inline"
            self.svg += 1
        elif tag == "svg":
            self.svg += 1
        elif self.fig is not None and tag == "figcaption":
            self.cap = "csv" in (a.get("class") or "").split()
        elif self.cap and tag == "a":
            self.fig["csv"].append(a.get("href"))
        elif tag == "table":
            self.table = {"head": [], "rows": []}
            self.items.append(("table", self.table))
        elif self.table is not None and tag == "thead":
            self.in_head = True
        elif self.table is not None and tag == "tbody":
            self.in_head = False
        elif self.table is not None and tag == "tr" and not self.in_head:
            self.row = []
            self.table["rows"].append(self.row)
        elif self.table is not None and tag in ("td", "th"):
            self.cell = {"text": "", "v": a.get("data-v")}

    def handle_endtag(self, tag):
        if tag == "figure":
            self.fig = None
        elif tag == "figcaption":
            self.cap = False
        elif tag == "svg":
            self.svg -= 1
        elif tag == "table":
            self.table = None
        elif tag in ("td", "th") and self.cell is not None:
            if self.in_head:
                self.table["head"].append(self.cell["text"])
            elif self.row is not None:
                self.row.append(self.cell)
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell["text"] += data
        if self.cap and self.fig is not None:
            self.fig["linktext"] += data


def g10(x):
    return float("%.10g" % float(x))


def shown(label):
    """A label as the page shows it, from its CSV field (formula ' off)."""
    if label[:2] in ("'=", "'+", "'-", "'@"):
        return label[1:]
    return label


def check_chart(out, page, n, fig, table, problems):
    where = "%s chart %d (%s)" % (page, n, fig["chart"])
    if len(fig["csv"]) != 1:
        problems.append("%s: %d CSV links" % (where, len(fig["csv"])))
        return
    href = fig["csv"][0]
    if not re.fullmatch(r"charts/[0-9]{3,}-[a-z0-9-]+\.csv", href or ""):
        problems.append("%s: bad CSV href %r" % (where, href))
        return
    path = os.path.join(out, href)
    if not os.path.isfile(path):
        problems.append("%s: %s does not exist" % (where, href))
        return
    if fig["chart"] != "inline" and \
            fig["chart"][:-4] != href[:-4]:
        problems.append("%s: CSV %s is not beside its chart" % (where, href))
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    head, body = rows[0], rows[1:]
    if "(CSV, %d row" % len(body) not in fig["linktext"]:
        problems.append("%s: link says %r, CSV has %d rows"
                        % (where, fig["linktext"], len(body)))
    if table is None:
        problems.append("%s: no table under the chart" % where)
        return
    trows = [r for r in table["rows"] if r]
    if len(trows) != len(body):
        problems.append("%s: CSV has %d rows, the table %d"
                        % (where, len(body), len(trows)))
        return
    th = table["head"]
    exact = next((i for i, h in enumerate(th) if h.startswith("Exact (")),
                 None)
    for k, (r, t) in enumerate(zip(body, trows)):
        rec = dict(zip(head, r))
        ctx = "%s row %d" % (where, k + 1)
        if head[:2] == ["rank", "config"] and "score" in head:
            # the overall ranking: Rank, Configuration, Score, Wins
            if t[0]["text"] != rec["rank"] or \
                    t[1]["text"] != shown(rec["config"]) or \
                    g10(rec["score"]) != float(t[2]["v"]) or \
                    int(rec["wins"]) != int(float(t[3]["v"])):
                problems.append("%s: %s != %s" %
                                (ctx, r, [c["text"] for c in t]))
        elif exact is not None:
            # bars of a test and metric, sweep panels: the Exact column
            if rec["value"] != t[exact]["text"]:
                problems.append("%s: value %s, table %s"
                                % (ctx, rec["value"], t[exact]["text"]))
            if head[0] == "rank":
                if t[1]["text"] != shown(rec["config"]) or \
                        t[0]["text"] != rec["rank"]:
                    problems.append("%s: config %r, table %r"
                                    % (ctx, rec["config"], t[1]["text"]))
            elif (t[0]["text"], t[1]["text"]) != (r[0], r[1]):
                problems.append("%s: %s/%s, table %s/%s" % (
                    ctx, r[0], r[1], t[0]["text"], t[1]["text"]))
            # n: after the other dimensions in a sweep of every
            # configuration, else the fifth column
            nc = th.index("n") if "n" in th else 4
            if rec["n"] and t[nc]["text"] != rec["n"]:
                problems.append("%s: n %s, table %s"
                                % (ctx, rec["n"], t[nc]["text"]))
        elif head[0] == "config" and len(head) == 6:
            # IOPS against latency: config, iodepth, test, x, y, p99
            if t[0]["text"] != shown(r[0]) or t[1]["text"] != r[1]:
                problems.append("%s: %s, table %s"
                                % (ctx, r[:2], t[0]["text"]))
            for ci, ti in ((3, 2), (4, 3), (5, 4)):
                want = t[ti]["v"]
                if (r[ci] == "") != (want is None) or \
                        (want is not None and g10(r[ci]) != float(want)):
                    problems.append("%s: %s = %r, table data-v %r"
                                    % (ctx, head[ci], r[ci], want))
        else:
            problems.append("%s: unknown CSV shape %s" % (where, head))
            return


def main():
    out = sys.argv[1]
    problems = []
    # index.html, the test pages and a split report's section pages
    # (sweeps.html, tests.html, ...; not the long tables' STEM-NNN.html)
    pages = ["index.html"] + sorted(
        p for p in os.listdir(out)
        if re.fullmatch(r"tests-\d+\.html", p)
        or re.fullmatch(r"[a-z-]+\.html", p) and p != "index.html")
    ncharts = 0
    linked = set()
    for page in pages:
        p = Page()
        with open(os.path.join(out, page), encoding="utf-8") as f:
            p.feed(f.read())
        items = p.items
        n = 0
        for i, (kind, it) in enumerate(items):
            if kind != "figure" or not it["chart"]:
                continue
            n += 1
            table = next((x for k, x in items[i + 1:] if k == "table"), None)
            check_chart(out, page, n, it, table, problems)
            linked.update(it["csv"])
        ncharts += n
    files = {"charts/" + f for f in os.listdir(os.path.join(out, "charts"))
             if f.endswith(".csv")}
    if files != linked:
        problems.append("CSV files no page links: %s; links to no file: %s"
                        % (sorted(files - linked)[:5],
                           sorted(linked - files)[:5]))
    for line in problems[:40]:
        print("FAIL: " + line)
    print("checked %d charts, %d CSV files" % (ncharts, len(files)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
