#!/usr/bin/env bash
# Regenerates every PNG image from its hand-written SVG source in art/:
#   art/*.svg          -> assets/images/NAME.png, NAME@2x.png, NAME@3x.png (built into the binary)
#   art/site/*.svg     -> site/assets/images/NAME.png (the Brewline example site), and the same
#                         picture wherever an example in examples/ has one of that name
#   art/scaffold/*.svg -> scaffold/assets/images/NAME.png (what `cardfeed init` writes), and the
#                         same picture in examples/customised/assets/images/ (Customising's site)
# The 1x pixel size of each PNG is the width/height on the SVG's root element. Each SVG is
# rasterised with rsvg-convert, then losslessly shrunk with optipng; the output is deterministic.
# Needs the Debian packages librsvg2-bin (rsvg-convert) and optipng:
#   apt-get install -y librsvg2-bin optipng
# The summer banner's headline uses the generic "sans-serif" family (DejaVu Sans on Debian, from
# fonts-dejavu-core), so its PNG can differ slightly on a machine with other fonts.
# The PNGs are committed; run this only after changing an SVG.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

for tool in rsvg-convert optipng; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "render-images: $tool not found; install it with: apt-get install -y librsvg2-bin optipng" >&2
    exit 1
  fi
done

# svg_size SVG: prints "WIDTH HEIGHT" from the root <svg> element.
svg_size() {
  local tag width height
  tag=$(tr '\n' ' ' <"$1" | grep -o '<svg[^>]*>' | head -1)
  width=$(sed -n 's/.* width="\([0-9]*\)".*/\1/p' <<<"$tag")
  height=$(sed -n 's/.* height="\([0-9]*\)".*/\1/p' <<<"$tag")
  if [ -z "$width" ] || [ -z "$height" ]; then
    echo "render-images: $1: the root <svg> element needs integer width and height" >&2
    exit 1
  fi
  echo "$width $height"
}

# render SVG PNG SCALE
render() {
  local width height
  read -r width height <<<"$(svg_size "$1")"
  width=$((width * $3)) height=$((height * $3))
  mkdir -p "$(dirname "$2")"
  rsvg-convert --width "$width" --height "$height" --output "$2" "$1"
  optipng -o2 -quiet -strip all "$2"
  echo "render-images: $2 (${width}x${height}, $(wc -c <"$2") bytes)"
}

shopt -s nullglob
for svg in art/*.svg; do
  name=$(basename "$svg" .svg)
  render "$svg" "assets/images/$name.png" 1
  render "$svg" "assets/images/$name@2x.png" 2
  render "$svg" "assets/images/$name@3x.png" 3
done
for svg in art/site/*.svg; do
  render "$svg" "site/assets/images/$(basename "$svg" .svg).png" 1
  for copy in examples/*/assets/images/"$(basename "$svg" .svg).png"; do
    cp "site/assets/images/$(basename "$svg" .svg).png" "$copy"
  done
done
for svg in art/scaffold/*.svg; do
  render "$svg" "scaffold/assets/images/$(basename "$svg" .svg).png" 1
  cp "scaffold/assets/images/$(basename "$svg" .svg).png" examples/customised/assets/images/
done
