"""Competitor for the catalog benchmark: what a Python harness does to catalogue a lake folder.

Walks the tree, stats every file, reads the first 64 KiB of each (the same head mode lakeqa uses) and runs
csv.Sniffer on text heads to find the dialect and header, counting files and bytes. Single process, as the
LakeQA reference harness is. Prints JSON: {"files": N, "bytes_read": B, "seconds": S, "sniffed": K}.
"""
import csv
import json
import os
import sys
import time

HEAD = 64 * 1024


def main(root):
    t0 = time.perf_counter()
    files = sniffed = bytes_read = 0
    sniffer = csv.Sniffer()
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            try:
                os.stat(path)
                with open(path, "rb") as f:
                    head = f.read(HEAD)
            except OSError:
                continue
            files += 1
            bytes_read += len(head)
            if b"\0" in head[:1024]:
                continue
            text = head.decode("utf-8", errors="replace")
            sample = text[: 16 * 1024]
            try:
                sniffer.sniff(sample, delimiters=",\t;|")
                sniffer.has_header(sample)
                sniffed += 1
            except csv.Error:
                pass
    print(json.dumps({"files": files, "bytes_read": bytes_read, "sniffed": sniffed,
                      "seconds": time.perf_counter() - t0}))


if __name__ == "__main__":
    main(sys.argv[1])
