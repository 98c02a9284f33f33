"""Writes one subsection of the single "Agent tool environment" section of docs/benchmarks.md (shared by
bench/tools_latency.sh and bench/query_vs_pandas.sh); a re-run replaces its own subsection only."""
import os
import re

SECTION = "## Agent tool environment: latency, sandbox start, query vs pandas"
ORDER = ["### Tool latency", "### query (DuckDB) vs execute_code (pandas)"]


def write_subsection(heading, body, path="docs/benchmarks.md"):
    text = open(path).read() if os.path.exists(path) else "# Benchmarks\n"
    m = re.search(r"\n" + re.escape(SECTION) + r".*?(?=\n## |\Z)", text, flags=re.S)
    subs = {}
    if m:
        for part in re.split(r"\n(?=### )", m.group(0).split("\n", 2)[2] if m.group(0).count("\n") > 1 else ""):
            part = part.strip("\n")
            if part.startswith("### "):
                subs[next(h for h in ORDER + [part.split("\n", 1)[0]] if part.startswith(h))] = part
        text = text[:m.start()] + text[m.end():]
    subs[heading] = heading + "\n" + body.strip("\n")
    keys = [h for h in ORDER if h in subs] + [h for h in subs if h not in ORDER]
    section = "\n" + SECTION + "\n\n" + "\n\n".join(subs[h] for h in keys) + "\n"
    open(path, "w").write(text.rstrip("\n") + "\n" + section)
    return section
