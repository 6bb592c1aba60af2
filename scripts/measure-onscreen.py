#!/usr/bin/env python3
"""Measures, in headless Chromium, how long `cardfeed serve` takes from saving an edited card to
the new text being painted on the open page, on a generated site of many cards.

Usage: measure-onscreen.py CARDFEED_BIN CARDS.json [EDITS [GAP]]
  CARDS.json  e.g. made by `python3 bench/gen_cards.py 10000 42 cards.json`
  GAP         seconds from one edit's paint to the next save (default 0.7); with `--search` in
              CARDFEED_SERVE_ARGS, a GAP above a second lets serve start indexing between edits
Needs chromium, chromium-driver and selenium (scripts/setup.sh installs them).

Each edit changes the title of the first card of the "all" page and saves cards.json. The paint
time is read from the page, on the same clock as the save: for a page that `serve` updates in
place, the first frame after its "cardfeed:pagereplaced" event (requestAnimationFrame, then the
next task: after that frame is painted); for a page that reloads, its first contentful paint.
Prints each edit's time and the median."""
import re
import statistics
import sys
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from cardfeed_serve import ServedSite

PAINT_HOOK = """
window.__painted = null;
if (!window.__paintHook) {
  window.__paintHook = true;
  document.addEventListener("cardfeed:pagereplaced", function () {
    requestAnimationFrame(function () {
      setTimeout(function () { window.__painted = performance.timeOrigin + performance.now(); }, 0);
    });
  });
}"""

PAINTED = """
var title = document.querySelector("[data-card-id='" + arguments[0] + "'] .card__title");
if (!title || title.textContent.indexOf(arguments[1]) < 0) return null;
// Updated in place (this document is older than the save): wait for the frame after the update.
if (performance.timeOrigin < arguments[2]) return window.__painted;
var paint = performance.getEntriesByName("first-contentful-paint")[0];
return paint ? performance.timeOrigin + paint.startTime : null;"""


def main():
    binary, cards = sys.argv[1], Path(sys.argv[2])
    edits = int(sys.argv[3]) if len(sys.argv) > 3 else 12
    gap = float(sys.argv[4]) if len(sys.argv) > 4 else 0.7
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu"]:
        options.add_argument(argument)
    options.page_load_strategy = "none"  # the script polls the page itself
    driver = None
    times = []
    with ServedSite(binary, cards) as served:
        site = served.site
        try:
            driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
            driver.get(f"http://127.0.0.1:{served.port}/")
            time.sleep(2)
            card_id = driver.execute_script(
                "return document.querySelector('article .card__title').closest('article').dataset.cardId")
            text = (site / "cards.json").read_text()
            for edit in range(edits):
                new_title = f"Edited on screen {edit:02d}"
                text, count = re.subn(r'(\{"id":"%s"[^\n]*?"title":")[^"]*(")' % re.escape(card_id),
                                      lambda m: m.group(1) + new_title + m.group(2), text, count=1)
                if count != 1:
                    raise SystemExit(f"cannot find the title of card {card_id} in {cards}")
                time.sleep(gap)
                driver.execute_script(PAINT_HOOK)
                saved = time.time()
                (site / "cards.json").write_text(text)
                painted = None
                while painted is None and time.time() - saved < 10:
                    try:
                        painted = driver.execute_script(PAINTED, card_id, new_title, saved * 1000)
                    except Exception:  # the page is being replaced
                        painted = None
                    if painted is None:
                        time.sleep(0.005)
                if painted is None:
                    raise SystemExit(f"edit {edit}: the new title was not on screen after 10 s")
                times.append(painted / 1000 - saved)
        finally:
            if driver:
                driver.quit()
    print("save -> painted (s):", " ".join(f"{t:.3f}" for t in times))
    print(f"median {statistics.median(times):.3f} s, min {min(times):.3f}, max {max(times):.3f} ({len(times)} edits)")


if __name__ == "__main__":
    main()
