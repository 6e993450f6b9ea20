#!/usr/bin/env python3
"""scripts/layers.py - mnw's layers, read from the code's own includes and
calls, and the rules they keep (docs/ARCHITECTURE.md, "Layers").

Usage: python3 scripts/layers.py [--root DIR] [--quiet]

Prints each layer, top to bottom, with its files, lines and the layers it
uses, then every rule broken; exit status 1 when one is. The rules:

  1. an include of the project's own headers names its folder from the
     repository root ("lib/fasta.h", never "fasta.h"), and the file exists:
     one include root (-I. in the Makefile);
  2. no file includes or calls into a layer above its own (LAYERS below);
  3. a private header (a name ending in _int.h, or a .cuh kernel header) is
     included only from its own folder, and by the white-box tests (tests/);
  4. no circle between two or more source files: A uses B when A includes
     B's header or calls (names) a function or variable that B alone defines,
     and no file reaches itself that way.

Tests (tests/, but for the reference aligner tests/ref/, a layer) are held
to rule 1 only: they test every layer.
"""
import os
import re
import sys

# top to bottom; a file may use its own layer and those below it
LAYERS = [
    ("bench/", "benchmarks: programs of their own over the whole library"),
    ("src/", "the program's top: entry point, options, config file, mnw status, resume"),
    ("cld/", "the cluster-level dispatcher: work lists, placement, bookmark, outputs"),
    ("nld/", "the node-level dispatcher: queues, threads, topology, the rank's own writes"),
    ("workers/cpu/", "the CPU worker: SIMD kernels, work lists"),
    ("workers/gpu/", "the GPU worker: devices, kernels"),
    ("workers/tb/", "the trace-back thread and walks (CPU and GPU share them)"),
    ("tests/ref/", "the plain reference aligner: the oracle of the tests and benchmarks"),
    ("lib/", "the common library: input, scoring, formats, logs, MPI wrapper"),
]
# workers/cpu and workers/gpu stand side by side: neither may use the other
SIDE_BY_SIDE = {("workers/cpu/", "workers/gpu/"), ("workers/gpu/", "workers/cpu/")}
SOURCE = re.compile(r"\.(c|h|cu|cuh|cpp)$")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer_of(path):
    for i, (d, _) in enumerate(LAYERS):
        if path.startswith(d):
            return i
    return None


def is_test(path):
    return path.startswith("tests/") and layer_of(path) is None


def is_private(path):
    return path.endswith("_int.h") or path.endswith(".cuh")


