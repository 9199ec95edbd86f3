#!/usr/bin/env python3
"""Bytes per table and index of a poolbench database (stdlib only).

    db_size.py DB

Prints a Markdown table: every table and index with its pages' bytes
(SQLite's dbstat virtual table: whole pages, so free space inside pages
counts), its share of the file, and bytes per row of `result`; then the
file's page size, page count and free pages. Read-only.
"""
import sqlite3
import sys


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: db_size.py DB")
    con = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
    n = con.execute("SELECT count(*) FROM result").fetchone()[0]
    page = con.execute("PRAGMA page_size").fetchone()[0]
    pages = con.execute("PRAGMA page_count").fetchone()[0]
    free = con.execute("PRAGMA freelist_count").fetchone()[0]
    rows = con.execute(
        "SELECT name, SUM(pgsize), SUM(payload), SUM(unused) FROM dbstat "
        "GROUP BY name ORDER BY SUM(pgsize) DESC").fetchall()
    total = page * pages
    print("| table or index | MB | share | bytes/result | payload MB | unused MB |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, size, payload, unused in rows:
        if size < total / 1000:
            continue
        print("| %s | %.1f | %.1f%% | %.1f | %.1f | %.1f |" % (
            name, size / 1e6, 100.0 * size / total, size / n if n else 0,
            payload / 1e6, unused / 1e6))
    small = sum(r[1] for r in rows if r[1] < total / 1000)
    print("| (%d smaller ones) | %.1f | %.1f%% | %.1f | | |" % (
        sum(1 for r in rows if r[1] < total / 1000), small / 1e6,
        100.0 * small / total, small / n if n else 0))
    print("| **file** | %.1f | 100%% | %.1f | | |" % (
        total / 1e6, total / n if n else 0))
    print()
    print("%d results; page size %d, %d pages, %d free pages." %
          (n, page, pages, free))


if __name__ == "__main__":
    main()
