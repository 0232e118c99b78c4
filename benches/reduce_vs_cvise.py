#!/usr/bin/env python3
"""pfir reduce against C-Vise: the same predicate script on the same
generated programs (2,000 and 20,000 lines, one planted property).

The planted property: in one orchestration function among hundreds, a loop
whose dependency on its own iter-arg `expand-manual-phase-fence` keeps as
a direct dependency (the remark "it is an iter-arg of the loop"); every
other loop is a fan-out the pass compresses. The predicate script
(`interesting.sh`, written next to each program) greps that remark from
`pfir opt --remarks`; `pfir reduce --test` passes it the candidate's path,
C-Vise runs it with no argument next to the file.

Usage (after `cargo build --release`; Debian's `cvise` on PATH):
  python3 benches/reduce_vs_cvise.py [--sizes 2000,20000] [--jobs 2]
      [--cvise-limit SECONDS] [--runs N] [--work DIR] [--pfir BINARY] [--no-cvise]
Prints a Markdown table: wall time (pfir: best of --runs), and the lines
of each result counted three ways: as written; after `pfir fmt` (one
statement per line, comments kept); and in canonical form (`pfir opt`, no
comments). pfir runs twice, writing its result formatted (the default)
and with --compact (a function without comments on one line). C-Vise is
stopped after --cvise-limit seconds (its best so far is counted, and the
time is marked with >=).
The figures are in docs/benchmarks.md ("pfir reduce against C-Vise").
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PFIR = os.path.join(ROOT, "target", "release", "pfir")
NEEDLE = "it is an iter-arg of the loop"


def predicate_script(pfir):
    return f"""#!/bin/sh
# Interesting while the pass keeps an iter-arg as a direct dependency.
f="${{1:-input.pfir}}"
"{pfir}" opt "$f" --passes=expand-manual-phase-fence --remarks 2>&1 >/dev/null | grep -q "{NEEDLE}"
"""


def generate(lines_wanted):
    out = ["// A generated program with one planted property: one loop keeps an",
           "// iter-arg as a direct dependency.", ""]
    kernels = 8
    for k in range(kernels):
        out += [f"// kernel {k}",
                f"func k{k}(src: tensor<[64], f32>, out dst: tensor<[64], f32>) -> task_id {{",
                "  return system.task_invalid()", "}", ""]
    i = 0
    planted = False
    while len(out) < lines_wanted:
        a, b = i % kernels, (i * 3 + 1) % kernels
        body = [f"// orchestration {i}",
                f"orchestration func o{i}(x: tensor<[64], f32>, y: tensor<[64], f32>, n: i64) -> task_id {{",
                f"  m = n * {i % 7 + 2} + {i % 5}",
                "  manual {",
                "    tids = array.create(8, task_id)",
                "    seeded = for p in parallel(8) iter(acc = tids) {",
                f"      r, r_tid = submit k{a}(x, y)",
                "      acc2 = array.update_element(acc, p, r_tid)",
                "      yield acc2",
                "    }",
                "    for q in parallel(4) {",
                f"      c, c_tid = submit k{b}(y, x, deps=[seeded])",
                f"      d, d_tid = submit k{a}(x, y, deps=[seeded])",
                "    }",
                "    if m > 3 {",
                f"      e, e_tid = submit k{b}(x, x, deps=[seeded])",
                "    }",
                "  }"]
        if not planted and len(out) > lines_wanted // 2:
            planted = True
            body += ["  manual \"phases\" {",
                     "    start = array.create(4, task_id)",
                     "    final = for phase in range(2) iter(tids_a = start) {",
                     "      fresh = array.create(4, task_id)",
                     "      tids_next = for b in parallel(4) iter(slot = fresh) {",
                     f"        c, c_tid = submit k{a}(x, y, deps=[tids_a])",
                     "        slot2 = array.update_element(slot, b, c_tid)",
                     "        yield slot2",
                     "      }",
                     "      yield tids_next",
                     "    }",
                     "  }"]
        body += ["  return system.task_invalid()", "}", ""]
        out += body
        i += 1
    return "\n".join(out) + "\n"


def count_lines(path):
    with open(path) as f:
        return sum(1 for _ in f)


def printed_lines(command, path):
    r = subprocess.run([PFIR, command, path], capture_output=True, text=True)
    return len(r.stdout.splitlines()) if r.returncode == 0 else None


def counts(path):
    """Lines as written | after pfir fmt | canonical (pfir opt)."""
    return f"{count_lines(path)} | {printed_lines('fmt', path)} | {printed_lines('opt', path)}"


def run_pfir(work, jobs, flags):
    out = os.path.join(work, "pfir" + "".join(flags) + ".out.pfir")
    start = time.monotonic()
    subprocess.run([PFIR, "reduce", os.path.join(work, "input.pfir"), "-o", out,
                    "-j", str(jobs)] + flags + ["--test", os.path.join(work, "interesting.sh")],
                   check=True, capture_output=True)
    return time.monotonic() - start, out


def run_cvise(work, jobs, limit):
    d = os.path.join(work, "cvise")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    shutil.copy(os.path.join(work, "input.pfir"), d)
    shutil.copy(os.path.join(work, "interesting.sh"), d)
    start = time.monotonic()
    stopped = False
    try:
        subprocess.run(["cvise", "--n", str(jobs), "interesting.sh", "input.pfir"],
                       cwd=d, capture_output=True, timeout=limit)
    except subprocess.TimeoutExpired:
        stopped = True
    return time.monotonic() - start, os.path.join(d, "input.pfir"), stopped


def main():
    global PFIR
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="2000,20000")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--cvise-limit", type=float, default=3600)
    ap.add_argument("--work", default="/tmp/pfir-reduce-bench")
    ap.add_argument("--no-cvise", action="store_true")
    ap.add_argument("--pfir", default=PFIR, help="the pfir binary (default: target/release/pfir)")
    args = ap.parse_args()
    PFIR = os.path.abspath(args.pfir)
    print("| input lines | tool | time (s) | lines as written | after `pfir fmt` | canonical |")
    print("| ---: | --- | ---: | ---: | ---: | ---: |")
    for size in [int(s) for s in args.sizes.split(",")]:
        work = os.path.join(args.work, str(size))
        os.makedirs(work, exist_ok=True)
        inp = os.path.join(work, "input.pfir")
        with open(inp, "w") as f:
            f.write(generate(size))
        script = os.path.join(work, "interesting.sh")
        with open(script, "w") as f:
            f.write(predicate_script(PFIR))
        os.chmod(script, 0o755)
        if subprocess.run([script, inp]).returncode != 0:
            sys.exit(f"the generated {size}-line program does not have the property")
        n = count_lines(inp)
        for flags in [[], ["--compact"]]:
            best, out = min(run_pfir(work, args.jobs, flags) for _ in range(args.runs))
            name = " ".join(["pfir reduce"] + flags)
            print(f"| {n} | {name} | {best:.1f} | {counts(out)} |", flush=True)
        if args.no_cvise:
            continue
        t, out, stopped = run_cvise(work, args.jobs, args.cvise_limit)
        mark = ">= " if stopped else ""
        print(f"| {n} | C-Vise | {mark}{t:.1f} | {counts(out)} |", flush=True)


if __name__ == "__main__":
    main()
