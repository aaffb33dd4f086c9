#!/usr/bin/env bash
# The Python package installed the two ways docs/python.md describes, each
# imported from outside the source tree and run:
#   1. meson install into a prefix: the package finds the library in the
#      prefix's library directory;
#   2. pip install --no-build-isolation --no-index . in a virtual environment
#      made with --system-site-packages (Debian's numpy, cffi and
#      meson-python serve it; nothing is downloaded): the package finds the
#      library it bundles.
# And the build backend's message to a user without the build tools.
#
# Usage: python/tools/check_install.sh WORKDIR   (run from anywhere)
# Exit status 0 when all three hold.
set -euo pipefail

src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=${1:?usage: check_install.sh WORKDIR}
rm -rf "$work" && mkdir -p "$work"
work=$(cd "$work" && pwd)

# A Python with numpy and cffi: Debian's, else the first python3 on PATH.
python=
for p in /usr/bin/python3 python3; do
    if command -v "$p" >/dev/null && "$p" -c 'import numpy, cffi' 2>/dev/null; then
        python=$(command -v "$p")
        break
    fi
done
[ -n "$python" ] || { echo "no Python with numpy and cffi"; exit 1; }
echo "Python: $python"

# A pendulum from the installed package; prints where the library came from.
smoke='
import math, cdyn
with cdyn.System(dim=2, integrator="rk4") as s:
    bob = s.add_particle(1.0, [1.0, 0.0])
    s.add_anchor(bob, [0, 0], 1.0)
    s.add_gravity([0, -9.81])
    s.step(1e-3, steps=100)
    assert abs(math.hypot(*bob.position) - 1.0) < 1e-9
print(cdyn.__file__)
print(cdyn.LIBRARY_PATH)
'

echo "--- 1. meson install into $work/prefix"
meson setup "$work/build" "$src" --prefix="$work/prefix" -Dpython=enabled -Dtests=disabled \
    -Dbenchmarks=disabled -Dexamples=disabled -Dinstall_docs=disabled >"$work/setup.log"
meson install -C "$work/build" >"$work/install.log"
pkg=$(find "$work/prefix" -path '*/cdyn/__init__.py' | head -n 1)
[ -n "$pkg" ] || { echo "the package was not installed"; exit 1; }
out=$(cd "$work" && env -u CDYN_LIBRARY PYTHONPATH="$(dirname "$(dirname "$pkg")")" \
      "$python" -c "$smoke")
echo "$out"
case $(echo "$out" | tail -n 1) in
    "$work/prefix"/*) ;;
    *) echo "the installed package loaded a library from outside the prefix"; exit 1 ;;
esac

echo "--- 2. pip install in a virtual environment ($work/venv)"
"$python" -m venv --system-site-packages "$work/venv"
(cd "$src" && env -u CDYN_LIBRARY "$work/venv/bin/pip" install --no-build-isolation --no-index \
    --quiet .)
out=$(cd "$work" && env -u CDYN_LIBRARY "$work/venv/bin/python" -c "$smoke")
echo "$out"
case $(echo "$out" | tail -n 1) in
    "$work/venv"/*) ;;
    *) echo "the pip-installed package loaded a library from outside the environment"; exit 1 ;;
esac

echo "--- 3. the build backend without build tools"
if msg=$(cd "$src/python/build_backend" && PATH=/nonexistent "$python" -c \
         'import cdyn_build; cdyn_build._check()' 2>&1); then
    echo "the backend did not notice the missing tools"
    exit 1
fi
echo "$msg"
echo "$msg" | grep -q "apt-get install" || { echo "no install advice"; exit 1; }
echo "installed both ways"
