#!/usr/bin/env python3
"""What a search downloads: serves a site built with `--search`, opens a card's page in headless
Chromium (a small page: a bench site's front page may show every card), types WORD in its search
box and counts the bytes of every file fetched from then on, by the server's count (it sends
files as they are, without compression, as a plain static host does; Pagefind's index files are
gzipped already).

usage: bench/search_bytes.py OUTPUT WORD

Pagefind's script is fetched when the box is first focused, the rest as the query runs (its
worker fetches the WebAssembly, the index's metadata and the word's index chunk); the page
shows ten results, a fragment file each, with their pictures (counted apart: they are the
site's images, not the index). Needs selenium and Debian's chromium and chromium-driver, as
the browser tests do.
"""
import functools
import http.server
import sys
import threading
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


class CountingHandler(http.server.SimpleHTTPRequestHandler):
    """A static file server that records the path and size of each file it sends."""

    sent: list = []
    counting = False

    def copyfile(self, source, outputfile):
        data = source.read()
        outputfile.write(data)
        if CountingHandler.counting:
            CountingHandler.sent.append((self.path, len(data)))

    def end_headers(self):
        # As a host that lets the browser cache nothing: every byte of the query is counted.
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, *args):
        pass


def kind(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    if "/pagefind/" not in path:
        return "pictures and other files of the site"
    for suffix, what in [(".pf_meta", "metadata"), (".pf_index", "word's index chunk"), (".pf_fragment", "results (fragments)"),
                         (".pf_filter", "filter"), (".pagefind", "WebAssembly"), ("-worker.js", "worker"), (".js", "script")]:
        if name.endswith(suffix):
            return what
    return name.split("?")[0]


def main():
    output, word = Path(sys.argv[1]), sys.argv[2]
    handler = functools.partial(CountingHandler, directory=str(output))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
    try:
        page = min(path.name for path in (output / "cards").iterdir())
        driver.get(f"http://127.0.0.1:{server.server_address[1]}/cards/{page}")
        box = driver.find_element(By.CSS_SELECTOR, ".site-search__input")
        CountingHandler.counting = True
        box.click()
        box.send_keys(word)
        WebDriverWait(driver, 60).until(lambda d: d.find_element(By.ID, "site-search-status").get_attribute("textContent"))
        time.sleep(2)  # the results' pictures
        status = driver.find_element(By.ID, "site-search-status").get_attribute("textContent")
    finally:
        driver.quit()
        server.shutdown()
    totals: dict = {}
    for path, size in CountingHandler.sent:
        count, total = totals.get(kind(path), (0, 0))
        totals[kind(path)] = (count + 1, total + size)
    print(f"{word!r}: {status}")
    index = 0
    for what, (count, total) in sorted(totals.items(), key=lambda item: -item[1][1]):
        print(f"  {what:40} {count:4} files {total / 1000:10.1f} kB")
        if what != "pictures and other files of the site":
            index += total
    print(f"  {'the search (Pagefind and the index)':40}            {index / 1000:10.1f} kB")


if __name__ == "__main__":
    main()
