"""Placements on another site's page (docs/embedding.md), in headless Chromium: a host page on
one loopback port, CardFeed's output on another, the host with a strict Content Security Policy
and a hostile stylesheet (`* { color: red !important }`, `article { display: none }`). The web
component shows the placement's cards in CardFeed's colours, light and dark, the host's own
elements keep the host's styles, nothing breaks the policy, the frame page reports its height,
a placement whose JSON is missing takes no room, and axe-core finds no violation on the host
page at 320 and 1280 px in both schemes. Screenshots go to $CARDFEED_SCREENSHOTS/placements/."""
import functools
import http.server
import subprocess
import threading
import time

import pytest

from conftest import NOW, SCREENSHOTS, QuietHandler, copy_example_site, make_driver, set_viewport
from test_look import axe_violations, axe_source

PLACEMENTS = """
placements:
  home-hero: {feed: all, limit: 2}
  news-side: {feed: news, limit: 3}
  many: {feed: all, limit: 10}
"""


class CrossOriginHandler(QuietHandler):
    """CardFeed's output as a host that allows other origins to fetch it (docs/embedding.md)."""

    def end_headers(self):
        self.send_header("Access-Control-Allow-Origin", "*")
        super().end_headers()


class HostHandler(QuietHandler):
    """The host's own files, every one with the host's strict policy."""

    policy = ""

    def end_headers(self):
        self.send_header("Content-Security-Policy", self.policy)
        super().end_headers()


def serve(root, handler):
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(root)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}"


HOST_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>A shop that shows cards</title>
<link rel="stylesheet" href="host.css">
<script src="{cards}/embed/cardfeed-embed.js" defer></script>
<script src="host.js" defer></script>
</head>
<body>
<header><p class="host-text" id="host-text">The shop's own header</p></header>
<main>
<h1>Today at the shop</h1>
<article id="host-article"><p>The host's own article, hidden by its own stylesheet.</p></article>
<h2>Offers</h2>
<cardfeed-placement id="component" src="{cards}/embed/home-hero.json"></cardfeed-placement>
<h2>News</h2>
<cardfeed-placement id="limited" src="{cards}/embed/news-side.json" limit="1"></cardfeed-placement>
<cardfeed-placement id="missing" src="{cards}/embed/no-such-placement.json"></cardfeed-placement>
<h2>In a frame</h2>
<iframe id="frame" src="{cards}/embed/news-side/" title="News from Brewline" data-cardfeed="news-side"></iframe>
</main>
</body>
</html>
"""
# Red on black reads (5.3:1), so that the host's own text passes axe as the cards must.
HOST_CSS = """
* { color: red !important; }
article { display: none; }
body { font-family: serif; background: #000; }
iframe { width: 100%; border: 0; height: 40px; }
"""
# The documented few lines for a host that fits the frame to its height.
HOST_JS = """
window.__heights = [];
addEventListener("message", (event) => {
  if (event.origin !== "%s" || !event.data || event.data.type !== "cardfeed:height") return;
  window.__heights.push(event.data);
  const frame = document.querySelector(`iframe[data-cardfeed="${event.data.placement}"]`);
  if (frame) frame.style.height = event.data.height + "px";
});
for (const frame of document.querySelectorAll("iframe[data-cardfeed]")) frame.contentWindow.postMessage({type: "cardfeed:measure"}, "*");
"""
STATE_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>State</title>
<script src="{cards}/embed/cardfeed-embed.js" defer></script></head>
<body><main><h1>Ten cards</h1><cardfeed-placement id="many" src="{cards}/embed/many.json"></cardfeed-placement></main></body></html>
"""
CSP_RECORDER = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => window.__violations.push(e.violatedDirective + " " + e.blockedURI));
"""


@pytest.fixture(scope="module")
def host(cardfeed_bin, tmp_path_factory):
    root = tmp_path_factory.mktemp("placements")
    site = copy_example_site(root / "site")
    (site / "cardfeed.yml").write_text((site / "cardfeed.yml").read_text() + PLACEMENTS)
    out = root / "out"
    out.mkdir()
    cards_server, cards = serve(out, CrossOriginHandler)
    result = subprocess.run([str(cardfeed_bin), "build", str(site), "--now", NOW, "-q", "-o", str(out), "--base-url", cards + "/"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    pages = root / "host"
    pages.mkdir()
    (pages / "index.html").write_text(HOST_PAGE.replace("{cards}", cards))
    (pages / "host.css").write_text(HOST_CSS)
    (pages / "host.js").write_text(HOST_JS % cards)
    (pages / "state.html").write_text(STATE_PAGE.replace("{cards}", cards))
    # No inline script or style, no eval: only the host's files and CardFeed's.
    HostHandler.policy = (f"default-src 'none'; script-src 'self' {cards}; style-src 'self' {cards}; connect-src {cards}; "
                          f"img-src {cards} https: data:; frame-src {cards}; base-uri 'none'; form-action 'none'")
    host_server, url = serve(pages, HostHandler)
    yield {"url": url + "/", "cards": cards, "out": out}
    host_server.shutdown()
    cards_server.shutdown()


# A component has shown its cards: it is no longer busy, and its shadow root holds them.
SHOWN_CARDS = """
const placement = document.getElementById(arguments[0]);
return !placement.hasAttribute('aria-busy') && !!placement.shadowRoot && !!placement.shadowRoot.querySelector('[data-card-id]');
"""


def wait_for_cards(driver, *ids, timeout=15):
    deadline = time.monotonic() + timeout
    while not all(driver.execute_script(SHOWN_CARDS, i) for i in ids) and time.monotonic() < deadline:
        time.sleep(0.1)


def open_host(host, dark=False, width=1280):
    driver = make_driver(width=width, dark=dark)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": CSP_RECORDER})
    driver.get(host["url"])
    deadline = time.time() + 15
    while time.time() < deadline:
        if driver.execute_script(SHOWN_CARDS, "component") and driver.execute_script(SHOWN_CARDS, "limited") and \
                driver.execute_script("return document.getElementById('missing').hidden && document.getElementById('frame').offsetHeight > 100"):
            break
        time.sleep(0.1)
    return driver


SHADOW = """
const host = document.getElementById(arguments[0]);
const cards = [...host.shadowRoot.querySelectorAll('[data-card-id]')].filter(c => !c.hidden);
return cards.map(c => { const s = getComputedStyle(c), t = c.querySelector('.cardfeed-card__title') || c;
  return {id: c.dataset.cardId, display: s.display, background: s.backgroundColor, color: getComputedStyle(t).color}; });
