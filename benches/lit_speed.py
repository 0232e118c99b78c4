#!/usr/bin/env python3
"""`pfir test` against LLVM's lit on N generated small tests.

Each test is a `.pfir` file of one RUN line,
`pfir opt %s --passes=expand-manual-phase-fence | FileCheck %s`, with a
4 x 8 fan-out to rewrite and five CHECK lines. Both runners get the same
files and the same number of jobs; lit runs them with LLVM's FileCheck
(`FileCheck-19`, `FileCheck-14` or `FileCheck`, the first found; or
`--filecheck`), `pfir test` with its own. Every timing is the best of
`--repeat` runs, `pfir test` in-process (its default) and with
`--no-in-process`.

    cargo build --release
    pip install lit
    python3 benches/lit_speed.py            # N = 400 and 4000, -j 2

Prints a table: seconds per runner and size, the ratio lit / pfir test, and
pfir test's time per test (constant when it grows linearly with N).
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

TEST = """// RUN: pfir opt %s --passes=expand-manual-phase-fence | FileCheck %s

func kernel{i}() -> task_id {{
  return system.task_invalid()
}}

// CHECK-LABEL: orchestration func main
// CHECK: tids = array.create(4, task_id)
// CHECK-NEXT: phase_fence_barrier_0_tid = system.task_dummy(deps=[tids])
// CHECK: submit kernel{i}(deps=[phase_fence_barrier_0_tid])
// CHECK: submit kernel{i}(deps=[phase_fence_barrier_0_tid])
orchestration func main(n: i64) -> task_id {{
  manual {{
    tids = array.create(4, task_id)
    for p in parallel(4) {{
      a, a_tid = submit kernel{i}(deps=[tids])
      b, b_tid = submit kernel{i}(deps=[tids])
    }}
  }}
  return system.task_invalid()
}}
"""

LIT_CFG = """import lit.formats
config.name = "pfir-bench"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".pfir"]
config.substitutions.append(("FileCheck", {filecheck!r}))
config.substitutions.append(("pfir opt", {pfir!r} + " opt"))
"""


def find_filecheck():
    for name in ("FileCheck-19", "FileCheck-14", "FileCheck"):
        path = shutil.which(name)
        if path:
            return path
    return None


def best_of(repeat, argv):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        times.append(time.perf_counter() - start)
        if done.returncode != 0:
            sys.exit(f"{' '.join(argv)} failed:\n{done.stderr.decode(errors='replace')}")
    return min(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pfir", default="target/release/pfir")
    ap.add_argument("--lit", default=shutil.which("lit"))
    ap.add_argument("--filecheck", default=find_filecheck())
    ap.add_argument("--sizes", default="400,4000")
    ap.add_argument("--jobs", default="2")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    pfir = os.path.abspath(args.pfir)
    if not os.path.exists(pfir):
        sys.exit(f"{pfir} not found: run `cargo build --release` first")
    if not args.lit:
        sys.exit("lit not found: pip install lit")
    if not args.filecheck:
        sys.exit("no LLVM FileCheck found: apt-get install llvm-19-tools (or pass --filecheck)")
    print(f"pfir test: {pfir}; lit: {args.lit} with {args.filecheck}; -j {args.jobs}; "
          f"best of {args.repeat}")
    rows = []
    for n in (int(s) for s in args.sizes.split(",")):
        with tempfile.TemporaryDirectory(prefix="pfir-lit-bench-") as d:
            for i in range(n):
                with open(os.path.join(d, f"t{i:05}.pfir"), "w") as f:
                    f.write(TEST.format(i=i))
            with open(os.path.join(d, "lit.cfg.py"), "w") as f:
                f.write(LIT_CFG.format(filecheck=args.filecheck, pfir=pfir))
            pfir_in = best_of(args.repeat, [pfir, "test", "-q", "-j", args.jobs, d])
            pfir_out = best_of(args.repeat,
                               [pfir, "test", "-q", "-j", args.jobs, "--no-in-process", d])
            lit = best_of(args.repeat, [sys.executable, args.lit, "-q", "-j", args.jobs, d])
            rows.append((n, pfir_in, pfir_out, lit))
    print()
    print("| tests | pfir test | pfir test --no-in-process | lit | lit / pfir test "
          "| pfir test per test |")
    print("|------:|----------:|--------------------------:|----:|----------------:"
          "|-------------------:|")
    for n, pin, pout, lit in rows:
        print(f"| {n} | {pin:.3f} s | {pout:.3f} s | {lit:.3f} s | {lit / pin:.1f}x "
              f"| {pin / n * 1e6:.0f} µs |")


if __name__ == "__main__":
    main()
