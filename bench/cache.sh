#!/usr/bin/env bash
# What a rebuild from the build cache costs after one change (issue 56), against a build of the
# same input without the cache.
#
# usage: bench/cache.sh [N]        (default: 100000 cards)
#   RUNS=4       timed runs of each change, from the cache and without it in turn (cached first in
#                odd runs, cold first in even ones); medians are printed
#   SEED=42      seed of the card generator
#   SEARCH=1     every build with --search (Pagefind must be installed: bash scripts/get-pagefind.sh)
#   BENCH_WORK   scratch folder (default /tmp/cardfeed-bench-cache)
#   CARDFEED_BIN time this cardfeed binary instead of a release build of the checkout
#
# The site: N cards from bench/gen_cards.py, a page per card (the default), a stylesheet of its
# own (assets/custom.css), release build, --now fixed. First a build without the cache (timed
# once: a first build, into a new folder), and one from the cache, which fills it. Then each
# change in turn: a card added, a card changed (its title), a card expired (--now moves past its
# expires_at), a card removed, one card type's template changed (templates/cards/
# short_news.mustache, the built-in with an attribute added), the site's stylesheet edited, and
# "ci": a card changed as a CI job sees it, the cache restored (copied, so new inodes, without
# previous-output/, as the action saves it) and the output made anew in a new folder (the build
# without the cache also into a new folder). For
# each run of a change: the site is put back as it was and built from the cache (untimed: the
# cache holds the site before the change), the change is made, and then, in turn, the build from
# the cache (into its output, which holds the site before the change) and a build of the same
# input with --no-cache (into an output of its own, which holds the site before the change in
# the first run, after it in later ones: they differ by a few files) are timed with GNU time.
#
# The cache's options are passed only when `cardfeed build --help` lists them; without them (no
# cache engine yet), the build "from the cache" is a full build, and the figures say so: the
# ratio is then about 1. The summary line of the last build from the cache is printed for each
# change (with the engine: "Reused N of M cards; K files written").
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
n=${1:-100000}
runs=${RUNS:-4}
seed=${SEED:-42}
work=${BENCH_WORK:-/tmp/cardfeed-bench-cache}
now=1800000000  # fixed: no card expires between runs but the one the "expired" change expires
expires=$((now + 86400))

command -v /usr/bin/time >/dev/null || { echo "bench: /usr/bin/time is missing (apt-get install time)" >&2; exit 1; }
mkdir -p "$work"
outputs="$work/outputs"
if [ -e "$outputs" ]; then
  echo "bench: $outputs is left from an interrupted run; remove it and wait five minutes before timing (see bench/README.md)" >&2
  exit 1
fi
trap 'rm -rf "$outputs" "$work/cache" "$work/cache-ci"' EXIT
if [ -n "${CARDFEED_BIN:-}" ]; then cardfeed=$CARDFEED_BIN
else (cd "$repo" && swift build -c release --product cardfeed >/dev/null); cardfeed="$repo/.build/release/cardfeed"; fi

