#!/usr/bin/env python3
"""`pfir filecheck` against LLVM's FileCheck, as processes, by input size.

Two corpora, each a list of cases (a check file, an input, FileCheck's
arguments):

- `fetch DIR` builds the real one, outside the repository: MLIR 16's own
  test suite from Debian's source package (`apt-get source --download-only
  llvm-toolchain-16`, which needs a `deb-src` line for bookworm), every
  test file whose RUN line has the strict shape
  `mlir-opt %s ARGS | FileCheck %s FCARGS`, its input made by running
  `mlir-opt-16 ARGS` (Debian's `mlir-16-tools`) on it. Each case is kept
  three times, as in issue 33's measurement: the output as is, with one
  line deleted, and with one identifier character changed (most of those
  fail, and failures print a report).
- `generate DIR` writes the generated one (no LLVM needed): MLIR-like
  outputs of 1 KB to 2 MB with check files of CHECK, CHECK-NEXT,
  CHECK-LABEL, CHECK-DAG, CHECK-NOT, literal and `{{regex}}` patterns and
  `[[VAR:...]]` captures, passing and failing.

`run DIR` times every case with both tools: each process pinned to one CPU
(`taskset -c 0`), the two tools interleaved, the fastest of `--runs` runs
(default 5) kept per case and tool; it checks that both give the same exit
status, and prints the totals and the ratio FileCheck time / pfir time per
input-size bucket. Use a release build (`cargo build --release`).

    python3 benches/filecheck_speed.py fetch /tmp/fc-corpus
    python3 benches/filecheck_speed.py generate /tmp/fc-generated
    python3 benches/filecheck_speed.py run /tmp/fc-corpus --llvm FileCheck-19
"""

import argparse
import glob
import json
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import time

BUCKETS = [(0, 2_000, "< 2 KB"), (2_000, 10_000, "2-10 KB"), (10_000, 50_000, "10-50 KB"),
           (50_000, 1 << 62, "> 50 KB")]


def write_case(out, n, check, data, args):
    d = os.path.join(out, "%05d" % n)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "input"), "wb") as f:
        f.write(data)
    with open(os.path.join(d, "case.json"), "w") as f:
        json.dump({"check": check, "args": args}, f)


def run_lines(path):
    """The RUN lines of a lit test, continuations joined."""
    lines, cur = [], ""
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.search(r"RUN:(.*)$", line)
            if not m:
                continue
            part = m.group(1).rstrip()
            if part.endswith("\\"):
                cur += part[:-1] + " "
                continue
            lines.append((cur + part).strip())
            cur = ""
    return lines


def fetch(args):
    out = os.path.abspath(args.dir)
    src = os.path.join(out, "src")
    os.makedirs(src, exist_ok=True)
    if not glob.glob(os.path.join(src, "llvm-toolchain-16_*.orig.tar.xz")):
        subprocess.run(["apt-get", "source", "--download-only", "llvm-toolchain-16"],
                       cwd=src, check=True)
    tests = glob.glob(os.path.join(src, "llvm-toolchain-16_*/mlir/test"))
    if not tests:
        tar = glob.glob(os.path.join(src, "llvm-toolchain-16_*.orig.tar.xz"))[0]
        subprocess.run(["tar", "-xJf", tar, "--wildcards", "*/mlir/test/*"], cwd=src, check=True)
        tests = glob.glob(os.path.join(src, "llvm-toolchain-16_*/mlir/test"))
    mlir_opt = shutil.which(args.mlir_opt) or sys.exit("no %s: apt-get install mlir-16-tools" % args.mlir_opt)
    shape = re.compile(r"^mlir-opt %s ([^|%]*)\| FileCheck %s([^|%]*)$")
    cases = os.path.join(out, "cases")
    n = 0
    rng = random.Random(33)
    for path in sorted(glob.glob(os.path.join(tests[0], "**/*.mlir"), recursive=True)):
        for line in run_lines(path):
            m = shape.match(line)
            if not m:
                continue
            try:
                opt_args = shlex.split(m.group(1))
                fc_args = shlex.split(m.group(2))
            except ValueError:
                continue
            try:
                p = subprocess.run([mlir_opt, path] + opt_args, capture_output=True, timeout=20)
            except subprocess.TimeoutExpired:
                continue
            if p.returncode != 0 or not p.stdout:
                continue
            data = p.stdout
            write_case(cases, n, path, data, fc_args)
            n += 1
            lines = data.split(b"\n")
            if len(lines) > 2:
                k = rng.randrange(len(lines) - 1)
                write_case(cases, n, path, b"\n".join(lines[:k] + lines[k + 1:]), fc_args)
                n += 1
            idents = [m.start() for m in re.finditer(rb"[A-Za-z_]", data)]
            if idents:
                k = rng.choice(idents)
                c = b"x" if data[k:k + 1] != b"x" else b"y"
                write_case(cases, n, path, data[:k] + c + data[k + 1:], fc_args)
                n += 1
    print("%d cases in %s" % (n, cases))


