#!/usr/bin/env python3
"""The parser's floor: what the LALRPOP parser of `grammar/pfir.lalrpop`
costs on the wide shape when its actions build nothing.

Usage: python3 benches/parser_floor.py [--runs N] [--keep DIR]

It copies the committed tree (`git archive HEAD`) to a temporary directory,
rewrites the copy's grammar so that every production keeps its symbols but
its action returns `()` (the module rule returns an empty module), builds
that copy in release, and times, pinned to core 0 and taking turns:

  * the recognizer: `pfir opt wide_1x.pfir` of the copy (read, lex, and
    every shift, reduction and goto of the real grammar; then nothing to
    lower, run or print);
  * `pfir opt wide_1x.pfir --passes=expand-manual-phase-fence` of this
    tree's `target/release/pfir`;
  * `mlir-opt-16 wide_1x.mlir`, when it is installed.

`target/bench-inputs/wide_1x.{pfir,mlir}` are written by
`cargo bench --bench e2e`. The figures are in docs/benchmarks.md.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INPUTS = os.path.join(ROOT, "target", "bench-inputs")
GRAMMAR = os.path.join("grammar", "pfir.lalrpop")

# A rule's head: `[#[inline]] [pub] Name[<T>]: Type = {`.
RULE = re.compile(r"^(#\[inline\]\n)?(pub )?([A-Za-z0-9_]+(?:<[A-Za-z]+>)?):[^\n]*?=\s*\{\n", re.M)


def alternatives(block):
    """The alternatives of a rule's body: split at commas that end a line
    outside brackets (actions hold commas of their own)."""
    out, depth, current = [], 0, ""
    for i, c in enumerate(block):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        if c == "," and depth == 0 and (i + 1 == len(block) or block[i + 1] == "\n"):
            out.append(current)
            current = ""
        else:
            current += c
    if current.strip():
        out.append(current)
    return out


def symbols(alternative):
    """An alternative's symbols without names, locations or action."""
    lines = [l.strip() for l in alternative.split("\n") if not l.strip().startswith("//")]
    text = " ".join(lines).strip()
    if not text:
        return None
    text = text.split("=>")[0]
    text = text.replace('"->"', "ARROW")  # a `>` that closes nothing
    text = re.sub(r"<[a-z_]+:@[LR]>", "", text)
    text = re.sub(r"<(?:mut )?[a-z_]+:((?:[^<>]|<[^<>]*>)+)>", r"\1", text)
    text = re.sub(r"(?<![A-Za-z0-9_])<([A-Z][A-Za-z0-9_]*(?:<[^<>]*>)?)>", r"\1", text)
    return text.replace("ARROW", '"->"').strip()


def recognizer(grammar):
    """`grammar` with every action replaced: the same symbols, no tree."""
    # The rules follow the `extern { ... }` block (the tokens), kept as is.
    depth, start = 0, grammar.index("\nextern {") + len("\nextern ")
    while True:
        depth += {"{": 1, "}": -1}.get(grammar[start], 0)
        start += 1
        if depth == 0:
            break
    head, body = grammar[:start], grammar[start:]
    rules = []
    for m in RULE.finditer(body):
        depth, j = 1, m.end()
        while depth:
            depth += {"{": 1, "}": -1}.get(body[j], 0)
            j += 1
        alts = [s for s in map(symbols, alternatives(body[m.end():j - 1])) if s is not None]
        name = m.group(3)
        ty, unit = ("Module<'input>", "Module::default()") if name == "Module" else ("()", "()")
        lines = "\n".join(f"    {a} => {unit}," for a in alts)
        rules.append(f"{m.group(1) or ''}{m.group(2) or ''}{name}: {ty} = {{\n{lines}\n}};\n")
    if not rules:
        sys.exit("parser_floor: no rules found in the grammar")
    return head + "\n" + "\n".join(rules)


def cpu_seconds(argv):
    """User + system CPU seconds of `argv`, pinned to core 0."""
    # Write-only, as a shell's `> /dev/null`: pfir takes a /dev/null opened
    # read-write (subprocess.DEVNULL) for a closed stdout.
    with open(os.devnull, "w") as sink:
        out = subprocess.run(
            ["/usr/bin/time", "-f", "%U %S", "taskset", "-c", "0", *argv],
            stdout=sink, stderr=subprocess.PIPE, text=True, check=True,
        ).stderr.strip().splitlines()[-1]
    user, system = map(float, out.split())
    return user + system


def main():
    args = sys.argv[1:]
    runs = int(args[args.index("--runs") + 1]) if "--runs" in args else 5
    keep = args[args.index("--keep") + 1] if "--keep" in args else None
    pfir_in = os.path.join(INPUTS, "wide_1x.pfir")
    mlir_in = os.path.join(INPUTS, "wide_1x.mlir")
    full = os.path.join(ROOT, "target", "release", "pfir")
    for path in (pfir_in, full):
        if not os.path.exists(path):
            sys.exit(f"parser_floor: {path} is missing (run `cargo bench --bench e2e` first)")
    work = keep or tempfile.mkdtemp(prefix="pfir-floor-")
    os.makedirs(work, exist_ok=True)
    try:
        archive = subprocess.run(["git", "-C", ROOT, "archive", "HEAD"], capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", work], input=archive, check=True)
        path = os.path.join(work, GRAMMAR)
        with open(path) as f:
            text = f.read()
        with open(path, "w") as f:
            f.write(recognizer(text))
        subprocess.run(["cargo", "build", "--release", "--locked", "--bin", "pfir"], cwd=work, check=True)
        floor = os.path.join(work, "target", "release", "pfir")
        have_mlir = shutil.which("mlir-opt-16") and os.path.exists(mlir_in)
        rows = {"recognizer": [], "pfir opt": [], "mlir-opt-16": []}
        for _ in range(runs):
            rows["recognizer"].append(cpu_seconds([floor, "opt", pfir_in]))
            rows["pfir opt"].append(cpu_seconds(
                [full, "opt", pfir_in, "--passes=expand-manual-phase-fence"]))
            if have_mlir:
                rows["mlir-opt-16"].append(cpu_seconds(["mlir-opt-16", mlir_in]))
        print(f"CPU seconds pinned to core 0, {runs} runs each, taking turns:")
        for name, times in rows.items():
            if times:
                print(f"  {name:12} best {min(times):.2f}  runs {', '.join(f'{t:.2f}' for t in times)}")
        if have_mlir:
            budget = min(rows["mlir-opt-16"]) / 4
            print(f"  a quarter of mlir-opt-16's best: {budget:.2f}; "
                  f"the recognizer alone takes {min(rows['recognizer']) / budget:.0%} of it")
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
