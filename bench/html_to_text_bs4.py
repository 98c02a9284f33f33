#!/usr/bin/env python3
"""The competitor of bench/html_to_text.cc: BeautifulSoup's get_text over the same files, same repeat.
Usage: html_to_text_bs4.py <parser: html.parser|lxml> <repeat> <file>..."""
import json
import sys
import time

from bs4 import BeautifulSoup

parser, repeat, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
pages = [open(f, "rb").read() for f in files]
t0 = time.perf_counter()
in_bytes = out_bytes = 0
for _ in range(repeat):
    for p in pages:
        soup = BeautifulSoup(p, parser)
        for tag in soup(["script", "style"]):
            tag.decompose()
        out_bytes += len(soup.get_text("\n").encode())
        in_bytes += len(p)
s = time.perf_counter() - t0
print(json.dumps({"parser": parser, "files": len(pages) * repeat, "bytes": in_bytes, "text_bytes": out_bytes,
                  "seconds": round(s, 3), "mb_per_s": round(in_bytes / 1e6 / s, 2)}))
