#!/usr/bin/env bash
# Makes embed/cardfeed-embed.min.js, which the build writes as OUTPUT/embed/cardfeed-embed.js, from
# embed/cardfeed-embed.js, the file to read and change, with Debian's esbuild (scripts/setup.sh
# installs it). Run it after changing the script and commit both: Tests/EndToEnd/test_embed_script.py
# fails while they differ, and holds the minified file to 3,000 bytes gzipped.
#   --target=es2022   what browsers of the last two years run (class fields, optional catch binding)
set -euo pipefail
cd "$(dirname "$0")/.."
esbuild embed/cardfeed-embed.js --minify --target=es2022 --log-level=warning \
  "--banner:js=/* CardFeed's placements (docs/embedding.md), minified from embed/cardfeed-embed.js */" \
  --outfile=embed/cardfeed-embed.min.js
