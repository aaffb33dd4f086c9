#!/usr/bin/env bash
# Builds and runs pkgconfig/consumer/consumer.c against an installed cdyn:
# installs the build into a temporary DESTDIR, compiles the consumer with
# nothing but `pkg-config --cflags --libs cdyn` (the installed cdyn.pc, with
# PKG_CONFIG_SYSROOT_DIR pointing into the DESTDIR), and runs it with
# LD_LIBRARY_PATH on the installed library; then links it statically with
# `pkg-config --static --libs cdyn` and runs that too.
#
# Usage: run.sh BUILDDIR SANITIZE CC [CC ARGS...]
#   SANITIZE: the build's b_sanitize (none, address, address,undefined ...),
#   passed on to the consumer so that it links the same runtime.
# Exit status: 0 pass, 1 fail, 77 skip (no pkg-config).
set -euo pipefail

build=$(cd "$1" && pwd)
sanitize=$2
shift 2
cc=("$@")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

if command -v pkg-config >/dev/null; then
    pkgconfig=pkg-config
elif command -v pkgconf >/dev/null; then
    pkgconfig=pkgconf
else
    echo "SKIP: pkg-config not installed"
    exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cdyn-consumer.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
root="$tmp/root"

meson install -C "$build" --destdir "$root" --no-rebuild --quiet >"$tmp/install.log" 2>&1 ||
    { cat "$tmp/install.log"; echo "FAIL: meson install"; exit 1; }

pc=$(find "$root" -path '*/pkgconfig/cdyn.pc' | head -n 1)
[ -n "$pc" ] || { echo "FAIL: no pkgconfig/cdyn.pc installed under $root"; find "$root"; exit 1; }
echo "installed: ${pc#"$root"}"

# Only the installed file: no system or user .pc directories.
export PKG_CONFIG_LIBDIR=$(dirname "$pc")
unset PKG_CONFIG_PATH
export PKG_CONFIG_SYSROOT_DIR=$root
# Keep -I/-L even for a prefix of /usr, whose directories pkg-config
# would otherwise drop as system directories.
export PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1 PKG_CONFIG_ALLOW_SYSTEM_LIBS=1

"$pkgconfig" --exists --print-errors cdyn
version=$("$pkgconfig" --modversion cdyn)
cflags=$("$pkgconfig" --cflags cdyn)
libs=$("$pkgconfig" --libs cdyn)
echo "pkg-config: version $version, --cflags '$cflags', --libs '$libs'"

san=()
if [ -n "$sanitize" ] && [ "$sanitize" != none ]; then
    san=("-fsanitize=$sanitize")
fi
# shellcheck disable=SC2086 # pkg-config output is a list of words
"${cc[@]}" -std=c11 -Wall -Wextra -pedantic -Werror "${san[@]}" $cflags \
    "$here/consumer.c" -o "$tmp/consumer" $libs -lm

# The library the consumer links: the installed one in the DESTDIR.
libdir=""
for word in $libs; do
    case $word in -L*) libdir=${word#-L} ;; esac
done
[ -n "$libdir" ] && [ -d "$libdir" ] || { echo "FAIL: no -L<dir> in --libs '$libs'"; exit 1; }
case $libdir in
    "$root"/*) ;;
    *) echo "FAIL: --libs points outside the DESTDIR: $libdir"; exit 1 ;;
esac
[ -e "$libdir/libcdyn.so" ] || { echo "FAIL: no libcdyn.so in $libdir"; exit 1; }

export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
if command -v ldd >/dev/null; then
    resolved=$(ldd "$tmp/consumer" | awk '/libcdyn/ {print $3}')
    echo "libcdyn resolves to ${resolved#"$root"} (in the DESTDIR)"
    case $resolved in
        "$root"/*) ;;
        *) echo "FAIL: the consumer would load $resolved, not the installed copy"; exit 1 ;;
    esac
fi
"$tmp/consumer"

# Static linking: `pkg-config --static --libs` must name what libcdyn.a
# needs (Libs.private). -l:libcdyn.a picks the archive over the .so.
static_libs=$("$pkgconfig" --static --libs cdyn)
static_libs=${static_libs/-lcdyn/-l:libcdyn.a}
# shellcheck disable=SC2086
"${cc[@]}" -std=c11 -Wall -Wextra -pedantic -Werror "${san[@]}" $cflags \
    "$here/consumer.c" -o "$tmp/consumer-static" $static_libs
if command -v ldd >/dev/null && ldd "$tmp/consumer-static" | grep -q libcdyn; then
    echo "FAIL: the static consumer still loads libcdyn.so"; exit 1
fi
env -u LD_LIBRARY_PATH "$tmp/consumer-static"
echo "PASS: consumers built with pkg-config (shared and static) against the installed cdyn $version"