"""


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_the_component_shows_the_cards_in_cardfeeds_colours_and_the_host_keeps_its_own(host, dark):
    driver = open_host(host, dark=dark)
    try:
        cards = driver.execute_script(SHADOW, "component")
        assert [c["id"] for c in cards] == ["promo-brewline-plus", "cc-autumn-menu"]
        surface, text = ("rgb(21, 30, 47)", "rgb(226, 232, 240)") if dark else ("rgb(255, 255, 255)", "rgb(15, 23, 42)")
        for card in cards:
            assert card["display"] != "none" and card["background"] == surface and card["color"] == text, card
        # The host's elements keep the host's styles.
        assert driver.execute_script("return getComputedStyle(document.getElementById('host-text')).color") == "rgb(255, 0, 0)"
        assert driver.execute_script("return getComputedStyle(document.getElementById('host-article')).display") == "none"
        # limit="1" shows one of the placement's three cards.
        assert len(driver.execute_script(SHADOW, "limited")) == 1
        # A placement that cannot load takes no room.
        assert driver.execute_script("const m = document.getElementById('missing'); return [m.hidden, m.getBoundingClientRect().height]") == [True, 0]
        assert driver.execute_script("return window.__violations") == []
        # Its events reach the host's document, naming the placement.
        events = driver.execute_script("return window.__cardfeedEvents")
        assert {"name": "impression", "placement": "home-hero", "id": "promo-brewline-plus"} in [
            {"name": e["name"], "placement": e["detail"].get("placement"), "id": e["detail"].get("id")} for e in events]
        SCREENSHOTS.joinpath("placements").mkdir(parents=True, exist_ok=True)
        for width in (320, 1280):
            set_viewport(driver, width, 900)
            time.sleep(0.3)
            driver.save_screenshot(str(SCREENSHOTS / "placements" / f"host-{width}-{'dark' if dark else 'light'}.png"))
    finally:
        driver.quit()


@pytest.mark.parametrize("reader", ["light", "dark"])
def test_the_component_follows_the_scheme_the_host_declares_over_the_readers(host, reader):
    """A host page that declares one scheme (color-scheme on its root, as a theme switch sets it)
    has its placements so, whatever the reader's setting; one that declares both, or none, leaves
    them to the reader's setting, as before."""
    surfaces = {"light": "rgb(255, 255, 255)", "dark": "rgb(21, 30, 47)"}
    driver = open_host(host, dark=reader == "dark")
    try:
        def surface_once(declared):
            driver.execute_script("document.documentElement.style.colorScheme = arguments[0]", declared)
            deadline = time.monotonic() + 5
            while True:
                cards = driver.execute_script(SHADOW, "component")
                if all(c["background"] == cards[0]["background"] for c in cards) and (
                        cards[0]["background"] == surfaces[declared] if declared in surfaces else True) or time.monotonic() > deadline:
                    return cards[0]["background"]
                time.sleep(0.1)
        other = "light" if reader == "dark" else "dark"
        assert surface_once(other) == surfaces[other]
        assert surface_once("light dark") == surfaces[reader]
        assert surface_once(reader) == surfaces[reader]
        assert surface_once("") == surfaces[reader]
        assert driver.execute_script("return window.__violations") == []
    finally:
        driver.quit()


