#!/usr/bin/env bash
# Usage: bash scripts/test.sh [--fast]
#
# With no option, runs every test (CI's run, .ci/run): the Swift unit and golden-page tests,
# then the end-to-end tests that drive the built `cardfeed` binary (example site from another
# directory, exit codes, HTML validity with the W3C Nu checker), then the browser tests in
# headless Chromium (the example site with its client script, and `cardfeed serve`;
# screenshots go to $CARDFEED_SCREENSHOTS, default /tmp/cardfeed-screenshots), and last the
# release packages (scripts/package.sh) installed in a fresh Debian 12 root, and the GitHub
# Action's steps run against them (Tests/Package).
#
#   --fast   the tests to run on every change, in under three minutes on two cores once the
#            debug build is up to date: the Swift tests and, beside them, the end-to-end tests
#            less those marked `slow` (tens of thousands of cards, a 200 MB file, waits for a
#            time limit). No browser, no root, no release build.
#
# The end-to-end tests run in parallel, a worker per core (pytest-xdist), with their temporary
# folders in a folder of this run's, removed at the end unless a test failed.
# Installs missing system packages first (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

fast=false
case "${1:-}" in
  "") ;;
  --fast) fast=true ;;
  -h|--help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
  *) echo "test.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
esac

bash scripts/setup.sh
swift build
export CARDFEED_BIN="$(swift build --show-bin-path)/cardfeed"

# pytest's own temporary folders are shared by every run on the machine, and each run deletes
# the oldest; in a folder of this run's, a run pays for its own files only.
temporary=$(mktemp -d -t cardfeed-tests.XXXXXX)
keep_on_failure() {
  local status=$?
  if [ "$status" -eq 0 ] || [ -z "$(ls -A "$temporary")" ]; then rm -rf "$temporary"
  else echo "test.sh: the tests' files are kept in $temporary" >&2; fi
}
trap keep_on_failure EXIT
pytest=(python3 -m pytest -q -p no:cacheprovider --strict-markers)
# --dist loadscope keeps a module's tests on one worker, so a module's shared site is made once.
parallel=(-n auto --dist loadscope)

if $fast; then
  # The Swift tests spend much of their time waiting (file watchers, timers): they run beside
  # the end-to-end tests, and their output follows them.
  swift test > "$temporary/swift-test.log" 2>&1 &
  swift_test=$!
  e2e=0
  "${pytest[@]}" "${parallel[@]}" --basetemp "$temporary/end-to-end" -m "not slow" Tests/EndToEnd || e2e=$?
  swift=0
  wait "$swift_test" || swift=$?
  if [ "$swift" -eq 0 ]; then tail -n 1 "$temporary/swift-test.log"; else cat "$temporary/swift-test.log"; fi
  echo "test.sh --fast: swift test $([ "$swift" -eq 0 ] && echo passed || echo FAILED), end-to-end tests $([ "$e2e" -eq 0 ] && echo passed || echo FAILED)"
  [ "$swift" -eq 0 ] && [ "$e2e" -eq 0 ]
  exit
fi
swift test
"${pytest[@]}" "${parallel[@]}" --basetemp "$temporary/end-to-end" Tests/EndToEnd
rm -rf "$temporary/end-to-end"  # passed: nothing to look at if a later step fails
python3 -m pytest -q -p no:cacheprovider Tests/Browser
bash scripts/package.sh
python3 -m pytest -q -p no:cacheprovider Tests/Package
