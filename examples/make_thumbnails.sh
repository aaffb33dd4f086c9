#!/usr/bin/env bash
# Remakes docs/images/NAME.png, the README gallery's thumbnails (480 pixels
# wide), from one picture of each example. Needs rsvg-convert and
# ImageMagick's convert; pngquant and optipng make the files smaller.
#   examples/make_thumbnails.sh BUILD_DIR   (a configured build, e.g. build-rel)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=$(realpath "${1:?usage: $0 BUILD_DIR}")
out=$PWD/docs/images
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
meson compile -C "$build" >/dev/null
# example and the picture of it that the gallery shows
while read -r name picture; do
    (cd "$work" && "$build/examples/$name" >/dev/null)
    # Maps are noisy: blurred a little and given fewer colours, undithered.
    colours=(--quality 60-90)
    case $picture in
    *.svg) rsvg-convert -w 480 -o "$out/$name.png" "$work/$picture" ;;
    *) convert "$work/$picture" -filter Triangle -resize 480x -blur 0x0.7 "$out/$name.png"
       colours=(--nofs 32) ;;
    esac
    if command -v pngquant >/dev/null; then
        pngquant --force --skip-if-larger "${colours[@]}" --output "$out/$name.png" \
            "$out/$name.png" || true
    fi
    if command -v optipng >/dev/null; then
        optipng -quiet -o5 "$out/$name.png"
    fi
    printf '%-18s %6d bytes\n' "$name" "$(stat -c %s "$out/$name.png")"
done <<'LIST'
spring_network spring_network.svg
pendulum_chain pendulum_chain.svg
bead_on_parabola bead_on_parabola_path.svg
roller_coaster roller_coaster.svg
newtons_cradle newtons_cradle.svg
lattice_cradle lattice_cradle.svg
polymer polymer.svg
polymer_melt polymer_melt.svg
tumbling_box tumbling_box.svg
jelly_on_ground jelly_on_ground.svg
driven_pendulum driven_pendulum.svg
shaker shaker.svg
oscillating_reaction brusselator_phase.svg
ensemble_river ensemble_river.svg
ensemble_polymer ensemble_polymer.svg
river_network river_network_R100.png
LIST
