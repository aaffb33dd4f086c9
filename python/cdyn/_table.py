"""The table of every C function and its Python spelling, for docs/python.md
(`python3 -m cdyn._table` prints it; the test suite checks the guide's copy)."""
import inspect

import cdyn
from cdyn._call import BINDINGS


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


if __name__ == "__main__":
    print(markdown(), end="")