help=$("$cardfeed" build --help)
cached_options=(); cold_options=()
if grep -q -- --cache-dir <<<"$help"; then cached_options=(--cache-dir "$work/cache"); fi
if grep -q -- --no-cache <<<"$help"; then cold_options=(--no-cache); fi
if [ ${#cached_options[@]} -eq 0 ] || [ ${#cold_options[@]} -eq 0 ]; then
  echo "bench: this cardfeed has no --cache-dir or --no-cache: a build \"from the cache\" is what its build is (a full build, unless it keeps a cache of its own in SITE/.cardfeed-cache)"
fi
search=(); [ "${SEARCH:-0}" = 0 ] || search=(--search)

# The cards, and each one-card change of them, written once (one card a line, as gen_cards.py
# writes them, so that a change is a line): base.json has one card that expires a day after --now.
data="$work/cards-$n-$seed.json"
[ -s "$data" ] || python3 "$here/gen_cards.py" "$n" "$seed" "$data"
cards="$work/cards-$n-$seed"
if [ ! -s "$cards-removed.json" ]; then
  python3 - "$data" "$cards" "$expires" <<'PY'
import json, sys
cards = json.load(open(sys.argv[1]))
out, expires = sys.argv[2], int(sys.argv[3])
middle = len(cards) // 2
cards[middle // 2]["expires_at"] = expires
def write(name, entries):
    with open(f"{out}-{name}.json", "w") as file:
        file.write("[\n" + ",\n".join(json.dumps(card, ensure_ascii=False, separators=(",", ":")) for card in entries) + "\n]\n")
write("base", cards)
added = dict(cards[middle], id="added" + cards[middle]["id"][5:], title="A card added to the bench's site")
write("added", cards[:1] + [added] + cards[1:])
changed = [dict(card) for card in cards]
changed[middle]["title"] = "A card whose title changed"
write("changed", changed)
write("removed", cards[:middle] + cards[middle + 1:])
PY
fi
site="$work/site-$n"
rm -rf "$site"; mkdir -p "$site"

median() { sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

# timed LABEL OUTPUT NOW OPTIONS...: one build of $site, its wall time appended to $work/LABEL.txt
# (nothing kept for the label "untimed"), its summary's last line kept in $work/summary.txt.
timed() {
  local label=$1 output=$2 at=$3; shift 3
  sync
  /usr/bin/time -f "%e" -o "$work/time.txt" "$cardfeed" build "$site" --output "$output" --now "$at" "${search[@]}" "$@" \
    >"$work/stdout.txt" 2>"$work/stderr.txt" || { echo "bench: $label failed:" >&2; cat "$work/stderr.txt" >&2; exit 1; }
  grep -E "^(Reused|Wrote)" "$work/stdout.txt" | paste -sd ' ' > "$work/summary.txt" || true
  [ "$label" = untimed ] || cat "$work/time.txt" >> "$work/$label.txt"
}
# The "ci" change builds from a copy of the cache into a new output, and without it into a new folder too.
cached_build() {
  if [ "${ci:-0}" = 1 ] && [ ${#cached_options[@]} -gt 0 ]; then
    # (Only one output of the ci change at a time, and not the other changes' cold one: with
    # search, 100,000 cards' output takes some 1.5 GB of a tmpfs.)
    rm -rf "$work/cache-ci" "$outputs/ci" "$outputs/ci-cold" "$outputs/cold"; cp -a "$work/cache" "$work/cache-ci"; rm -rf "$work/cache-ci/previous-output"; sync
    timed "$1" "$outputs/ci" "$2" --cache-dir "$work/cache-ci"
  else
    timed "$1" "$outputs/cached" "$2" "${cached_options[@]}"
  fi
}
cold_build() {
  if [ "${ci:-0}" = 1 ]; then rm -rf "$outputs/ci-cold" "$outputs/ci" "$work/cache-ci" "$outputs/cold"; timed "$1" "$outputs/ci-cold" "$2" "${cold_options[@]}"
  else timed "$1" "$outputs/cold" "$2" "${cold_options[@]}"; fi
}

# change NAME / unchange NAME: makes the change to the site, or undoes it; at_now NAME: its --now.
# The site has a stylesheet of its own (assets/custom.css), which the stylesheet change edits:
# every page links it, so writing one where there was none changes every page.
change() {
  case $1 in
    added|changed|removed) cp "$cards-$1.json" "$site/cards.json" ;;
    ci) cp "$cards-changed.json" "$site/cards.json" ;;
    expired) ;;
    template) mkdir -p "$site/templates/cards"
              sed 's/class="/data-bench="changed" class="/' "$repo/templates/cards/short_news.mustache" > "$site/templates/cards/short_news.mustache" ;;
    stylesheet) printf '.card { outline: 1px solid #b45309; }\n' > "$site/assets/custom.css" ;;
  esac
}
unchange() {
  cp "$cards-base.json" "$site/cards.json"; rm -rf "$site/templates"
  mkdir -p "$site/assets"; printf '.card { outline: 1px solid #1d4ed8; }\n' > "$site/assets/custom.css"
}
at_now() { if [ "$1" = expired ]; then echo "$expires"; else echo "$now"; fi; }

mkdir -p "$outputs"
unchange
rm -f "$work"/*-"$n".txt
echo "bench: $n cards, a page per card${search[*]:+, with search}, $runs runs of each change"
timed "first-$n" "$outputs/first" "$now" "${cold_options[@]}"
cold_build untimed "$now"
cached_build untimed "$now"
changes=(added changed expired removed template stylesheet ci)
for name in "${changes[@]}"; do
  for run in $(seq 1 "$runs"); do
    ci=0; unchange; cached_build untimed "$now"
    change "$name"
    [ "$name" = ci ] && ci=1
    if ((run % 2)); then
      cached_build "cached-$name-$n" "$(at_now "$name")"; summary=$(cat "$work/summary.txt")
      cold_build "cold-$name-$n" "$(at_now "$name")"
    else
      cold_build "cold-$name-$n" "$(at_now "$name")"
      cached_build "cached-$name-$n" "$(at_now "$name")"; summary=$(cat "$work/summary.txt")
    fi
  done
  echo "$summary" > "$work/summary-$name-$n.txt"
done
ci=0
unchange

printf '\n%-12s %14s %14s %10s   %s\n' change "cached (s)" "no cache (s)" ratio "the build from the cache said"
printf '%-12s %14s %14.2f %10s\n' "first build" "" "$(median < "$work/first-$n.txt")" ""
for name in "${changes[@]}"; do
  cached=$(median < "$work/cached-$name-$n.txt"); cold=$(median < "$work/cold-$name-$n.txt")
  printf '%-12s %14.2f %14.2f %10.3f   %s\n' "$name" "$cached" "$cold" "$(echo "$cached / $cold" | bc -l)" "$(cat "$work/summary-$name-$n.txt")"
done