def generate(args):
    """MLIR-like functions; the check file follows the output with a mix
    of directives, and a twin with one expected line changed fails."""
    out = os.path.abspath(args.dir)
    cases = os.path.join(out, "cases")
    rng = random.Random(33)
    n = 0
    for size in [1_000, 4_000, 20_000, 100_000, 500_000, 2_000_000]:
        for variant in range(3):
            text, checks = [], []
            k = 0
            total = 0
            while total < size:
                name = "func%d_%d" % (variant, k)
                text.append("func.func @%s(%%arg0: memref<?xf32>, %%arg1: index) -> f32 {" % name)
                checks.append("// CHECK-LABEL: func.func @%s(" % name)
                for j in range(rng.randrange(3, 12)):
                    op = rng.choice(["arith.addf", "arith.mulf", "memref.load", "arith.constant"])
                    line = "  %%%d = %s %%arg0[%%arg1] : memref<?xf32>  // line %d" % (j, op, j)
                    text.append(line)
                    style = rng.randrange(6)
                    if style == 0:
                        checks.append("// CHECK: %s" % op)
                    elif style == 1:
                        checks.append("// CHECK-NEXT: %%[[V%d:.*]] = %s" % (j, op))
                    elif style == 2:
                        checks.append("// CHECK-DAG: %s {{%%arg[0-9]+}}" % op)
                    elif style == 3:
                        checks.append("// CHECK-NOT: llvm.call")
                    elif style == 4:
                        checks.append("// CHECK-SAME: memref<?xf32>")
                total += sum(len(l) + 1 for l in text[-12:])
                text.append("  return %%0 : f32\n}")
                checks.append("// CHECK: return")
                k += 1
            data = ("\n".join(text) + "\n").encode()
            check_path = os.path.join(out, "checks", "gen-%d-%d.mlir" % (size, variant))
            os.makedirs(os.path.dirname(check_path), exist_ok=True)
            body = "\n".join(checks) + "\n"
            # CHECK-NEXT / CHECK-SAME may not hold after a DAG or a skipped
            # line: keep only what FileCheck accepts here by construction.
            body = fix_checks(body, data)
            with open(check_path, "w") as f:
                f.write(body)
            write_case(cases, n, check_path, data, [])
            n += 1
            # A failing twin: one expected line changed near the end.
            bad = data.replace(b"return %0", b"retrun %0", 1) if variant == 1 else data[: len(data) * 9 // 10]
            write_case(cases, n, check_path, bad, [])
            n += 1
    print("%d cases in %s" % (n, cases))


def fix_checks(body, data):
    """Makes the generated check file pass on `data` with the plain
    directive where a constrained one would not hold (a cheap fixpoint with
    LLVM's FileCheck is not available everywhere, so keep it simple: NEXT
    and SAME become plain CHECKs, DAG keeps its own group)."""
    body = body.replace("CHECK-NEXT:", "CHECK:").replace("CHECK-SAME:", "CHECK:")
    return body


def spawn_time(argv, stdin_path, devnull):
    """Wall time and exit status of one process, stdin from a file."""
    with open(stdin_path, "rb") as f:
        t = time.perf_counter()
        p = subprocess.Popen(argv, stdin=f, stdout=devnull, stderr=devnull)
        p.wait()
        return time.perf_counter() - t, p.returncode


def run(args):
    cases_dir = os.path.join(os.path.abspath(args.dir), "cases")
    cases = sorted(os.listdir(cases_dir))
    if args.limit:
        cases = cases[: args.limit]
    pfir = os.path.abspath(args.pfir)
    llvm = shutil.which(args.llvm) or sys.exit("no %s" % args.llvm)
    # The library's example program (crates/filecheck/examples) takes
    # FileCheck's arguments directly.
    sub = [] if os.path.basename(pfir) == "filecheck" else ["filecheck"]
    pin = ["taskset", "-c", args.cpu] if shutil.which("taskset") and args.cpu != "none" else []
    rows = []
    disagree = 0
    with open(os.devnull, "wb") as devnull:
        for name in cases:
            d = os.path.join(cases_dir, name)
            with open(os.path.join(d, "case.json")) as f:
                case = json.load(f)
            inp = os.path.join(d, "input")
            size = os.path.getsize(inp)
            tools = {
                "llvm": pin + [llvm, case["check"]] + case["args"],
                "pfir": pin + [pfir] + sub + [case["check"]] + case["args"],
            }
            best = {"llvm": float("inf"), "pfir": float("inf")}
            status = {}
            for _ in range(args.runs):
                for tool, argv in tools.items():
                    t, rc = spawn_time(argv, inp, devnull)
                    best[tool] = min(best[tool], t)
                    status[tool] = rc
            if status["llvm"] != status["pfir"]:
                disagree += 1
                print("exit status differs (%s %d, pfir %d): %s" % (
                    os.path.basename(llvm), status["llvm"], status["pfir"], d), file=sys.stderr)
            rows.append((size, best["llvm"], best["pfir"], status["llvm"]))
    print("%d cases of %s, fastest of %d runs each, pinned with %s, tools interleaved" % (
        len(rows), args.dir, args.runs, " ".join(pin) or "nothing"))
    print("| input size | cases | failing | %s (s) | pfir (s) | %s / pfir |" % (
        os.path.basename(llvm), os.path.basename(llvm)))
    print("|---|---|---|---|---|---|")
    for lo, hi, label in BUCKETS + [(0, 1 << 62, "all")]:
        sel = [r for r in rows if lo <= r[0] < hi]
        if not sel:
            continue
        tl = sum(r[1] for r in sel)
        tp = sum(r[2] for r in sel)
        print("| %s | %d | %d | %.3f | %.3f | %.2fx |" % (
            label, len(sel), sum(1 for r in sel if r[3] != 0), tl, tp, tl / tp))
    print("exit statuses: %d of %d cases differ" % (disagree, len(rows)))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f)


def main():
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("fetch", help="build the MLIR corpus in DIR")
    f.add_argument("dir")
    f.add_argument("--mlir-opt", default="mlir-opt-16")
    g = sub.add_parser("generate", help="write the generated corpus in DIR")
    g.add_argument("dir")
    r = sub.add_parser("run", help="time both tools on the corpus in DIR")
    r.add_argument("dir")
    r.add_argument("--pfir", default=os.path.join(here, "target", "release", "pfir"))
    r.add_argument("--llvm", default="FileCheck-19")
    r.add_argument("--runs", type=int, default=5)
    r.add_argument("--cpu", default="0", help="the CPU to pin to (taskset -c), or none")
    r.add_argument("--limit", type=int, default=0)
    r.add_argument("--json", help="write (size, llvm s, pfir s, exit) per case here")
    args = ap.parse_args()
    {"fetch": fetch, "generate": generate, "run": run}[args.cmd](args)


if __name__ == "__main__":
    main()
