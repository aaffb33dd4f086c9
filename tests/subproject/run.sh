#!/usr/bin/env bash
# Builds tests/subproject/parent, a project that uses cdyn as a meson
# subproject, once with shared and once with static libraries, and runs its
# program: the dependency is found through the fallback, the library's
# tests, examples and benchmarks are left out, the program links the kind
# of library asked for, and only the library is installed.
#   tests/subproject/run.sh [WORKDIR]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=${1:-$(mktemp -d)}
mkdir -p "$work"
parent=$work/parent
rm -rf "$parent"
cp -r "$root/tests/subproject/parent" "$parent"
mkdir -p "$parent/subprojects"
# the library's tree as the subproject, without build directories
mkdir -p "$parent/subprojects/cdyn"
tar -C "$root" --exclude './build*' --exclude './.git' -cf - . | tar -C "$parent/subprojects/cdyn" -xf -
fail=0
for kind in shared static; do
    b=$work/build-$kind
    rm -rf "$b" "$work/install-$kind"
    meson setup "$b" "$parent" --force-fallback-for=cdyn -Ddefault_library=$kind \
        --prefix=/usr >/dev/null
    targets=$(meson introspect --targets "$b" | python3 -c \
        'import json,sys; print(" ".join(sorted(t["name"] for t in json.load(sys.stdin))))')
    case " $targets " in
    *" test_"*|*" bench_"*|*" spring_network "*)
        echo "subproject ($kind): the library's tests, benchmarks or examples are built: $targets"
        fail=1 ;;
    esac
    meson compile -C "$b" >/dev/null
    "$b/pendulum" || fail=1
    linked=$(readelf -d "$b/pendulum" | grep -c 'libcdyn' || true)
    if [ "$kind" = shared ] && [ "$linked" -eq 0 ]; then
        echo "subproject (shared): pendulum does not link libcdyn.so"; fail=1
    fi
    if [ "$kind" = static ] && [ "$linked" -ne 0 ]; then
        echo "subproject (static): pendulum links libcdyn.so"; fail=1
    fi
    DESTDIR=$work/install-$kind meson install -C "$b" >/dev/null
    if find "$work/install-$kind" -path '*share/doc*' | grep -q .; then
        echo "subproject ($kind): documentation installed without being asked"; fail=1
    fi
    echo "subproject ($kind): built, ran, installed $(find "$work/install-$kind" -type f | wc -l) files"
done
exit $fail
