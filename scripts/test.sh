#!/usr/bin/env bash
# Runs every test: the Swift unit and golden-page tests, then the end-to-end tests that drive the
# built `cardfeed` binary (example site from another directory, exit codes, HTML validity with
# the W3C Nu checker), then the browser tests in headless Chromium (the example site with its
# client script, and `cardfeed serve`; screenshots go to $CARDFEED_SCREENSHOTS, default
# /tmp/cardfeed-screenshots), and last the release packages (scripts/package.sh) installed in a
# fresh Debian 12 root, and the GitHub Action's steps run against them (Tests/Package).
# Installs missing system packages first (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
swift build
swift test
export CARDFEED_BIN="$(swift build --show-bin-path)/cardfeed"
python3 -m pytest -q -p no:cacheprovider Tests/EndToEnd
python3 -m pytest -q -p no:cacheprovider Tests/Browser
bash scripts/package.sh
python3 -m pytest -q -p no:cacheprovider Tests/Package
