"""Runs agent code inside the lakeqa sandbox with the globals the LakeQA harness gives it.

SANDBOX_DIR is the sandbox path and FILES the absolute paths of the files in it; pandas (as pd), json,
csv, os, glob, re and pathlib.Path are pre-imported, and the working directory is the sandbox.
"""
import importlib
import os
import sys
import traceback
import types


def _files(root):
    # Hidden entries (.lakeqa, .outputs with the full results the output cap saved, dotfiles) are not the
    # agent's data: FILES[0] must be a downloaded file. os.walk does not descend into symbolic links, so
    # the <dataset> aliases of <namespace>/<dataset> add no second copy.
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        out.extend(os.path.join(dirpath, f) for f in sorted(filenames) if not f.startswith("."))
    return out


class _LazyPandas(types.ModuleType):
    """`pd` before the code imports pandas itself: importing pandas costs about half a second, which
    code that never touches it should not pay. The first attribute access imports it for real."""

    def __init__(self, env):
        super().__init__("pandas")
        object.__setattr__(self, "_env", env)

    def __getattr__(self, attr):
        module = importlib.import_module("pandas")
        env = object.__getattribute__(self, "_env")
        if env.get("pd") is self:
            env["pd"] = module
        return getattr(module, attr)

    def __dir__(self):
        return dir(importlib.import_module("pandas"))


def _handshake():
    """Lets lakeqa watch what this run opens before any of the agent's code runs: hands it the sandbox and
    lake mounts (it marks them with fanotify) and waits for its go-ahead. Opens are then observed by the
    kernel, so nothing the code does can forge or hide them."""
    fd = os.environ.pop("LAKEQA_CONTROL_FD", None)
    if fd is None:
        return
    import socket

    sock = socket.socket(fileno=int(fd))
    mounts = [os.environ["SANDBOX_DIR"]]
    lake = os.environ.get("LAKEQA_LAKE_ROOT", "")
    if lake and os.path.isdir(lake):
        mounts.append(lake)
    fds = [os.open(m, os.O_RDONLY | os.O_DIRECTORY) for m in mounts]
    try:
        socket.send_fds(sock, [b"ready"], fds)
        sock.recv(16)
    finally:
        for f in fds:
            os.close(f)
        sock.close()


def _main():
    _handshake()
    script = sys.argv[1]
    sandbox = os.environ["SANDBOX_DIR"]
    env = {
        "__name__": "__main__",
        "__builtins__": __builtins__,
        "__file__": script,
        "SANDBOX_DIR": sandbox,
        "FILES": _files(sandbox),
    }
    exec("import json\nimport csv\nimport os\nimport glob\nimport re\nfrom pathlib import Path\n", env)
    env["pd"] = _LazyPandas(env)
    with open(script, "rb") as f:
        source = f.read()
    sys.argv = [script]
    try:
        code = compile(source, script, "exec")
        exec(code, env)
    except SystemExit:
        raise
    except BaseException as e:  # noqa: B902 - report like the interpreter, minus this file's frame
        tb = e.__traceback__.tb_next if e.__traceback__ is not None else None
        traceback.print_exception(type(e), e, tb)
        sys.stderr.flush()
        sys.exit(1)


_main()
