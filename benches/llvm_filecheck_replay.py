#!/usr/bin/env python3
"""Replays LLVM's own FileCheck tests (`llvm/test/FileCheck`) with `pfir filecheck`.

LLVM's tests are lit tests whose RUN lines call `FileCheck` (and `not
FileCheck`, `%ProtectFileCheckOutput FileCheck ...`). This script runs them
with LLVM's lit (`pip install lit`) as LLVM runs them (lit's internal
shell, the directory's own `lit.local.cfg`), with a `FileCheck` on `PATH`
that is a two-line shell script running `pfir filecheck "$@"`. Every test
of the directory passes in LLVM's tree with that release's FileCheck, so a
test that passes here agrees with LLVM; one that fails is a divergence.
When a `FileCheck-NN` is installed (`--llvm`, or the highest on `PATH`),
the same tests are run with it too, to show that they pass with it here.

The tests are not part of pfir's repository. Get them from a Debian
source package (add a `deb-src` line for bookworm's main repository
first; `llvm-toolchain-16` and `llvm-toolchain-19` are both there):

    cd /tmp && apt-get source --download-only llvm-toolchain-16
    tar -xJf llvm-toolchain-16_*.orig.tar.xz --wildcards '*/llvm/test/FileCheck/*'
    mv llvm-toolchain-16_*/llvm/test/FileCheck /tmp/llvm-filecheck-tests

then

    cargo build
    pip install lit
    python3 benches/llvm_filecheck_replay.py /tmp/llvm-filecheck-tests

Prints one line per test that does not pass with pfir (with the first lines
of lit's report), and the figure: N tests, how many agree with LLVM; with
an LLVM FileCheck, also how many calls print exactly what it prints
(`--show-text N` shows N lines of the difference of each other call).
Exit status 0 when they all agree, 1 otherwise.
"""

import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

LIT_CFG = """import lit.formats, os
config.name = "llvm-filecheck-replay"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".txt", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = {source!r}
config.test_exec_root = {exec_root!r}
config.environment["PATH"] = {shim!r} + os.pathsep + os.environ.get("PATH", "")
config.environment.pop("FILECHECK_OPTS", None)
config.substitutions.append(("%ProtectFileCheckOutput", "env -u FILECHECK_OPTS"))
"""

# `FileCheck` for the direct comparison: runs LLVM's FileCheck and pfir's on
# the same arguments, standard input and environment, logs both exit
# statuses, and gives the test LLVM's output and status (so the rest of the
# RUN line sees what it sees in LLVM's tree).
COMPARE_SHIM = """#!{python}
import json, os, subprocess, sys
data = b"" if sys.stdin is None or sys.stdin.isatty() else sys.stdin.buffer.read()
args = sys.argv[1:]
llvm = subprocess.run([{llvm!r}] + args, input=data, capture_output=True)
pfir = subprocess.run([{pfir!r}, "filecheck"] + args, input=data, capture_output=True)
line = json.dumps({{"args": args, "cwd": os.getcwd(), "llvm": llvm.returncode,
    "pfir": pfir.returncode, "llvm_stderr": llvm.stderr.decode("utf-8", "replace"),
    "pfir_stderr": pfir.stderr.decode("utf-8", "replace"),
    "same_output": llvm.stdout == pfir.stdout}})
with open({log!r}, "a") as f:
    f.write(line + "\\n")
sys.stdout.buffer.write(llvm.stdout)
sys.stderr.buffer.write(llvm.stderr)
sys.exit(llvm.returncode)
"""


def find_pfir(root):
    for profile in ("debug", "release"):
        path = os.path.join(root, "target", profile, "pfir")
        if os.access(path, os.X_OK):
            return path
    return shutil.which("pfir")


def newest_llvm_filecheck():
    found = []
    for d in os.environ.get("PATH", "").split(os.pathsep):
        for path in glob.glob(os.path.join(d, "FileCheck-[0-9]*")):
            m = re.search(r"FileCheck-(\d+)$", path)
            if m and os.access(path, os.X_OK):
                found.append((int(m.group(1)), path))
    return max(found)[1] if found else None


