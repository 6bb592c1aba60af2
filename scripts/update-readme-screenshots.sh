#!/usr/bin/env bash
# Refreshes the two screenshots README shows (docs/screenshots/): the example site on a phone
# (390 px, light) and on a desktop (1280 px, dark), taken by the browser tests
# (Tests/Browser/test_look.py) from the current templates and stylesheet. Run it after changing
# either, and commit the pictures with the change.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
swift build --product cardfeed
export CARDFEED_BIN="$(swift build --show-bin-path)/cardfeed"
shots="$(mktemp -d)"
trap 'rm -rf "$shots"' EXIT
CARDFEED_SCREENSHOTS="$shots" python3 -m pytest -q -p no:cacheprovider Tests/Browser/test_look.py -k screenshots
mkdir -p docs/screenshots
cp "$shots/look/example-index-390-light.png" docs/screenshots/phone.png
cp "$shots/look/example-index-1280-dark.png" docs/screenshots/desktop.png
echo "Updated docs/screenshots/phone.png and docs/screenshots/desktop.png"
