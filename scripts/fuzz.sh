#!/usr/bin/env bash
# Fuzzes loading and rendering a card file: builds the fuzz target (Sources/CardFeedFuzz) with
# libFuzzer and AddressSanitizer into .build-fuzz/, seeds a temporary corpus from the Braze
# fixtures and the example sites' cards, and runs it for SECONDS (default 60) on JOBS processes
# (default 1). FUZZ_TARGET=config fuzzes cardfeed.yml instead, FUZZ_TARGET=templates the card
# template (each checked in a small site, as `cardfeed check` does), seeded from the example
# sites' files. A template input may hold partials: each line `----` ends one template and
# begins the next, partials/p1, partials/p2 … (see SiteProbe), so the fuzzer also tries
# templates that include each other. Every input that crashes or fails a check is saved as fuzz-crashes/crash-*;
# replay one with `swift run CardFeedFuzz FILE` (named *.yml or *.mustache for the other two
# targets), fix it, and keep it as a regression test in Tests/CardFeedFuzzTests/Regressions/.
#
#   bash scripts/fuzz.sh [SECONDS] [JOBS]
#   FUZZ_TARGET=config bash scripts/fuzz.sh 60
#
# Set FUZZ_CORPUS to keep the corpus between runs (it grows as the fuzzer finds new paths).
# Not part of scripts/test.sh or CI: it takes as long as you let it.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
jobs="${2:-1}"

echo "Building the fuzz target (libFuzzer, AddressSanitizer) into .build-fuzz/ …"
CARDFEED_LIBFUZZER=1 swift build -c debug --build-path .build-fuzz --product CardFeedFuzz 2>&1 \
  | grep -v "Cannot export local symbol" || true
binary=.build-fuzz/debug/CardFeedFuzz
[[ -x "$binary" ]] || { echo "error: the fuzz target did not build" >&2; exit 1; }

target="${FUZZ_TARGET:-cards}"
corpus="${FUZZ_CORPUS:-$(mktemp -d -t cardfeed-corpus.XXXXXX)}"
mkdir -p "$corpus" fuzz-crashes
shopt -s nullglob globstar
case "$target" in
  cards) seeds=(Tests/CardFeedBuildTests/Fixtures/braze/*.json site/cards.json site/cards/*.json
                examples/customised/cards.json Tests/CardFeedFuzzTests/Regressions/*.json)
         dictionary=(-dict=scripts/fuzz.dict) ;;
  config) seeds=(site/cardfeed.yml examples/*/cardfeed.yml Tests/CardFeedFuzzTests/Regressions/*.yml); dictionary=() ;;
  templates) seeds=(templates/**/*.mustache examples/**/*.mustache Tests/CardFeedFuzzTests/Regressions/*.mustache); dictionary=() ;;
  *) echo "error: FUZZ_TARGET is cards, config or templates, not $target" >&2; exit 2 ;;
esac
for seed in "${seeds[@]}"; do
  cp "$seed" "$corpus/seed-${seed//\//_}"
done
export CARDFEED_FUZZ_TARGET="$target"
# Every target reads its input back from a file (the probe is a whole build of a small site):
# FoundationEssentials' reader leaks a 4 KB buffer for an empty file, which LeakSanitizer would
# report as the first finding every time. Leaks are not what these targets look for.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
echo "Corpus ($target): $corpus ($(ls "$corpus" | wc -l) files); fuzzing for ${seconds} s on ${jobs} process(es) …"

status=0
# The Swift runtime's own crash handler gets in the way of AddressSanitizer's report.
export SWIFT_BACKTRACE=enable=no
"$binary" "$corpus" "${dictionary[@]}" -max_total_time="$seconds" -max_len=8192 -timeout=10 \
  -rss_limit_mb=2048 -artifact_prefix=fuzz-crashes/ -print_final_stats=1 \
  $([[ "$jobs" -gt 1 ]] && echo "-fork=$jobs") || status=$?
[[ -z "${FUZZ_CORPUS:-}" ]] && rm -rf "$corpus"
if compgen -G "fuzz-crashes/*" > /dev/null; then
  echo "Found: $(ls fuzz-crashes | tr '\n' ' ')"
fi
exit "$status"