@pytest.mark.parametrize("told", ["light", "dark"])
def test_the_included_fragment_takes_the_scheme_a_host_gives_it(host, told):
    """The fragment has no script to read the page's color-scheme: a host with one scheme says
    which on an element around it, here <html>, and the reader's setting is the other."""
    surfaces = {"light": "rgb(255, 255, 255)", "dark": "rgb(21, 30, 47)"}
    fragment = (host["out"] / "embed" / "home-hero.html").read_text()
    page = host["out"] / f"fragment-{told}.html"
    page.write_text(f'<!DOCTYPE html><html lang="en" data-cardfeed-scheme="{told}"><head><meta charset="utf-8"><title>Fragment</title>'
                    f'<link rel="stylesheet" href="embed/cardfeed-embed.css"></head><body><main>{fragment}</main></body></html>')
    driver = make_driver(dark=told == "light")
    try:
        driver.get(host["cards"] + "/" + page.name)
        backgrounds = driver.execute_script("return [...document.querySelectorAll('[data-card-id]')].map(c => getComputedStyle(c).backgroundColor)")
        assert backgrounds and set(backgrounds) == {surfaces[told]}
    finally:
        driver.quit()
        page.unlink()


def test_the_frame_tells_its_parent_its_height(host):
    driver = open_host(host)
    try:
        # The frame tells its height as it changes (styles, images; not with the frame's own
        # height, which the host sets from it) and when the host's script, deferred, asks: the
        # last height told, the frame's height and its document's are compared once all three
        # agree, or at the end of ten seconds.
        deadline = time.monotonic() + 10
        while True:
            heights, frame_height = driver.execute_script(
                "return [window.__heights, document.getElementById('frame').getBoundingClientRect().height]")
            driver.switch_to.frame(driver.find_element("id", "frame"))
            inner, cards = driver.execute_script(
                "return [Math.ceil(document.documentElement.getBoundingClientRect().height), document.querySelectorAll('[data-card-id]').length]")
            driver.switch_to.default_content()
            if (heights and frame_height == inner == heights[-1]["height"]) or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert heights and heights[-1]["placement"] == "news-side"
        assert frame_height == heights[-1]["height"] > 200
        assert inner == heights[-1]["height"] and cards == 3
        # A host whose listener came late asks, and is told the same height again.
        driver.execute_script("window.__heights = []; document.getElementById('frame').contentWindow.postMessage({type: 'cardfeed:measure'}, '*')")
        deadline = time.monotonic() + 5
        while not (told := driver.execute_script("return window.__heights")) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert [t["height"] for t in told] == [inner]
    finally:
        driver.quit()


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_axe_finds_no_violation_on_the_host_page(host, dark):
    source = axe_source()
    driver = open_host(host, dark=dark)
    driver.set_script_timeout(60)
    found = []
    try:
        for width in (320, 1280):
            set_viewport(driver, width, 900)
            time.sleep(0.3)
            found += [f"host at {width}: {v}" for v in axe_violations(driver, source)]
    finally:
        driver.quit()
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_screenshots_of_the_frame_page(host, dark):
    driver = make_driver(dark=dark)
    try:
        driver.get(host["cards"] + "/embed/news-side/")
        SCREENSHOTS.joinpath("placements").mkdir(parents=True, exist_ok=True)
        for width in (320, 1280):
            set_viewport(driver, width, 900)
            time.sleep(0.3)
            assert driver.execute_script("return document.querySelectorAll('.cardfeed-card').length") == 3
            driver.save_screenshot(str(SCREENSHOTS / "placements" / f"frame-{width}-{'dark' if dark else 'light'}.png"))
    finally:
        driver.quit()