def run_lit(lit_cmd, tests, work, name, command, jobs):
    """Runs the suite with `FileCheck` standing for the script `command`;
    returns {test name: (lit result code, output)}."""
    shim = os.path.join(work, name, "bin")
    os.makedirs(shim)
    with open(os.path.join(shim, "FileCheck"), "w") as f:
        f.write(command)
    os.chmod(os.path.join(shim, "FileCheck"), 0o755)
    cfg_dir = os.path.join(work, name, "suite")
    os.makedirs(cfg_dir)
    with open(os.path.join(cfg_dir, "lit.cfg.py"), "w") as f:
        f.write(
            LIT_CFG.format(
                source=os.path.abspath(tests),
                exec_root=os.path.join(work, name, "out"),
                shim=shim,
            )
        )
    results = os.path.join(work, name, "results.json")
    subprocess.run(
        lit_cmd + ["-q", "-j", str(jobs), "-o", results, cfg_dir],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    with open(results) as f:
        data = json.load(f)
    return {
        t["name"].split(" :: ", 1)[-1]: (t["code"], t.get("output", ""))
        for t in data["tests"]
    }


def first_lines(output, n=6):
    lines = [l for l in output.splitlines() if l.strip()]
    # lit's report starts with the commands; the error follows them.
    errors = [l for l in lines if "error" in l.lower() or "note:" in l]
    return "\n    ".join((errors or lines)[:n])


def main():
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tests", help="a copy of llvm/test/FileCheck")
    ap.add_argument("--pfir", default=find_pfir(here), help="the pfir binary")
    ap.add_argument(
        "--llvm",
        default=newest_llvm_filecheck(),
        help="an LLVM FileCheck to run the tests with too (default: the newest FileCheck-NN on PATH)",
    )
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument(
        "--show-text",
        type=int,
        default=0,
        metavar="N",
        help="for each call whose report differs from LLVM's, print N lines of the diff",
    )
    args = ap.parse_args()
    if not args.pfir:
        sys.exit("no pfir binary: run `cargo build` or give --pfir")
    lit_cmd = [sys.executable, "-c", "from lit.main import main; main()"]
    if subprocess.run(lit_cmd + ["--version"], capture_output=True).returncode != 0:
        sys.exit("LLVM's lit is needed: pip install lit")
    pfir_bin = os.path.abspath(args.pfir)
    with tempfile.TemporaryDirectory(prefix="llvm-filecheck-replay-") as work:
        plain = "#!/bin/sh\nexec %s filecheck \"$@\"\n" % pfir_bin
        pfir = run_lit(lit_cmd, args.tests, work, "pfir", plain, args.jobs)
        llvm, calls = None, []
        if args.llvm:
            log = os.path.join(work, "calls.jsonl")
            shim = COMPARE_SHIM.format(
                python=sys.executable, llvm=args.llvm, pfir=pfir_bin, log=log
            )
            llvm = run_lit(lit_cmd, args.tests, work, "llvm", shim, args.jobs)
            with open(log) as f:
                calls = [json.loads(l) for l in f]
    report(args, pfir, llvm, calls)


def test_of(call, tests):
    """The test file a FileCheck call came from: the first argument in the
    test directory."""
    root = os.path.abspath(tests)
    for a in call["args"]:
        a = a.split("=", 1)[-1]
        if os.path.abspath(a).startswith(root + os.sep):
            return os.path.relpath(os.path.abspath(a), root)
    return "?"


def report(args, pfir, llvm, calls):
    ok = ("PASS", "XFAIL", "UNSUPPORTED")
    disagree = sorted(name for name, (code, _) in pfir.items() if code not in ok)
    for name in disagree:
        code, output = pfir[name]
        print("%s: %s\n    %s" % (code, name, first_lines(output)))
    print(
        "lit: %d tests of %s, %d pass with `pfir filecheck` as FileCheck (agree with LLVM), %d do not"
        % (len(pfir), args.tests, len(pfir) - len(disagree), len(disagree))
    )
    if llvm is None:
        print("no FileCheck-NN found: no direct comparison")
    else:
        llvm_bad = sorted(name for name, (code, _) in llvm.items() if code not in ok)
        print(
            "lit: with %s: %d of %d pass%s"
            % (
                args.llvm,
                len(llvm) - len(llvm_bad),
                len(llvm),
                "" if not llvm_bad else " (not: %s)" % ", ".join(llvm_bad),
            )
        )
        differ = [c for c in calls if c["llvm"] != c["pfir"]]
        for c in differ:
            print(
                "exit %d (%s) vs pfir %d: %s: FileCheck %s\n    LLVM: %s\n    pfir: %s"
                % (
                    c["llvm"],
                    os.path.basename(args.llvm),
                    c["pfir"],
                    test_of(c, args.tests),
                    " ".join(c["args"]),
                    first_lines(c["llvm_stderr"], 2),
                    first_lines(c["pfir_stderr"], 2),
                )
            )
        def same_text(c):
            # LLVM names itself by its program name; nothing else may differ.
            name = os.path.basename(args.llvm)
            llvm_text = c["llvm_stderr"].replace(name + ":", "FileCheck:")
            llvm_text = re.sub(r"(FileCheck command line:  )\S*" + re.escape(name), r"\1FileCheck", llvm_text)
            pfir_text = re.sub(r"(FileCheck command line:  )\S*pfir filecheck", r"\1FileCheck", c["pfir_stderr"])
            return c["same_output"] and llvm_text == pfir_text
        text_differs = [c for c in calls if not same_text(c)]
        if args.show_text:
            for c in text_differs:
                print("text differs: %s: FileCheck %s" % (test_of(c, args.tests), " ".join(c["args"])))
                import difflib
                for l in list(difflib.unified_diff(c["llvm_stderr"].splitlines(), c["pfir_stderr"].splitlines(), "llvm", "pfir", lineterm=""))[:args.show_text]:
                    print("    " + l)
        print(
            "direct: %d of %d FileCheck calls print exactly what %s prints (stdout and stderr)"
            % (len(calls) - len(text_differs), len(calls), os.path.basename(args.llvm))
        )
        statuses = {}
        for c in calls:
            statuses[c["llvm"]] = statuses.get(c["llvm"], 0) + 1
        print(
            "direct: %d FileCheck calls of those tests, run with both: %d give %s's exit status, %d do not (%s)"
            % (
                len(calls),
                len(calls) - len(differ),
                os.path.basename(args.llvm),
                len(differ),
                ", ".join("exit %d: %d" % kv for kv in sorted(statuses.items())),
            )
        )
    sys.exit(1 if disagree else 0)


if __name__ == "__main__":
    main()
