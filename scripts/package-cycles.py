#!/usr/bin/env python3
"""Reports circles between Java packages, and files that reach up to a front end's Main.

Reads every main source file (src/main/java) under the given roots (default: the repository),
takes its package and every org.dise name it mentions (imports and fully qualified names), and
prints each strongly connected set of two or more packages, with one file per edge as evidence.
Also prints every file that names a class called Main of another package (a lower package
reaching up to a front end's entry point; the front end's own package may use its Main). Exit status 1 when either is found, 0 otherwise (issue 26: "no circle, no file
reaching up to Main").

Usage: scripts/package-cycles.py [ROOT...]
"""
import os
import re
import sys

PACKAGE = re.compile(r"^\s*package\s+([\w.]+)\s*;", re.M)
NAME = re.compile(r"\b(org\.dise(?:\.[a-z_][\w]*)*)\.([A-Z]\w*)")


def sources(roots):
    for root in roots:
        for dirpath, dirnames, files in os.walk(root):
            dirnames[:] = [d for d in dirnames if d not in ("target", ".git", "node_modules")]
            if os.sep + "src" + os.sep + "main" + os.sep + "java" not in dirpath + os.sep:
                continue
            for f in files:
                if f.endswith(".java"):
                    yield os.path.join(dirpath, f)


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def main(argv):
    roots = argv[1:] or [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")]
    edges = {}  # package -> {package: example file}
    mains = []
    for path in sources(roots):
        with open(path, encoding="utf-8", errors="replace") as fh:
            text = strip_comments(fh.read())
        m = PACKAGE.search(text)
        if not m:
            continue
        pkg = m.group(1)
        out = edges.setdefault(pkg, {})
        for target, cls in NAME.findall(text):
            if target != pkg:
                out.setdefault(target, path)
            # A Main of another package: this file reaches up to a front end's entry point.
            if cls == "Main" and target != pkg:
                mains.append(path)
    # Tarjan's strongly connected components.
    index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, {}):
            if w not in edges:
                continue
            if w not in index:
                visit(w)
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
                comps.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    for comp in comps:
        print("circle: " + " <-> ".join(comp))
        for a in comp:
            for b in comp:
                if b in edges.get(a, {}):
                    print(f"  {a} -> {b} ({os.path.relpath(edges[a][b])})")
    for path in sorted(set(mains)):
        print("reaches up to Main: " + os.path.relpath(path))
    print(f"{len(edges)} packages, {len(comps)} circles, {len(set(mains))} files naming Main")
    return 1 if comps or mains else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
