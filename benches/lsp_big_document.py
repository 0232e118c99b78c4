#!/usr/bin/env python3
"""`pfir lsp` on one big document: latency and memory, against the CLI.

Usage: benches/lsp_big_document.py PFIR [MEGABYTES [METHOD...]]
  MEGABYTES defaults to 50; METHODs (default: documentSymbol,
  semanticTokens/full, foldingRange) are the requests timed after the
  diagnostics, e.g. to leave out one that would exhaust the machine.

Generates a document of about MEGABYTES (the functions of the lsp bench,
repeated), then:
  - `pfir check` on it: wall time and peak RSS (the CLI's baseline);
  - `pfir lsp`: didOpen to its diagnostics, then documentSymbol,
    semanticTokens/full and foldingRange, each with its wall time, the
    size of its answer and the server's peak RSS (VmHWM) after it.
Linux only (reads /proc). Nothing here is a test; it prints numbers.
"""
import json, os, resource, subprocess, sys, tempfile, time

def document(megabytes):
    head = "func k(x: i64) -> i64 {\n  return x\n}\n"
    parts, size, f = [head], len(head), 0
    while size < megabytes * 1_000_000:
        p = (f"\norchestration func job{f}(n: i64) {{\n  manual {{\n"
             "    tids = array.create(4, task_id)\n    for i in parallel(4) {\n"
             "      a, ta = submit k(n, deps=[tids])\n      b, tb = submit k(a, deps=[tids])\n"
             "      c = a + b\n    }\n  }\n}\n")
        parts.append(p); size += len(p); f += 1
    return "".join(parts)

def hwm(pid):
    with open(f"/proc/{pid}/status") as s:
        for line in s:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) // 1024

class Server:
    def __init__(self, pfir):
        self.p = subprocess.Popen([pfir, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL)
        self.next = 1
    def send(self, msg):
        body = json.dumps(msg).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()
    def read(self):
        length = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit("pfir lsp closed its output (exit %s)" % self.p.wait())
            line = line.strip()
            if not line:
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        body = self.p.stdout.read(length)
        return len(body), json.loads(body)
    def request(self, method, params):
        i = self.next; self.next += 1
        self.send({"jsonrpc": "2.0", "id": i, "method": method, "params": params})
        while True:
            n, m = self.read()
            if m.get("id") == i and "method" not in m:
                return n, m
    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

def main():
    pfir = sys.argv[1]
    mb = float(sys.argv[2]) if len(sys.argv) > 2 else 50
    text = document(mb)
    with tempfile.NamedTemporaryFile("w", suffix=".pfir", delete=False) as f:
        f.write(text); path = f.name
    print(f"document: {len(text)/1e6:.1f} MB, {text.count(chr(10))} lines")
    t = time.time()
    subprocess.run([pfir, "check", path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
    print(f"pfir check: {time.time()-t:.1f} s, peak {rss} MiB")
    s = Server(pfir)
    s.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
    s.notify("initialized", {})
    uri = "file://" + path
    t = time.time()
    s.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "pfir",
                                                       "version": 1, "text": text}})
    while True:
        n, m = s.read()
        if m.get("method") == "textDocument/publishDiagnostics":
            break
    print(f"lsp diagnostics: {time.time()-t:.1f} s, peak {hwm(s.p.pid)} MiB")
    methods = sys.argv[3:] or ["documentSymbol", "semanticTokens/full", "foldingRange"]
    for method in ["textDocument/" + m for m in methods]:
        t = time.time()
        n, m = s.request(method, {"textDocument": {"uri": uri}})
        print(f"lsp {method}: {time.time()-t:.1f} s, answer {n/1e6:.1f} MB, "
              f"peak {hwm(s.p.pid)} MiB")
    s.request("shutdown", None)
    s.notify("exit", None)
    s.p.wait()
    os.unlink(path)

main()