def strip_code(text):
    """The text without comments, strings and character constants."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r'"(\\.|[^"\\\n])*"', '""', text)
    text = re.sub(r"'(\\.|[^'\\\n])*'", "''", text)
    return text


DEF_FN = re.compile(r"^(?!static\b)(?!typedef\b)(?:[A-Za-z_][\w\s\*]*?[\s\*])([A-Za-z_]\w*)\s*\([^;{]*?\)\s*(?:MNW_\w+\s*)*\{", re.M | re.S)
DEF_VAR = re.compile(r"^(?!static\b)(?!typedef\b)(?!extern\b)(?:const\s+)?[A-Za-z_]\w*[\s\*]+([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*(?:=[^;]*)?;", re.M)
WORD = re.compile(r"[A-Za-z_]\w*")


def main():
    args = sys.argv[1:]
    root = "."
    quiet = False
    while args:
        a = args.pop(0)
        if a == "--root" and args:
            root = args.pop(0)
        elif a == "--quiet":
            quiet = True
        else:
            sys.stderr.write(__doc__)
            return 2
    os.chdir(root)
    files = []
    for top in [d for d, _ in LAYERS] + ["tests/"]:
        for dp, dn, fn in os.walk(top):
            dn[:] = sorted(x for x in dn if x not in ("results", "tmp", "data"))
            for f in sorted(fn):
                p = os.path.join(dp, f)
                if SOURCE.search(f):
                    files.append(p)
    text = {p: open(p, encoding="utf-8", errors="replace").read() for p in files}
    broken = []

    # rule 1 (every file), and the include arrows
    uses = {p: set() for p in files}  # p -> files it uses
    why = {}
    for p in files:
        for m in INCLUDE.finditer(text[p]):
            inc = m.group(1)
            line = text[p].count("\n", 0, m.start()) + 1
            if "/" not in inc:
                broken.append(f"{p}:{line}: #include \"{inc}\" names no folder (write it from the repository root)")
                continue
            if not os.path.isfile(inc):
                broken.append(f"{p}:{line}: #include \"{inc}\": no such file from the repository root")
                continue
            if inc != p:
                uses[p].add(inc)
                why[(p, inc)] = f"#include \"{inc}\" (line {line})"

    # calls: names a .c/.cu file alone defines (outside tests)
    code_files = [p for p in files if not is_test(p) and re.search(r"\.(c|cu|cpp)$", p)]
    definers = {}
    code = {p: strip_code(text[p]) for p in code_files}
    for p in code_files:
        for rx in (DEF_FN, DEF_VAR):
            for m in rx.finditer(code[p]):
                definers.setdefault(m.group(1), set()).add(p)
    sole = {n: next(iter(ps)) for n, ps in definers.items() if len(ps) == 1}
    for p in code_files:
        for n in set(WORD.findall(code[p])):
            q = sole.get(n)
            if q and q != p:
                uses[p].add(q)
                why.setdefault((p, q), f"names {n}")

    # a header and its source are one unit for circles (x.h with x.c / x.cu)
    def unit(p):
        b, e = os.path.splitext(p)
        if e in (".h", ".cuh"):
            for s in (".c", ".cu", ".cpp"):
                if os.path.isfile(b + s):
                    return b + s
        return p

    # rules 2 and 3
    for p in files:
        if is_test(p):
            continue
        lp = layer_of(p)
        for q in sorted(uses[p]):
            lq = layer_of(q)
            if lq is None:
                broken.append(f"{p}: uses {q}, which is in no layer ({why[(p, q)]})")
            elif lq < lp or (LAYERS[lp][0], LAYERS[lq][0]) in SIDE_BY_SIDE:
                broken.append(f"{p} ({LAYERS[lp][0]}) uses {q} ({LAYERS[lq][0]}), a layer above it or beside it: {why[(p, q)]}")
    for p in files:
        for q in sorted(uses[p]):
            if is_private(q) and not is_test(p) and os.path.dirname(p) != os.path.dirname(q):
                broken.append(f"{p} includes {q}, private to {os.path.dirname(q)}/")

    # rule 4: circles between units (Tarjan's strongly connected components)
    graph = {}
    for p in files:
        if is_test(p):
            continue
        a = unit(p)
        for q in uses[p]:
            b = unit(q)
            if a != b and not is_test(b):
                graph.setdefault(a, set()).add(b)
                why.setdefault((a, b), why.get((p, q), ""))
        graph.setdefault(a, set())
    index, low, stack, on, sccs = {}, {}, [], set(), []
    counter = [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                sccs.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            strong(v)
    for comp in sccs:
        ties = "; ".join(f"{a} -> {b}: {why.get((a, b), '')}" for a in comp for b in sorted(graph[a]) if b in comp)
        broken.append(f"circle between {len(comp)} files: {', '.join(comp)} ({ties})")

    if not quiet:
        print("mnw's layers, top to bottom (a file uses its own layer and those below it):")
        for i, (d, what) in enumerate(LAYERS):
            mine = [p for p in files if layer_of(p) == i]
            lines = sum(text[p].count("\n") for p in mine)
            below = sorted({LAYERS[layer_of(q)][0] for p in mine for q in uses[p] if layer_of(q) is not None and layer_of(q) != i},
                           key=lambda d2: [x for x, _ in LAYERS].index(d2))
            print(f"  {len(LAYERS) - i}  {d:<13} {len(mine):3d} files {lines:6d} lines  uses: {' '.join(below) or '-'}")
            print(f"     {what}")
        npriv = sum(1 for p in files if is_private(p))
        print(f"private headers (*_int.h, *.cuh): {npriv}; source files in layers: {sum(1 for p in files if layer_of(p) is not None)}; "
              f"tests: {sum(1 for p in files if is_test(p))}")
    for b in broken:
        print("BROKEN: " + b)
    print(f"{len(broken)} rules broken")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
