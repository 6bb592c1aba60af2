#!/usr/bin/env bash
# A first build that fills an empty build cache, against a build by another cardfeed (the one
# before the cache, say) and a build with --no-cache, in rounds: what issue 56's "cold stays as
# fast" asks (docs/performance.md, "The build cache").
#
# usage: bench/first-build.sh ROUNDS REFERENCE BINARY   (e.g. 12 .build/before/cardfeed .build/release/cardfeed)
#   N=100000     cards (bench/gen_cards.py, SEED=42), a page per card
#   BENCH_WORK   scratch folder (default /tmp/cardfeed-bench-first); a site, an output and a cache
#
# Each round times, with GNU time and into folders made anew each time: REFERENCE's build,
# BINARY's build filling a new cache, and BINARY's build with --no-cache. It prints the median
# wall time of each and, against REFERENCE, the median of the ratios within rounds (the
# machine's speed moves by a tenth from one half hour to the next; within a round it is the
# same for all three). Nothing else should run meanwhile.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rounds=${1:?usage: bench/first-build.sh ROUNDS REFERENCE BINARY}
reference=${2:?usage: bench/first-build.sh ROUNDS REFERENCE BINARY}
binary=${3:?usage: bench/first-build.sh ROUNDS REFERENCE BINARY}
n=${N:-100000}
seed=${SEED:-42}
work=${BENCH_WORK:-/tmp/cardfeed-bench-first}
now=1800000000
command -v /usr/bin/time >/dev/null || { echo "bench: /usr/bin/time is missing (apt-get install time)" >&2; exit 1; }
mkdir -p "$work/site/assets"

data="$work/cards-$n-$seed.json"
[ -s "$data" ] || python3 "$here/gen_cards.py" "$n" "$seed" "$data"
cp "$data" "$work/site/cards.json"
printf '.card { outline: 1px solid #1d4ed8; }\n' > "$work/site/assets/custom.css"

# One build by $1, with the options after it, into a new output (and a new cache); prints "wall cpu".
timed() {
  local cardfeed=$1; shift
  rm -rf "${work:?}/out" "$work/cache" "$work/site/.cardfeed-cache"
  sync
  if ! /usr/bin/time -o "$work/time" -f "%e %U %S" "$cardfeed" build "$work/site" --output "$work/out" --now "$now" "$@" >/dev/null 2>"$work/err"; then
    echo "bench: $cardfeed build $* failed:" >&2; tail -3 "$work/err" >&2; exit 1
  fi
  awk '{ print $1, $2 + $3 }' "$work/time"
}

: > "$work/times"
for round in $(seq 1 "$rounds"); do
  line="$(timed "$reference") $(timed "$binary" --cache-dir "$work/cache") $(timed "$binary" --no-cache)"
  echo "$line" >> "$work/times"
  echo "round $round: reference, filling the cache, --no-cache (wall cpu): $line"
done

python3 - "$work/times" "$n" <<'PY'
import statistics, sys
rows = [list(map(float, line.split())) for line in open(sys.argv[1])]
print(f"{sys.argv[2]} cards, {len(rows)} rounds; reference {statistics.median(r[0] for r in rows):.2f} s")
for column, name in ((2, "filling a new cache"), (4, "--no-cache")):
    ratios = [r[column] / r[0] for r in rows]
    cpu = [r[column + 1] / r[1] for r in rows]
    print(f"{name}: {statistics.median(r[column] for r in rows):.2f} s, {statistics.median(ratios):.3f} times the reference "
          f"(rounds {min(ratios):.3f}-{max(ratios):.3f}), CPU {statistics.median(cpu):.3f} times")
PY
