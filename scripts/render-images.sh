#!/usr/bin/env bash
# Renders the PNG images from their SVG sources in art/:
#   art/*.svg          -> assets/images/NAME.png, NAME@2x.png, NAME@3x.png (built into the binary)
#   art/site/*.svg     -> site/assets/images/NAME.png (the example site)
#   art/scaffold/*.svg -> scaffold/assets/images/NAME.png (what `cardfeed init` writes)
# Needs Debian's librsvg2-bin (rsvg-convert) and optipng. The PNGs are committed; run this only
# after changing an SVG.
set -euo pipefail
cd "$(dirname "$0")/.."

render() { # svg, png, scale
  local width height
  width=$(sed -n 's/.*<svg[^>]* width="\([0-9]*\)".*/\1/p' "$1" | head -1)
  height=$(sed -n 's/.*<svg[^>]* height="\([0-9]*\)".*/\1/p' "$1" | head -1)
  rsvg-convert -w $((width * $3)) -h $((height * $3)) "$1" -o "$2"
  optipng -quiet -o2 "$2"
}

for svg in art/*.svg; do
  name=$(basename "$svg" .svg)
  render "$svg" "assets/images/$name.png" 1
  render "$svg" "assets/images/$name@2x.png" 2
  render "$svg" "assets/images/$name@3x.png" 3
done
for svg in art/site/*.svg; do render "$svg" "site/assets/images/$(basename "$svg" .svg).png" 1; done
for svg in art/scaffold/*.svg; do render "$svg" "scaffold/assets/images/$(basename "$svg" .svg).png" 1; done
ls -l assets/images site/assets/images scaffold/assets/images
