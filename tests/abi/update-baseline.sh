#!/usr/bin/env bash
# Writes the ABI baseline tests/abi/libcdyn.abi (abidw output) that the
# 'abidiff' test compares the built library against.
#
#   tests/abi/update-baseline.sh             # the committed tree (git HEAD)
#   tests/abi/update-baseline.sh --rev REV   # another commit
#   tests/abi/update-baseline.sh BUILDDIR    # the library of an existing build
#
# Without a build directory the library is built from a clean export of the
# commit in a temporary directory, so that uncommitted work in the tree does
# not leak into the baseline. The build must carry debug information (the default
# buildtype debugoptimized does).
#
# Update the baseline only for a deliberate ABI change, in the same commit
# as a line in CHANGELOG.md saying what changed (see tests/abi/README.md).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
out="$here/libcdyn.abi"

command -v abidw >/dev/null || { echo "abidw not found (Debian: apt-get install abigail-tools)" >&2; exit 1; }

tmp=
cleanup() { [ -n "$tmp" ] && rm -rf "$tmp"; return 0; }
trap cleanup EXIT

# Runs a build step quietly, showing its output only when it fails.
quiet() {
    local log
    log=$(mktemp)
    if ! "$@" >"$log" 2>&1; then
        cat "$log" >&2
        rm -f "$log"
        echo "failed: $*" >&2
        exit 1
    fi
    rm -f "$log"
}

rev=HEAD
if [ "${1:-}" = "--rev" ]; then
    rev=${2:?--rev needs a commit}
    shift 2
fi
if [ $# -ge 1 ]; then
    build=$(cd "$1" && pwd)
    quiet meson compile -C "$build" cdyn:shared_library
    what="build $build"
else
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/cdyn-abi-baseline.XXXXXX")
    git -C "$root" archive --format=tar "$rev" | tar -x -C "$tmp" -f -
    quiet meson setup "$tmp/build" "$tmp" -Dtests=disabled -Dexamples=disabled -Dbuildtype=debugoptimized
    quiet meson compile -C "$tmp/build" cdyn:shared_library
    build="$tmp/build"
    what="commit $(git -C "$root" rev-parse --short "$rev")"
fi

lib="$build/src/libcdyn.so"
[ -f "$lib" ] || { echo "no $lib" >&2; exit 1; }

# Flags: no paths of this machine in the file, ids by hash (stable diffs),
# only what the exported functions reach.
abidw --no-corpus-path --no-comp-dir-path --no-show-locs --exported-interfaces-only \
      --type-id-style hash --out-file "$out.tmp" "$lib"
mv "$out.tmp" "$out"

n=$(grep -c "<elf-symbol " "$out" || true)
echo "wrote $out from $what ($n exported symbols)"
echo "Now add a line to CHANGELOG.md (### Build, ABI and tests) saying why the ABI baseline changed."
