#!/usr/bin/env python3
"""Hostile saves against `pfir lsp` (issue 32, "Budgets that hold").

A document whose RUN line `pfir opt %s | FileCheck %s` runs inside the
server (both stages) and whose N regex CHECK-DAG lines make FileCheck do
N^2/2 searches (minutes) is saved SAVES times, INTERVAL s apart; a hover
follows each save. Reported: the slowest hover answer, the server's peak
RSS (VmHWM), how long after each newer save the superseded run's thread
was gone (the server's 30-150 ms debounce included), how long after the
last run's deadline (`testTimeout`) its thread was gone, and the CPU the
server used in the 2 s after that deadline.

    python3 benches/lsp_hostile_saves.py --pfir target/release/pfir

Linux only (reads /proc). The machine's load shows in the figures: compare
binaries in the same run.
"""

import argparse
import json
import os
import subprocess
import tempfile
import time

TICK = os.sysconf("SC_CLK_TCK")


def document(n):
    lines = ["// RUN: pfir opt %s | FileCheck %s", "func k() -> i64 {"]
    lines += [f"  a{i} = {i}" for i in range(n)]
    lines += ["  return a0", "}"]
    lines += ["// CHECK-DAG: {{[a]}}"] * n
    return "\n".join(lines) + "\n"


class Server:
    def __init__(self, exe, timeout):
        self.p = subprocess.Popen(
            [exe, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL)
        self.next_id = 0
        self.request("initialize", {
            "processId": None, "rootUri": None, "capabilities": {},
            "initializationOptions": {"testTimeout": timeout}})
        self.notify("initialized", {})

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def read(self):
        length = 0
        while True:
            line = self.p.stdout.readline()
            if line in (b"\r\n", b"\n"):
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.p.stdout.read(length))

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params):
        self.next_id += 1
        rid = self.next_id
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        while True:
            m = self.read()
            if m.get("id") == rid and "method" not in m:
                return m
            if "method" in m and "id" in m:  # a request of the server
                self.send({"jsonrpc": "2.0", "id": m["id"], "result": None})

    def test_threads(self):
        """The ids of the server's test-run threads."""
        tids = set()
        for tid in os.listdir(f"/proc/{self.p.pid}/task"):
            try:
                with open(f"/proc/{self.p.pid}/task/{tid}/comm") as f:
                    if f.read().strip() == "pfir-lsp-test":
                        tids.add(tid)
            except OSError:
                pass
        return tids

    def status(self, key):
        with open(f"/proc/{self.p.pid}/status") as f:
            for line in f:
                if line.startswith(key):
                    return int(line.split()[1])
        return 0

    def cpu(self):
        with open(f"/proc/{self.p.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK


def wait_gone(server, tids, limit):
    """Seconds until none of the threads `tids` is left (None: not within
    `limit` s)."""
    start = time.monotonic()
    while time.monotonic() - start < limit:
        if not tids & server.test_threads():
            return time.monotonic() - start
        time.sleep(0.002)
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pfir", default="target/release/pfir")
    ap.add_argument("--n", type=int, default=10000)
    ap.add_argument("--saves", type=int, default=6)
    ap.add_argument("--interval", type=float, default=0.3)
    ap.add_argument("--timeout", type=float, default=1.0)
    args = ap.parse_args()
    text = document(args.n)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "hostile.pfir")
        with open(path, "w") as f:
            f.write(text)
        uri = "file://" + path
        s = Server(args.pfir, args.timeout)
        s.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "pfir", "version": 1, "text": text}})
        hovers, superseded = [], []
        for i in range(args.saves):
            running = s.test_threads()
            t_save = time.monotonic()
            s.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
            if running:
                # The newer save cancels the run before it.
                superseded.append(wait_gone(s, running, args.interval))
            t = time.monotonic()
            s.request("textDocument/hover", {
                "textDocument": {"uri": uri}, "position": {"line": 2, "character": 3}})
            hovers.append(time.monotonic() - t)
            time.sleep(max(t_save + args.interval - time.monotonic(), 0))
        # The last run started within the server's debounce after its save.
        time.sleep(0.2)
        last = s.test_threads()
        deadline = t_save + args.timeout
        time.sleep(max(deadline - time.monotonic(), 0))
        cpu0 = s.cpu()
        gone = wait_gone(s, last, 2.0) if last else None
        time.sleep(max(deadline + 2.0 - time.monotonic(), 0))
        cpu_after = s.cpu() - cpu0
        peak = s.status("VmHWM:")
        t = time.monotonic()
        s.request("textDocument/hover", {
            "textDocument": {"uri": uri}, "position": {"line": 2, "character": 3}})
        hovers.append(time.monotonic() - t)
        s.request("shutdown", None)
        s.notify("exit", None)
        try:
            s.p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            s.p.kill()

    def ms(x):
        return "not within the wait" if x is None else f"{x * 1000:.0f} ms"

    print(f"binary: {args.pfir}")
    print(f"slowest hover: {max(hovers) * 1000:.0f} ms")
    print(f"peak RSS: {peak / 1024:.0f} MiB")
    print("superseded run's thread gone after the newer save: "
          + ", ".join(ms(x) for x in superseded))
    print("last run's thread gone after its deadline (its save + testTimeout, "
          f"so the debounce is in it): {ms(gone)}")
    print(f"CPU used in the 2 s after the last deadline: {cpu_after:.2f} s")


if __name__ == "__main__":
    main()
