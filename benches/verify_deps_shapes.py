#!/usr/bin/env python3
"""Writes the pathological `--verify-deps` shapes of issue 12 as .pfir files.

Usage: python3 benches/verify_deps_shapes.py OUT_DIR
Then, for each file:
  /usr/bin/time -f "%e s %M KB" target/release/pfir opt OUT_DIR/NAME.pfir \
      --passes=expand-manual-phase-fence --verify-deps > /dev/null
The figures are in docs/dependency-evaluator.md ("Cost").
"""
import os
import sys

KERNEL = "func k() {\n}\n\n"


def nested(depth):
    """`depth` nested `for v in range(m)` (unknown trip count) around one submit."""
    lines = [KERNEL, "orchestration func main(m: i64) {", "  manual {",
             "    tids = array.create(4, task_id)"]
    ind = "    "
    for d in range(depth):
        lines.append(f"{ind}for v{d} in range(m) {{")
        ind += "  "
    lines.append(f"{ind}t = submit k(deps=[tids])")
    for d in range(depth):
        ind = ind[:-2]
        lines.append(f"{ind}}}")
    lines += ["  }", "}", ""]
    return "\n".join(lines)


def if_chain(links):
    """`p_i = if c { t = submit k(deps=[p_{i-1}]) yield t } else { yield p_{i-1} }`."""
    lines = [KERNEL, "orchestration func main(c: bool) {", "  manual {",
             "    p0 = submit k()"]
    for i in range(1, links + 1):
        lines += [f"    p{i} = if c {{",
                  f"      t{i} = submit k(deps=[p{i - 1}])",
                  f"      yield t{i}",
                  "    } else {",
                  f"      yield p{i - 1}",
                  "    }"]
    lines += ["  }", "}", ""]
    return "\n".join(lines)


def fan_out(producers, consumers):
    """`producers` tasks stored in one array, then `consumers` tasks waiting for it."""
    return (KERNEL + "orchestration func main() {\n  manual {\n"
            f"    tids = array.create({producers}, task_id)\n"
            f"    for i in range({producers}) {{\n"
            "      p = submit k()\n"
            "      _ = array.update_element(tids, i, p)\n"
            "    }\n"
            f"    for j in range({consumers}) {{\n"
            "      c = submit k(deps=[tids])\n"
            "    }\n  }\n}\n")


def else_if_chain(n):
    """An `else if` chain of `n` branches (unknown conditions) inside a loop."""
    lines = [KERNEL, "orchestration func main(x: i64) {", "  manual {",
             "    tids = array.create(8, task_id)",
             "    for i in range(4) {",
             "      p = submit k()",
             "      _ = array.update_element(tids, i, p)",
             "    }",
             "    for j in range(2) {"]
    for b in range(n):
        head = "      if" if b == 0 else "      } else if"
        lines += [f"{head} x == {b} {{", f"        t{b} = submit k(deps=[tids])"]
    lines += ["      }", "    }", "  }", "}", ""]
    return "\n".join(lines)


def many_functions(n):
    """`n` empty functions and a small orchestration function."""
    return "".join(f"func fn{i}() {{\n}}\n\n" for i in range(n)) + fan_out(4, 4)


def many_nests(n, depth):
    """`n` orchestration functions, each a nest of `depth` loops of unknown
    trip count around a `submit`: each reaches its own budget, so the run's
    budget (`analysis::RunBudget`) is what bounds the whole run."""
    body = nested(depth).split("orchestration func main(m: i64) {", 1)[1]
    return KERNEL + "".join(
        f"orchestration func main{i}(m: i64) {{" + body + "\n" for i in range(n))


SHAPES = {
    "nested_unknown_14": lambda: nested(14),
    "nested_unknown_20": lambda: nested(20),
    "if_chain_1600": lambda: if_chain(1600),
    "fan_out_4096x32000": lambda: fan_out(4096, 32000),
    "else_if_chain_4000": lambda: else_if_chain(4000),
    "many_functions_80000": lambda: many_functions(80000),
    "nests_100x20": lambda: many_nests(100, 20),
}

if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "target/verify-deps-shapes"
    os.makedirs(out, exist_ok=True)
    for name, make in SHAPES.items():
        with open(os.path.join(out, name + ".pfir"), "w") as f:
            f.write(make())
        print(os.path.join(out, name + ".pfir"))
