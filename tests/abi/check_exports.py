#!/usr/bin/env python3
"""The exported symbols of the shared library against the linker map and the
public headers.

Fails unless
  - the dynamic symbols the library defines (nm -D --defined-only) are exactly
    the names listed under `global:` in src/cdyn.map, each bound to the
    version node that lists it;
  - every exported name starts with `cdyn_` (and not `cdyn__`, the prefix of
    internals), and is a function (no exported data: no global state);
  - every function declared with CDYN_API in a public header is exported,
    and every exported function is declared in a public header (a function
    missing from the map would compile for users but fail to link).

Usage: check_exports.py --lib LIB --map MAP --nm NM --headers DIR [DIR...]
Exit status: 0 pass, 1 fail, 77 skip (nm missing).
"""
import argparse
import glob
import os
import re
import subprocess
import sys


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    return text


def parse_map(path):
    """Returns ({symbol: node}, [errors]) for the global symbols of a GNU ld
    version script."""
    text = strip_comments(open(path, encoding="utf-8").read())
    text = re.sub(r"(?m)^\s*#[^\n]*", " ", text)
    errors, symbols = [], {}
    if "extern" in text:
        errors.append("%s: extern blocks are not supported by this check" % path)
    pos = 0
    node_re = re.compile(r"\s*([A-Za-z_][\w.]*)?\s*\{(.*?)\}\s*([A-Za-z_][\w.]*)?\s*;", re.S)
    while pos < len(text.rstrip()):
        m = node_re.match(text, pos)
        if not m:
            errors.append("%s: cannot parse near: %r" % (path, text[pos:pos + 60]))
            break
        pos = m.end()
        node, body = m.group(1) or "", m.group(2)
        scope = "global"
        for part in body.split(";"):
            part = part.strip()
            while True:
                lm = re.match(r"(global|local)\s*:\s*", part)
                if not lm:
                    break
                scope = lm.group(1)
                part = part[lm.end():].strip()
            if not part:
                continue
            if scope == "local":
                if part != "*":
                    errors.append("%s: node %s: unexpected local entry %r" % (path, node, part))
                continue
            if not re.fullmatch(r"[A-Za-z_]\w*", part):
                errors.append("%s: node %s: %r is not a plain symbol name (no wildcards: "
                              "the map names each export)" % (path, node, part))
                continue
            if part in symbols:
                errors.append("%s: %s listed twice (nodes %s and %s)"
                              % (path, part, symbols[part], node))
            symbols[part] = node
    return symbols, errors


def dynamic_symbols(nm, lib, nodes):
    """Returns ({name: (type, version or None)}, version_info_available)."""
    out = subprocess.run([nm, "-D", "--defined-only", "--format=posix", lib],
                         check=True, stdout=subprocess.PIPE, universal_newlines=True).stdout
    syms, versioned = {}, False
    for line in out.splitlines():
        fields = line.split()
        if len(fields) < 2:
            continue
        name, kind = fields[0], fields[1]
        version = None
        if "@" in name:
            versioned = True
            name, _, version = name.partition("@")
            version = version.lstrip("@")
        if kind == "A" and (name in nodes or version == name):
            continue  # the version definitions themselves
        syms[name] = (kind, version)
    return syms, versioned


DECL_RE = re.compile(r"\bCDYN_API\b([^;{}()]*?)\b([A-Za-z_]\w*)\s*\(")


def declared_functions(dirs):
    """Functions declared with CDYN_API in the public headers: {name: header}."""
    found = {}
    for d in dirs:
        for h in sorted(glob.glob(os.path.join(d, "*.h"))):
            text = strip_comments(open(h, encoding="utf-8").read())
            text = text.replace("\\\n", " ")  # join continued lines
            text = re.sub(r"(?m)^\s*#[^\n]*", " ", text)  # drop preprocessor lines
            for m in DECL_RE.finditer(text):
                found[m.group(2)] = os.path.basename(h)
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--map", required=True)
    ap.add_argument("--nm", default="nm")
    ap.add_argument("--headers", nargs="+", default=[])
    args = ap.parse_args()

    try:
        subprocess.run([args.nm, "--version"], check=True, stdout=subprocess.DEVNULL)
    except (OSError, subprocess.CalledProcessError):
        print("SKIP: %s not usable" % args.nm)
        return 77

    mapped, errors = parse_map(args.map)
    nodes = set(mapped.values())
    exported, versioned = dynamic_symbols(args.nm, args.lib, nodes)

    for name in sorted(set(exported) - set(mapped)):
        errors.append("exported but not in the map: %s" % name)
    for name in sorted(set(mapped) - set(exported)):
        errors.append("in the map (node %s) but not exported (not defined, or not "
                      "marked CDYN_API): %s" % (mapped[name], name))
    for name, (kind, version) in sorted(exported.items()):
        if not name.startswith("cdyn_") or name.startswith("cdyn__"):
            errors.append("exported name outside the public namespace cdyn_*: %s" % name)
        if kind not in ("T", "W", "i"):
            errors.append("exported symbol %s is not a function (nm type %s): the library "
                          "keeps no global state" % (name, kind))
        if versioned and name in mapped and version != mapped[name]:
            errors.append("%s is bound to version %s, the map lists it under %s"
                          % (name, version, mapped[name]))
    if not versioned:
        print("note: this nm does not show symbol versions; version nodes not checked")

    if args.headers:
        declared = declared_functions(args.headers)
        for name in sorted(set(declared) - set(exported)):
            errors.append("declared CDYN_API in %s but not exported (add it to src/cdyn.map): %s"
                          % (declared[name], name))
        for name in sorted(set(exported) - set(declared)):
            errors.append("exported but declared in no public header: %s" % name)
        print("%d functions declared CDYN_API in the public headers" % len(declared))

    print("%d symbols in %s, %d exported by %s (version nodes: %s)"
          % (len(mapped), os.path.basename(args.map), len(exported),
             os.path.basename(args.lib), ", ".join(sorted(nodes)) or "none"))
    if errors:
        for e in errors:
            print("FAIL: " + e)
        return 1
    print("PASS: exports, map and headers agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
