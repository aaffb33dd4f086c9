#!/usr/bin/env python3
"""The include layers of src/ (docs/architecture.md).

src/meson.build lists the folders of the library in layer order: a folder
may include headers of its own folder and of the folders listed before it,
never of one listed after it (an include that runs upward). Public headers
(cdyn/...) may be included anywhere.

A second check works on files: a source file and the header of the same
name are one unit; no two units outside core/ may include each other's
headers in a loop (a cycle of any length).

Usage: check_layers.py SRC_DIR     Exit status 0 pass, 1 fail.
"""
import os
import re
import sys


def layer_order(src):
    text = open(os.path.join(src, "meson.build"), encoding="utf-8").read()
    m = re.search(r"foreach module\s*:\s*\[(.*?)\]", text, re.S)
    if not m:
        sys.exit("check_layers: no module list in src/meson.build")
    return re.findall(r"'([^']+)'", m.group(1))


def sources(src):
    for root, _, files in os.walk(src):
        for f in files:
            if f.endswith((".c", ".h")):
                path = os.path.join(root, f)
                yield os.path.relpath(path, src).replace(os.sep, "/")


def includes(src, rel):
    text = open(os.path.join(src, rel), encoding="utf-8").read()
    return [m for m in re.findall(r'^\s*#\s*include\s+"([^"]+)"', text, re.M)
            if not m.startswith("cdyn/")]


def unit(rel):
    return os.path.splitext(rel)[0]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    src = sys.argv[1]
    order = layer_order(src)
    rank = {name: i for i, name in enumerate(order)}
    errors = []
    graph = {}
    for rel in sorted(sources(src)):
        folder = rel.split("/")[0]
        if "/" not in rel:
            continue
        if folder not in rank:
            errors.append(f"{rel}: folder '{folder}' is not in the module list of "
                          "src/meson.build")
            continue
        for inc in includes(src, rel):
            dep = inc.split("/")[0]
            if "/" not in inc:
                errors.append(f"{rel}: include \"{inc}\" is not written \"folder/file.h\"")
                continue
            if dep not in rank:
                errors.append(f"{rel}: includes \"{inc}\" from an unknown folder")
                continue
            if rank[dep] > rank[folder]:
                errors.append(f"{rel}: includes \"{inc}\": '{dep}' is above '{folder}' "
                              "in the layers")
            if not os.path.exists(os.path.join(src, inc)):
                errors.append(f"{rel}: includes \"{inc}\", which does not exist")
            a, b = unit(rel), unit(inc)
            if a != b and not a.startswith("core/") and not b.startswith("core/"):
                graph.setdefault(a, set()).add(b)
    # Cycles among units (Tarjan's strongly connected components).
    index, low, stack, on, comps = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
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

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    for comp in comps:
        errors.append("include cycle among " + ", ".join(comp))
    for e in errors:
        print(e)
    print(f"check_layers: {len(order)} layers ({' < '.join(order)}), "
          f"{sum(1 for _ in sources(src))} files, {len(errors)} problems")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
