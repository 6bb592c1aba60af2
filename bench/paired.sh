#!/usr/bin/env bash
# Two or more cardfeed binaries side by side on the same one-card rebuild from the build cache,
# in rounds: what a change of the code does to a rebuild, when the machine's own speed moves by
# a tenth from one half hour to the next (docs/performance.md, "Rebuilding").
#
# usage: bench/paired.sh ROUNDS BINARY BINARY...   (e.g. 20 .build/before/cardfeed .build/release/cardfeed)
#   N=100000     cards (bench/gen_cards.py, SEED=42), a page per card
#   BENCH_WORK   scratch folder (default /tmp/cardfeed-bench-paired); a site, output and cache
#                a binary (a binary built again does not read another's cache)
#
# Each binary first builds its site twice (filling its cache). Then each round changes one card's
# title, or changes it back, in every site, and times each binary's rebuild from its cache with
# GNU time, the binaries in turn (in reverse order in even rounds). It prints, for each binary,
# the median wall and CPU time and, against the first binary, the median and mean of the
# differences within rounds: the machine's drift is the same for both builds of a round, and
# cancels out. Twelve rounds were not enough to tell 40 ms apart on this project's machines;
# twenty were. Nothing else should run meanwhile.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rounds=${1:?usage: bench/paired.sh ROUNDS BINARY BINARY...}; shift
[ $# -ge 2 ] || { echo "bench: give two binaries or more" >&2; exit 1; }
n=${N:-100000}
seed=${SEED:-42}
work=${BENCH_WORK:-/tmp/cardfeed-bench-paired}
now=1800000000
command -v /usr/bin/time >/dev/null || { echo "bench: /usr/bin/time is missing (apt-get install time)" >&2; exit 1; }
mkdir -p "$work"

cards="$work/cards-$n-$seed"
if [ ! -s "$cards-changed.json" ]; then
  python3 "$here/gen_cards.py" "$n" "$seed" "$cards.json"
  python3 - "$cards" <<'PY'
import json, sys
base = sys.argv[1]
cards = json.load(open(base + ".json"))
def write(name, entries):
    with open(f"{base}-{name}.json", "w") as file:
        file.write("[\n" + ",\n".join(json.dumps(card, ensure_ascii=False, separators=(",", ":")) for card in entries) + "\n]\n")
write("base", cards)
cards[len(cards) // 2]["title"] = "A card whose title changed"
write("changed", cards)
PY
fi

binaries=("$@")
names=()
for binary in "${binaries[@]}"; do
  name=$(basename "$(dirname "$binary")")-$(basename "$binary")-${#names[@]}
  names+=("$name")
  rm -rf "${work:?}/$name"; mkdir -p "$work/$name/site"
  cp "$cards-base.json" "$work/$name/site/cards.json"
  for _ in 1 2; do "$binary" build "$work/$name/site" --output "$work/$name/out" --now "$now" --cache-dir "$work/$name/cache" >/dev/null 2>&1; done
  : > "$work/$name.times"
done

for round in $(seq 1 "$rounds"); do
  if ((round % 2)); then cards_now=changed; else cards_now=base; fi
  mapfile -t order < <(printf '%s\n' "${!names[@]}" | if ((round % 2)); then cat; else tac; fi)
  for index in "${order[@]}"; do
    name=${names[$index]}; binary=${binaries[$index]}
    cp "$cards-$cards_now.json" "$work/$name/site/cards.json"; sync
    /usr/bin/time -o "$work/time.txt" -f "%e %U %S" "$binary" build "$work/$name/site" --output "$work/$name/out" --now "$now" \
      --cache-dir "$work/$name/cache" >"$work/stdout.txt" 2>"$work/stderr.txt" || { echo "bench: $name failed:" >&2; cat "$work/stderr.txt" >&2; exit 1; }
    echo "$round $(cat "$work/time.txt")" >> "$work/$name.times"
  done
done

python3 - "$work" "${names[@]}" <<'PY'
import statistics, sys
work, names = sys.argv[1], sys.argv[2:]
times = {name: [list(map(float, line.split()[1:])) for line in open(f"{work}/{name}.times")] for name in names}
first = times[names[0]]
print(f"{len(first)} rounds of a one-card rebuild from the cache")
for name in names:
    wall = [t[0] for t in times[name]]; cpu = [t[1] + t[2] for t in times[name]]
    line = f"{name:40s} wall {statistics.median(wall):.3f} s (median)  cpu {statistics.median(cpu):.2f} s"
    if name != names[0]:
        wall_diff = [t[0] - f[0] for t, f in zip(times[name], first)]
        cpu_diff = [(t[1] + t[2]) - (f[1] + f[2]) for t, f in zip(times[name], first)]
        line += (f"  against {names[0]}: wall {statistics.median(wall_diff) * 1000:+.0f} ms (median of the rounds' differences;"
                 f" mean {statistics.mean(wall_diff) * 1000:+.0f}), cpu {statistics.median(cpu_diff) * 1000:+.0f} ms")
    print(line)
PY