PREVIEW_TITLES = """
return {
  fragment: [...document.querySelectorAll('main > section > .cardfeed-placement .cardfeed-card__title')].map(t => t.textContent),
  component: [...document.querySelector('cardfeed-placement').shadowRoot.querySelectorAll('.cardfeed-card__title')].map(t => t.textContent),
  frame: (() => { const d = document.querySelector('iframe').contentDocument; return d ? [...d.querySelectorAll('.cardfeed-card__title')].map(t => t.textContent) : []; })(),
  frameHeight: document.querySelector('iframe').getBoundingClientRect().height,
};
"""


def test_serve_previews_every_placement_in_its_three_forms_and_updates_them(serve, driver, tmp_path):
    import json
    from selenium.webdriver.support.ui import WebDriverWait

    site = copy_example_site(tmp_path / "site")
    (site / "cardfeed.yml").write_text((site / "cardfeed.yml").read_text() + "placements:\n  home-hero: {feed: all, limit: 1}\n")
    server, _ = serve(site, "--now", NOW)
    driver.get(server.url + "_cardfeed/placements/")
    first = "Try Brewline Plus free for a month"
    WebDriverWait(driver, 20).until(lambda d: d.execute_script(PREVIEW_TITLES)["component"] == [first])
    shown = driver.execute_script(PREVIEW_TITLES)
    assert shown["fragment"] == [first] and shown["frame"] == [first]
    WebDriverWait(driver, 20).until(lambda d: d.execute_script(PREVIEW_TITLES)["frameHeight"] > 100)

    cards_file = site / "cards" / "promotions.json"
    cards_file.write_text(cards_file.read_text().replace(first, "Brewline Plus, now two months free"))
    changed = ["Brewline Plus, now two months free"]
    WebDriverWait(driver, 20).until(lambda d: d.execute_script(PREVIEW_TITLES) | {"frameHeight": 0} == {
        "fragment": changed, "component": changed, "frame": changed, "frameHeight": 0})


STATE = """
const root = document.getElementById('many').shadowRoot;
return [...root.querySelectorAll('[data-card-id]')].map(c => ({id: c.dataset.cardId, hidden: c.hidden,
  dismissible: c.hasAttribute('data-dismissible'), unread: !!c.querySelector('.cardfeed-card__unread')}));
"""


def test_the_component_keeps_read_and_dismissed_cards_across_visits(host):
    from selenium.webdriver.support.ui import WebDriverWait

    driver = make_driver()
    try:
        driver.get(host["url"] + "state.html")
        WebDriverWait(driver, 15).until(lambda d: d.execute_script(SHOWN_CARDS, "many"))
        first = driver.execute_script(STATE)
        assert len(first) == 10 and any(c["unread"] for c in first)
        # Each card half on screen once: an impression, and read on the next visit.
        for index in range(10):
            driver.execute_script("document.getElementById('many').shadowRoot.querySelectorAll('[data-card-id]')[arguments[0]].scrollIntoView()", index)
            time.sleep(0.2)
        WebDriverWait(driver, 15).until(lambda d: len([e for e in d.execute_script("return window.__cardfeedEvents") if e["name"] == "impression"]) == 10)
        target = next(c["id"] for c in first if c["dismissible"])
        driver.execute_script("document.getElementById('many').shadowRoot.querySelector(`[data-card-id='${arguments[0]}'] .cardfeed-card__dismiss`).click()", target)
        assert {"name": "dismiss", "id": target, "placement": "many"} in [
            {"name": e["name"], "id": e["detail"]["id"], "placement": e["detail"]["placement"]} for e in driver.execute_script("return window.__cardfeedEvents")]
        driver.refresh()
        WebDriverWait(driver, 15).until(lambda d: d.execute_script(SHOWN_CARDS, "many"))
        again = {c["id"]: c for c in driver.execute_script(STATE)}
        assert again[target]["hidden"], "dismissed on the last visit, hidden on this one"
        assert not any(c["unread"] for c in again.values() if not c["hidden"]), "seen on the last visit: read"
    finally:
        driver.quit()
