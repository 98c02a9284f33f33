#!/usr/bin/env python3
"""Runs the shell blocks of the README and the docs that use the demo lake, as written (issue 14).

Every fenced block (no info string, or sh/bash/shell/console) whose first command is a lakeqa, make,
scripts/ or bench/ command is a shell block. Each one is either
  - run, when it uses the demo lake (.cache/demo, demo/tasks): with bash -euo pipefail, in a scratch copy of
    the repository's layout, with the lakeqa under test first on PATH; a non-zero exit fails the test;
  - a synopsis (it has <placeholders> or [--options]), reported as such, even when it names the demo's
    folders as defaults;
  - listed in SKIPPED below with the reason it cannot run here.
A shell block that is none of these fails the test, so a new example is either runnable or explained.

The README's blocks assume `make demo` has built .cache/demo; here demo/README.md's by-hand pipeline (which
builds the same lake and index with the same verbs) runs first and stands in for it. demo/tasks is the
demo's task set cut to one task per hop count up to SMALL_HOPS (the commands are the same; the
verification and the oracle's sandboxed code are what cost time under ASan), as DemoPipeline.ReducedTaskSet
does. Exit 77 (skipped) when the demo's raw data cannot be fetched.

Usage: doc_commands.py <source dir> <lakeqa binary>
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

# (file, start of the block's first line) -> why it cannot run in this test.
SKIPPED = {
    ("README.md", "make demo"): "the whole demo (scripts/setup, a release build, `lakeqa demo`) and the whole "
    "test suite, which this test is part of; `lakeqa demo` itself is DemoPipeline.ReducedTaskSet",
    ("README.md", "lakeqa index build --lake s3://lakeqa-yc4103-datalake"): "the real LakeQA bucket on AWS (40 M "
    "files, network) and a hosted model (openai:gpt-5-mini, a paid key); the same verbs run on the demo lake "
    "in the README's next block",
    ("CONTRIBUTING.md", "make test"): "the whole build and test suite, which this test is part of, and the "
    "release and profiling builds (minutes of compilation)",
    ("docs/benchmarks.md", "bench/search_engines.sh"): "benchmarks: minutes of CPU against competitor engines "
    "(`make bench` runs them), never part of the tests",
    ("docs/benchmarks.md", "bench/relevance_real.sh"): "a benchmark over the KramaBench checkout and the CMDBench "
    "NBA lake from /work/shared/data with a JDK and Lucene installed by it, never part of the tests; "
    "RelevanceRegression checks lakeqa's own metrics",
    ("docs/search.md", "bench/relevance_real.sh"): "the same benchmark as in docs/benchmarks.md (KramaBench and "
    "CMDBench data from /work/shared/data, Lucene), never part of the tests",
    ("docs/cli.md", "lakeqa doctor"): "reports this machine's sandbox protections, not the demo lake; the "
    "protections themselves are tested one by one in tests/exec (docs/sandbox.md lists the tests)",
    ("docs/search.md", "lakeqa lake build --source kramabench"): "the real-collection grid over the KramaBench "
    "checkout and the CMDBench NBA lake from ../shared/data (minutes of CPU); RelevanceRegression.real runs the "
    "same lake, index and eval suite verbs (tests/support/relevance_regression.sh real)",
    ("docs/ui.md", "lakeqa tasks validate demo.sqlite.export"): "the file is what the workbench's Export button "
    "writes; Workbench.EndToEndChromium exports it and runs the same checks",
    ("docs/cmdbench.md", "lakeqa lake build --source cmdbench:"): "the CMDBench NBA lake from /work/shared/data, "
    "not the demo lake; CmdbenchPipeline.NbaLakeEveryTask (tests/cmdbench/nba_pipeline.sh) runs the same commands",
    ("docs/cmdbench.md", "lakeqa graph schema --index /tmp/nba/index"): "the graph of the CMDBench NBA lake (the "
    "demo lake has none); CmdbenchPipeline.NbaLakeEveryTask runs graph query on it",
    ("docs/cmdbench.md", "lakeqa eval cmdbench --task source"): "CMDBench questions over the NBA lake; "
    "CmdbenchPipeline.NbaLakeEveryTask runs every task on it",
    ("docs/kramabench.md", "lakeqa lake build --source kramabench:"): "needs a KramaBench checkout (1.7 GB from "
    "github.com/mitdbg/Kramabench, not in the project); KramaBenchCliTest runs the same verbs on a checkout it "
    "writes in KramaBench's layout",
    ("docs/search.md", "lakeqa search --index idx"): "examples over an index of the CMDBench NBA lake (`idx`, "
    "from /work/shared/data), not the demo lake; `--mode hybrid` needs the GloVe vectors",
}
SHELL_INFO = {"", "sh", "bash", "shell", "console"}
COMMANDS = ("lakeqa", "make", "scripts/", "bench/", "cmake", "claude")
DEMO_MARKERS = (".cache/demo", "demo/tasks")
SMALL_HOPS = 2


def blocks(root, rel):
    text = open(os.path.join(root, rel), encoding="utf-8").read()
    for m in re.finditer(r"^```([\w+-]*)[ \t]*\n(.*?)^```", text, re.S | re.M):
        yield text[: m.start()].count("\n") + 1, m.group(1), m.group(2)


def first_command(body):
    for line in body.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            return line
    return ""


def skipped_reason(rel, first):
    for (f, start), why in SKIPPED.items():
        if f == rel and first.startswith(start):
            return why
    return None


def scratch_layout(root, work):
    """The repository's layout for the commands: scripts/, data/, .deps/ and demo/ as in the source tree,
    but demo/tasks cut down, and an empty .cache/ and runs/."""
    for name in ("scripts", "data", ".deps"):
        os.symlink(os.path.join(root, name), os.path.join(work, name))
    os.mkdir(os.path.join(work, "demo"))
    for entry in os.listdir(os.path.join(root, "demo")):
        if entry != "tasks":
            os.symlink(os.path.join(root, "demo", entry), os.path.join(work, "demo", entry))
    tasks = os.path.join(root, "demo", "tasks")
    for folder in sorted(os.listdir(tasks)):
        m = re.match(r"k-(\d+)-d-\d+$", folder)
        if not m or int(m.group(1)) > SMALL_HOPS:
            continue
        first = sorted(f for f in os.listdir(os.path.join(tasks, folder)) if f.endswith(".json"))[0]
        os.makedirs(os.path.join(work, "demo", "tasks", folder))
        shutil.copy(os.path.join(tasks, folder, first), os.path.join(work, "demo", "tasks", folder, first))


def main():
    root, lakeqa = os.path.realpath(sys.argv[1]), os.path.realpath(sys.argv[2])
    if subprocess.run(["bash", os.path.join(root, "scripts/demo_data")], stdout=subprocess.DEVNULL,
                      stderr=subprocess.DEVNULL).returncode != 0:
        print("SKIP: scripts/demo_data could not fetch the demo's raw data")
        return 77
    docs = ["demo/README.md", "README.md"] + sorted("docs/" + f for f in os.listdir(os.path.join(root, "docs"))
                                                    if f.endswith(".md")) + ["src/README.md", "CONTRIBUTING.md"]
    work = tempfile.mkdtemp(prefix="lakeqa-doc-commands-")
    try:
        os.chmod(work, 0o755)  # the code sandbox's unprivileged user must reach the tool sessions
        scratch_layout(root, work)
        bindir = os.path.join(work, ".bin")
        os.mkdir(bindir)
        os.symlink(lakeqa, os.path.join(bindir, "lakeqa"))
        env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""))
        for var in ("LAKEQA_MODEL", "LAKEQA_BASE_URL", "OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
            env.pop(var, None)
        ran, failures, used = 0, [], set()
        for rel in docs:
            for line, info, body in blocks(root, rel):
                first = first_command(body)
                if info not in SHELL_INFO or not first.startswith(COMMANDS):
                    continue
                where = f"{rel}:{line}"
                why = skipped_reason(rel, first)
                if why is not None:
                    used.add((rel, next(s for f, s in SKIPPED if f == rel and first.startswith(s))))
                    print(f"skipped  {where}: {why}")
                    continue
                # A synopsis may name the demo's folders as defaults ([--work .cache/demo]): it is not a command.
                if re.search(r"<[a-z][^>]*>|\[--", body):
                    print(f"synopsis {where}: {first[:70]}")
                    continue
                if not any(m in body for m in DEMO_MARKERS):
                    failures.append(f"{where}: a shell block that neither uses the demo lake nor is listed "
                                    f"in SKIPPED with a reason:\n{body}")
                    continue
                t0 = time.time()
                p = subprocess.run(["bash", "-euo", "pipefail", "-c", body], cwd=work, env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                print(f"ran      {where} in {time.time() - t0:.1f}s: exit {p.returncode}")
                ran += 1
                if p.returncode != 0:
                    failures.append(f"{where}: exit {p.returncode}\n--- block ---\n{body}--- output ---\n"
                                    f"{p.stdout[-4000:]}")
        for key in SKIPPED:
            if key not in used:
                failures.append(f"SKIPPED lists {key}, which no document has any more: remove it")
        if ran == 0:
            failures.append("no shell block uses the demo lake")
        for f in failures:
            print("FAIL: " + f)
        return 1 if failures else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
