#!/usr/bin/env python3
"""Measures how long `cardfeed serve` takes from saving a card file to telling the open pages to
reload, on a generated site of many cards.

Usage: measure-rebuild.py CARDFEED_BIN CARDS.json [EDITS]
  CARDS.json  e.g. made by `python3 shared/bench/gen_cards.py 3000 42 cards.json`
Prints each edit's time (file written -> `reload` event received) and the median."""
import json
import re
import socket
import statistics
import sys
import threading
import time
from pathlib import Path

from cardfeed_serve import ServedSite


def main():
    binary, cards = sys.argv[1], Path(sys.argv[2])
    edits = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    server_lines = []
    with ServedSite(binary, cards) as served:
        site = served.site
        threading.Thread(target=lambda: server_lines.extend(served.process.stdout), daemon=True).start()
        events = socket.create_connection(("127.0.0.1", served.port), timeout=60)
        events.sendall(b"GET /_cardfeed/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        buffer = b""

        def wait_for(event):
            nonlocal buffer
            while f"event: {event}".encode() not in buffer:
                buffer += events.recv(65536)
            buffer = buffer.split(f"event: {event}".encode(), 1)[1]

        wait_for("hello")
        text = (site / "cards.json").read_text()
        data = json.loads(text)
        count = len(data) if isinstance(data, list) else len(data.get("feed", data.get("cards", [])))
        times = []
        for edit in range(edits):
            time.sleep(0.6)  # let the watcher take its snapshot of the previous edit
            # One card's title changes (same length, so only the content differs).
            text = re.sub(r'"title":"[^"]*"', f'"title":"Edited title number {edit:03d}"', text, count=1)
            start = time.monotonic()
            (site / "cards.json").write_text(text)
            wait_for("reload")
            times.append(time.monotonic() - start)
            print(f"edit {edit + 1}: {times[-1]:.3f} s")
        time.sleep(0.2)
        rebuilds = [float(m.group(1)) for line in server_lines if (m := re.search(r"rebuilt in (\d+\.\d+) s", line))]
        print(f"server-side rebuild times: " + ", ".join(f"{t:.2f}" for t in rebuilds))
        print(f"{count} cards: save -> reload event median {statistics.median(times):.3f} s, "
              f"min {min(times):.3f} s, max {max(times):.3f} s over {edits} edits")


if __name__ == "__main__":
    main()
