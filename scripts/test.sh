#!/usr/bin/env bash
# Runs every test: the Swift unit and golden-page tests, then the end-to-end tests that drive the
# built `cardfeed` binary (example site from another directory, exit codes, HTML validity with
# the W3C Nu checker). Installs missing system packages first (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
swift build
swift test
CARDFEED_BIN="$(swift build --show-bin-path)/cardfeed" python3 -m pytest -q -p no:cacheprovider Tests/EndToEnd
