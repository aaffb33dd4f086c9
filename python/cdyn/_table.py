"""The table of every C function and its Python spelling, for docs/python.md.

    python3 -m cdyn._table                   prints it
    python3 -m cdyn._table docs/python.md    rewrites the guide's copy
                                             (between its api-table markers)
The test suite checks that the guide's copy is current."""
import inspect
import sys

import cdyn
from cdyn._call import BINDINGS

BEGIN, END = "<!-- api-table -->", "<!-- /api-table -->"


def _spell(spelling):
    owner, _, attr = spelling.rpartition(".")
    if not owner:
        return "`cdyn.%s()`" % attr
    if attr == "__init__":
        return "`cdyn.%s()`" % owner
    obj = inspect.getattr_static(getattr(cdyn, owner), attr)
    if isinstance(obj, property):
        return "`%s.%s`" % (owner, attr)
    return "`%s.%s()`" % (owner, attr)


def markdown():
    lines = ["| C function | Python |", "|---|---|"]
    for name in sorted(BINDINGS):
        lines.append("| `%s` | %s |" % (name, ", ".join(_spell(s) for s in BINDINGS[name])))
    return "\n".join(lines) + "\n"


def rewrite(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    head, rest = text.split(BEGIN, 1)
    _old, tail = rest.split(END, 1)
    with open(path, "w", encoding="utf-8") as f:
        f.write(head + BEGIN + "\n" + markdown() + END + tail)


if __name__ == "__main__":
    if len(sys.argv) > 1:
        rewrite(sys.argv[1])
    else:
        print(markdown(), end="")
