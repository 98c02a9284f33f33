"""Replaces one `## ` section of docs/benchmarks.md (from its heading to the next `## ` heading) or appends
it, so every bench script rewrites only its own numbers and never reorders the others'."""
import os
import re


def replace_section(head, body, path="docs/benchmarks.md"):
    text = open(path).read() if os.path.exists(path) else "# Benchmarks\n"
    section = head + "\n" + body.rstrip("\n") + "\n"
    m = re.search(r"^" + re.escape(head) + r"\n.*?(?=^## |\Z)", text, flags=re.S | re.M)
    if m:
        text = text[:m.start()] + section + ("\n" if m.end() < len(text) else "") + text[m.end():]
    else:
        text = text.rstrip("\n") + "\n\n" + section
    open(path, "w").write(text)
    return section
