#!/usr/bin/env bash
# CardFeed and Hugo side by side on the same generated cards.
#
# usage: bench/run.sh [N ...]        (default: 10000 100000; add 1000000 for the big run)
#   RUNS=4       timed runs of each tool per size, in turn (cardfeed, paged, hugo, paged, cardfeed, hugo, ...);
#                even, so that each CardFeed build goes first as often
#   WARMUP=1     untimed runs of each tool per size before the timed ones (0 for the big run)
#   SEED=42      seed of the card generator
#   PAGED=1      also time CardFeed's default paginated build (20 cards a page)
#   CUSTOM=1     also time a site with its own card frame and page template (the built-ins
#                copied into SITE/templates/ with an attribute added), one page and paginated
#   HUGO=0       skip Hugo (CardFeed only)
#   LANGUAGES=1  also time the same cards, each given a language (en, de, ar in turn), as a site
#                in one language and as a site in three (languages: [en, de, ar]), one page a
#                feed, and print the ratio (issue 46 asks for at most 1.15)
#   SEARCH=1     also time the one-page build with --search (Pagefind must be installed:
#                bash scripts/get-pagefind.sh), and print what search adds
#   PLACEMENTS=1 also time the one-page build of the same cards with ten placements
#                (cardfeed.yml's placements:, two of them with an extras filter that few cards
#                match, so that they read their whole feed), and print what placements add
#   OTHER_BIN=/usr/bin/cardfeed   also time this cardfeed binary (for example the packaged one,
#                scripts/package.sh) on one page a feed, in turn with the one built here, and
#                print its wall time and peak memory as a ratio of this build's
#   BENCH_WORK   scratch folder (default /tmp/cardfeed-bench)
#
# For each size: generates N News Feed cards (bench/gen_cards.py, deterministic), builds
# CardFeed in release mode, and times whole processes with GNU time: `cardfeed build
# --page-size 0` (one page a feed) and `hugo` on bench/hugo-site (one page a feed, every card
# through a per-type partial, Markdown descriptions). Every run writes into a new output folder,
# for both tools alike; the outputs are removed when the script ends (on ext4 without a journal,
# creating files in the five minutes after thousands were removed is several times slower: see
# bench/README.md). Prints wall time, CPU time (user + system), peak memory, cards per second
# and the ratios of the medians. Needs Debian's hugo and time packages:
# apt-get install hugo time.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10000 100000)
runs=${RUNS:-4}
warmup=${WARMUP:-1}
seed=${SEED:-42}
work=${BENCH_WORK:-/tmp/cardfeed-bench}
now=1800000000  # fixed, so that no card expires between runs

for tool in /usr/bin/time python3; do command -v "$tool" >/dev/null || { echo "bench: $tool is missing (apt-get install time)" >&2; exit 1; }; done
if [ "${HUGO:-1}" != 0 ] && ! command -v hugo >/dev/null; then
  echo "bench: hugo is missing: apt-get install hugo (or HUGO=0 to time CardFeed alone)" >&2
  exit 1
fi
mkdir -p "$work"
outputs="$work/outputs"
if [ -e "$outputs" ]; then
  echo "bench: $outputs is left from an interrupted run; remove it and wait five minutes before timing (see bench/README.md)" >&2
  exit 1
fi
trap 'rm -rf "$outputs"' EXIT
(cd "$repo" && swift build -c release --product cardfeed >/dev/null)
cardfeed="$repo/.build/release/cardfeed"

median() { sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

# timed LABEL COMMAND...: runs the command under GNU time; appends "wall peak_kib cpu" to
# $work/LABEL.txt (cpu: user + system seconds). A LABEL of "warmup" keeps no figures.
timed() {
  local label=$1; shift
  /usr/bin/time -f "%e %M %U %S" -o "$work/time.txt" "$@" >/dev/null 2>"$work/stderr.txt" || {
    echo "bench: $label failed:" >&2; cat "$work/stderr.txt" >&2; exit 1; }
  [ "$label" = warmup ] || awk '{printf "%s %s %.2f\n", $1, $2, $3 + $4}' "$work/time.txt" >> "$work/$label.txt"
}

# cardfeed_one, cardfeed_paged, hugo_build LABEL OUT: one build of the size at hand ($site,
# $hugo_site), timed as LABEL, into OUT-cardfeed, OUT-paged or OUT-hugo.
cardfeed_one() { sync; timed "$1" "$cardfeed" build "$site" -o "$2-cardfeed" --page-size 0 --now "$now" --quiet; }
cardfeed_paged() { [ "${PAGED:-1}" = 0 ] || { sync; timed "$1" "$cardfeed" build "$site" -o "$2-paged" --now "$now" --quiet; }; }
other_one() { [ -z "${OTHER_BIN:-}" ] || { sync; timed "$1" "$OTHER_BIN" build "$site" -o "$2-other" --page-size 0 --now "$now" --quiet; }; }
search_one() { [ "${SEARCH:-0}" = 0 ] || { sync; timed "$1" "$cardfeed" build "$site" -o "$2-search" --page-size 0 --now "$now" --quiet --search; }; }
lang_one() { [ "${LANGUAGES:-0}" = 0 ] || { sync; timed "$1" "$cardfeed" build "$one_language_site" -o "$2-one-language" --page-size 0 --now "$now" --quiet; }; }
lang_three() { [ "${LANGUAGES:-0}" = 0 ] || { sync; timed "$1" "$cardfeed" build "$three_language_site" -o "$2-three-languages" --page-size 0 --now "$now" --quiet; }; }
placements_one() {
  [ "${PLACEMENTS:-0}" = 0 ] || { sync; timed "$1" "$cardfeed" build "$placements_site" -o "$2-placements" --page-size 0 --now "$now" --quiet; }
}
custom_one() { [ "${CUSTOM:-1}" = 0 ] || { sync; timed "$1" "$cardfeed" build "$custom_site" -o "$2-custom" --page-size 0 --now "$now" --quiet; }; }
custom_paged() {
  [ "${CUSTOM:-1}" = 0 ] || [ "${PAGED:-1}" = 0 ] || { sync; timed "$1" "$cardfeed" build "$custom_site" -o "$2-custom-paged" --now "$now" --quiet; }
}
hugo_build() {
  [ "${HUGO:-1}" != 0 ] || return 0
  rm -rf "$hugo_site/public" "$hugo_site/resources"; sync
  timed "$1" hugo --quiet --source "$hugo_site" --contentDir content-single --destination "$2-hugo"
}

printf '%-9s %-16s %9s %8s %10s %12s\n' cards tool "wall (s)" "cpu (s)" "peak (MiB)" "cards/s"
for n in "${sizes[@]}"; do
  data="$work/cards-$n-$seed.json"
  [ -s "$data" ] || python3 "$here/gen_cards.py" "$n" "$seed" "$data"
  site="$work/cardfeed-site-$n"
  mkdir -p "$site"
  ln -sf "$data" "$site/cards.json"
  # The same cards with the card frame and the page template overridden, as a designer would.
  custom_site="$work/custom-site-$n"
  rm -rf "$custom_site"; mkdir -p "$custom_site/templates"
  ln -sf "$data" "$custom_site/cards.json"
  sed 's/<article class="card /<article data-site="custom" class="card /' "$repo/templates/card.mustache" > "$custom_site/templates/card.mustache"
  sed 's/<main class="feed"/<main data-site="custom" class="feed"/' "$repo/templates/page.mustache" > "$custom_site/templates/page.mustache"
  # The same cards, each with a language, in a site of one language and in a site of three.
  one_language_site="$work/one-language-site-$n"; three_language_site="$work/three-language-site-$n"
  if [ "${LANGUAGES:-0}" != 0 ]; then
    languages_data="$work/cards-$n-$seed-languages.json"
    [ -s "$languages_data" ] || python3 -c 'import json, sys
cards = json.load(open(sys.argv[1]))
for index, card in enumerate(cards): card["language"] = ["en", "de", "ar"][index % 3]
open(sys.argv[2], "w").write("[\n" + ",\n".join(json.dumps(card, separators=(",", ":")) for card in cards) + "\n]\n")' "$data" "$languages_data"
    rm -rf "$one_language_site" "$three_language_site"; mkdir -p "$one_language_site" "$three_language_site"
    ln -sf "$languages_data" "$one_language_site/cards.json"; ln -sf "$languages_data" "$three_language_site/cards.json"
    echo "languages: [en, de, ar]" > "$three_language_site/cardfeed.yml"
  fi
  # The same cards with ten placements: every built-in feed's first cards, and two extras filters.
  placements_site="$work/placements-site-$n"
  rm -rf "$placements_site"; mkdir -p "$placements_site"
  ln -sf "$data" "$placements_site/cards.json"
  cat > "$placements_site/cardfeed.yml" <<'YML'
placements:
  hero: {feed: all, limit: 1}
  latest: {feed: all, limit: 5}
  news: {feed: news, limit: 3}
  offers: {feed: advertising, limit: 3}
  announcements: {feed: announcements, limit: 2}
  social: {feed: social, limit: 4}
  other: {feed: uncategorized, limit: 5}
  side: {feed: news, limit: 1}
  summer: {feed: all, extras: {theme: summer-offer}, limit: 5}
  rare: {feed: all, extras: {campaign: no-card-has-this}, limit: 5}
YML
  hugo_site="$work/hugo-site-$n"
  rm -rf "$hugo_site"; mkdir -p "$hugo_site/data"
  cp -r "$here/hugo-site/hugo.toml" "$here/hugo-site/layouts" "$here/hugo-site/content-single" "$hugo_site/"
  cp "$data" "$hugo_site/data/cards.json"
  rm -f "$work"/placements-$n.txt "$work"/search-$n.txt "$work"/other-$n.txt "$work"/cardfeed-$n.txt "$work"/hugo-$n.txt "$work"/paged-$n.txt "$work"/custom-$n.txt "$work"/custompaged-$n.txt "$work"/onelang-$n.txt "$work"/threelang-$n.txt

  # One-page and paginated builds take turns at going first, so that neither always runs right
  # after the other (or after Hugo); warm-up runs are not counted.
  for run in $(seq 1 "$warmup"); do
    out="$outputs/$n-warmup-$run"
    cardfeed_one warmup "$out"; placements_one warmup "$out"; search_one warmup "$out"; other_one warmup "$out"; cardfeed_paged warmup "$out"; custom_one warmup "$out"; custom_paged warmup "$out"
    lang_one warmup "$out"; lang_three warmup "$out"
    hugo_build warmup "$out"
  done
  for run in $(seq 1 "$runs"); do
    out="$outputs/$n-$run"
    if ((run % 2)); then
      cardfeed_one "cardfeed-$n" "$out"; placements_one "placements-$n" "$out"; search_one "search-$n" "$out"; other_one "other-$n" "$out"; custom_one "custom-$n" "$out"; cardfeed_paged "paged-$n" "$out"; custom_paged "custompaged-$n" "$out"
      lang_one "onelang-$n" "$out"; lang_three "threelang-$n" "$out"
    else
      lang_three "threelang-$n" "$out"; lang_one "onelang-$n" "$out"
      custom_paged "custompaged-$n" "$out"; cardfeed_paged "paged-$n" "$out"; custom_one "custom-$n" "$out"; other_one "other-$n" "$out"; search_one "search-$n" "$out"; placements_one "placements-$n" "$out"; cardfeed_one "cardfeed-$n" "$out"
    fi
    hugo_build "hugo-$n" "$out"
  done

  report() { # label name -> prints a row, sets wall, cpu and peak
    wall=$(cut -d' ' -f1 "$work/$1.txt" | median)
    peak=$(cut -d' ' -f2 "$work/$1.txt" | median)
    cpu=$(cut -d' ' -f3 "$work/$1.txt" | median)
    printf '%-9s %-16s %9.2f %8.2f %10.0f %12.0f\n' "$n" "$2" "$wall" "$cpu" "$(echo "$peak / 1024" | bc -l)" "$(echo "$n / $wall" | bc -l)"
  }
  report "cardfeed-$n" "cardfeed"; cf_wall=$wall; cf_peak=$peak; cf_cpu=$cpu
  if [ "${SEARCH:-0}" != 0 ]; then
    report "search-$n" "cardfeed --search"
    printf '%-9s %-16s with search / without: wall %.2f (+%.2f s), cpu %.2f (+%.2f s), peak memory %.2f\n' "$n" "" \
      "$(echo "$wall / $cf_wall" | bc -l)" "$(echo "$wall - $cf_wall" | bc -l)" "$(echo "$cpu / $cf_cpu" | bc -l)" "$(echo "$cpu - $cf_cpu" | bc -l)" "$(echo "$peak / $cf_peak" | bc -l)"
  fi
  if [ "${PLACEMENTS:-0}" != 0 ]; then
    report "placements-$n" "10 placements"
    printf '%-9s %-16s with ten placements / without: wall %.3f (%+.2f s), cpu %.3f (%+.2f s), peak memory %.3f\n' "$n" "" \
      "$(echo "$wall / $cf_wall" | bc -l)" "$(echo "$wall - $cf_wall" | bc -l)" "$(echo "$cpu / $cf_cpu" | bc -l)" "$(echo "$cpu - $cf_cpu" | bc -l)" "$(echo "$peak / $cf_peak" | bc -l)"
  fi
  if [ -n "${OTHER_BIN:-}" ]; then
    report "other-$n" "$(basename "$(dirname "$OTHER_BIN")")/cardfeed"
    printf '%-9s %-16s %s / swift build -c release: wall %.3f, peak memory %.3f\n' "$n" "" "$OTHER_BIN" \
      "$(echo "$wall / $cf_wall" | bc -l)" "$(echo "$peak / $cf_peak" | bc -l)"
  fi
  if [ "${PAGED:-1}" != 0 ]; then
    report "paged-$n" "cardfeed paged"; paged_wall=$wall; paged_cpu=$cpu
    printf '%-9s %-16s paginated / one page a feed: wall %.2f, cpu %.2f\n' "$n" "" "$(echo "$wall / $cf_wall" | bc -l)" "$(echo "$cpu / $cf_cpu" | bc -l)"
  fi
  if [ "${CUSTOM:-1}" != 0 ]; then
    report "custom-$n" "own templates"
    printf '%-9s %-16s own templates / built-in: wall %.2f, cpu %.2f\n' "$n" "" "$(echo "$wall / $cf_wall" | bc -l)" "$(echo "$cpu / $cf_cpu" | bc -l)"
    if [ "${PAGED:-1}" != 0 ]; then
      report "custompaged-$n" "own, paged"
      printf '%-9s %-16s own templates / built-in, paginated: wall %.2f, cpu %.2f\n' "$n" "" "$(echo "$wall / $paged_wall" | bc -l)" "$(echo "$cpu / $paged_cpu" | bc -l)"
    fi
  fi
  if [ "${LANGUAGES:-0}" != 0 ]; then
    report "onelang-$n" "one language"; one_wall=$wall; one_cpu=$cpu
    report "threelang-$n" "three languages"
    printf '%-9s %-16s three languages / one: wall %.3f, cpu %.3f\n' "$n" "" "$(echo "$wall / $one_wall" | bc -l)" "$(echo "$cpu / $one_cpu" | bc -l)"
  fi
  if [ "${HUGO:-1}" != 0 ]; then
    report "hugo-$n" "hugo $(hugo version | awk '{print $2}' | cut -d+ -f1)"
    printf '%-9s %-16s cardfeed / hugo: wall %.3f (%.1fx faster), cpu %.3f, peak memory %.3f\n' "$n" "" \
      "$(echo "$cf_wall / $wall" | bc -l)" "$(echo "$wall / $cf_wall" | bc -l)" "$(echo "$cf_cpu / $cpu" | bc -l)" "$(echo "$cf_peak / $peak" | bc -l)"
  fi
done
