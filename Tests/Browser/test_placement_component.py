"""The web component and the frame page as a host page meets them (docs/embedding.md), in
headless Chromium, with CardFeed's output on one loopback port and the host's pages on another:
cards whose ids are names of Object.prototype ("constructor", "__proto__") send their impression
and keep their read and dismissed state (in the component, the frame page and the site's own
pages); what the component keeps in the host's localStorage stays within 64 kB, the oldest ids
going first and long ids kept as hashes, and a host whose storage is full loses nothing but the
memory of the next visit; a placement that cannot load says why, once, and takes no room."""
import json
import re
import subprocess
import time

import pytest
from selenium.webdriver.support.ui import WebDriverWait

from conftest import NOW, REPO, SCREENSHOTS, make_driver
from test_placements import SHOWN_CARDS, CrossOriginHandler, QuietHandler, serve as serve_folder

# The names an object finds on its prototype, where ids looked up as an object's keys go wrong.
ODD_IDS = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"]
# The attack: 100 cards whose ids are 64,000 characters long (two placements of 50).
LONG = 64000

# console.warn and cardfeed:error, recorded from the start of every page; and any error thrown.
RECORDER = """
window.__warnings = []; window.__errors = []; window.__thrown = [];
const warn = console.warn.bind(console);
console.warn = (...args) => { window.__warnings.push(args.join(" ")); warn(...args); };
document.addEventListener("cardfeed:error", (e) => window.__errors.push({target: e.target.id, detail: e.detail}));
window.addEventListener("error", (e) => window.__thrown.push(String(e.message)));
window.addEventListener("unhandledrejection", (e) => window.__thrown.push(String(e.reason)));
"""


def card(id, index, **extra):
    return {"id": id, "tp": "text_announcement", "tt": f"Card {index}", "ds": "A short one.", "ca": 1790000000 + index,
            "v": False, "db": True, **extra}


@pytest.fixture(scope="module")
def host(cardfeed_bin, tmp_path_factory):
    root = tmp_path_factory.mktemp("component")
    site = root / "site"
    site.mkdir()
    cards = [card(id, i, e={"feed": "odd"}) for i, id in enumerate(ODD_IDS)]
    cards += [card(f"{i:03d}-" + "x" * (LONG - 4), 100 + i, e={"feed": "long-a" if i < 50 else "long-b"}) for i in range(100)]
    (site / "cards.json").write_text(json.dumps({"cards": cards}))
    (site / "cardfeed.yml").write_text(
        "feeds:\n  - slug: all\n  - {slug: odd, title: Odd, extras: {feed: odd}}\n"
        "  - {slug: long-a, title: A, extras: {feed: long-a}}\n  - {slug: long-b, title: B, extras: {feed: long-b}}\n"
        "placements:\n  odd: {feed: all, limit: 5, extras: {feed: odd}}\n"
        "  long-a: {feed: long-a, limit: 50}\n  long-b: {feed: long-b, limit: 50}\n")
    out = root / "out"
    out.mkdir()
    cards_server, cards_url = serve_folder(out, CrossOriginHandler)
    result = subprocess.run([str(cardfeed_bin), "build", str(site), "--now", NOW, "-q", "-o", str(out), "--base-url", cards_url + "/"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    # The ids over 256 characters are a warning each, naming the card: a terminal says it once.
    assert re.search(r'cards.json:1:\d+: 100 cards \(card 6 \(id "000-x+…"\), card 7 .*: field "id": 64000 characters long, over 256', result.stderr)
    # Served without Access-Control-Allow-Origin, as `python3 -m http.server` would.
    plain_server, plain_url = serve_folder(out, QuietHandler)
    pages = root / "host"
    pages.mkdir()
    script = f'<script src="{cards_url}/embed/cardfeed-embed.js" defer></script>'

    def page(name, body):
        (pages / name).write_text(f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{name}</title>{script}</head>'
                                  f'<body><main><h1>A host</h1>{body}</main></body></html>')
    page("odd.html", f'<cardfeed-placement id="odd" src="{cards_url}/embed/odd.json"></cardfeed-placement>')
    page("long.html", f'<cardfeed-placement id="long-a" src="{cards_url}/embed/long-a.json"></cardfeed-placement>'
                      f'<cardfeed-placement id="long-b" src="{cards_url}/embed/long-b.json"></cardfeed-placement>')
    (pages / "broken.json").write_text('{"html": "<div>')
    (pages / "other.json").write_text('{"cards": []}')
    # A JSON whose stylesheet is not beside it.
    (pages / "lonely").mkdir()
    (pages / "lonely" / "odd.json").write_text((out / "embed" / "odd.json").read_text())
    page("errors.html", "".join(f'<p>Before {id}</p><cardfeed-placement id="{id}" src="{src}"></cardfeed-placement><p id="after-{id}">After</p>' for id, src in [
        ("missing", f"{cards_url}/embed/no-such-placement.json"),
        ("no-cors", f"{plain_url}/embed/odd.json"),
        ("invalid", "broken.json"),
        ("not-placement", "other.json"),
        ("no-stylesheet", "lonely/odd.json"),
        ("fine", f"{cards_url}/embed/odd.json"),
    ]) + f'<cardfeed-placement id="styled" style="display: block; min-height: 3rem" src="{cards_url}/embed/odd.json"></cardfeed-placement>')
    host_server, host_url = serve_folder(pages, QuietHandler)
    yield {"url": host_url + "/", "cards": cards_url, "out": out}
    for server in (host_server, plain_server, cards_server):
        server.shutdown()


def driver_with_recorder():
    driver = make_driver()
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORDER})
    return driver


def impressions(driver):
    return [e["detail"]["id"] for e in driver.execute_script("return window.__cardfeedEvents") if e["name"] == "impression"]


def scroll_through(driver):
    """Every card of the page half on screen once, as a reader scrolling down would see it."""
    height = driver.execute_script("return document.documentElement.scrollHeight")
    for y in range(0, height + 900, 300):
        driver.execute_script("window.scrollTo(0, arguments[0])", y)
        time.sleep(0.05)


CARD_STATE = """
const root = arguments[0] ? document.getElementById(arguments[0]).shadowRoot : document;
return [...root.querySelectorAll('[data-card-id]')].map(c => ({id: c.dataset.cardId, hidden: c.hidden,
  unread: !!c.querySelector('.cardfeed-card__unread, .card__unread')}));
"""


def test_ids_named_like_object_properties_send_impressions_and_keep_their_state_in_the_component(host):
    driver = driver_with_recorder()
    try:
        driver.get(host["url"] + "odd.html")
        WebDriverWait(driver, 15).until(lambda d: d.execute_script(SHOWN_CARDS, "odd"))
        WebDriverWait(driver, 10).until(lambda d: sorted(impressions(d)) == sorted(ODD_IDS))
        first = driver.execute_script(CARD_STATE, "odd")
        assert [c["id"] for c in first] == list(reversed(ODD_IDS)) and all(c["unread"] for c in first)
        driver.execute_script("document.getElementById('odd').shadowRoot.querySelector(`[data-card-id='__proto__'] .cardfeed-card__dismiss`).click()")
        driver.refresh()
        WebDriverWait(driver, 15).until(lambda d: d.execute_script(SHOWN_CARDS, "odd"))
        again = {c["id"]: c for c in driver.execute_script(CARD_STATE, "odd")}
        assert again["__proto__"]["hidden"], "dismissed on the last visit"
        assert [id for id, c in again.items() if c["unread"] and not c["hidden"]] == [], "each seen on the last visit: read"
        assert driver.execute_script("return window.__thrown") == []
    finally:
        driver.quit()


def test_ids_named_like_object_properties_keep_their_state_in_the_frame_and_on_the_sites_pages(host):
    driver = driver_with_recorder()
    try:
        # The frame page (its own document: no host around it here) and the site's page of the feed.
        for address in (host["cards"] + "/embed/odd/", host["cards"] + "/odd/"):
            driver.get(address)
            driver.execute_script("localStorage.clear()")
            driver.refresh()
            WebDriverWait(driver, 10).until(lambda d: sorted(impressions(d)) == sorted(ODD_IDS))
            # Seen on this visit: read on the next.
            driver.refresh()
            WebDriverWait(driver, 10).until(lambda d: len(impressions(d)) == 5)
            state = driver.execute_script(CARD_STATE, None)
            assert sorted(c["id"] for c in state) == sorted(ODD_IDS), address
            assert [c["id"] for c in state if c["unread"]] == [], address
            assert set(json.loads(driver.execute_script("return localStorage.getItem('cardfeed:viewed')"))) == set(ODD_IDS), address
    finally:
        driver.quit()


STORED = """
let bytes = 0;
for (let i = 0; i < localStorage.length; i++) { const k = localStorage.key(i); if (k.startsWith('cardfeed:')) bytes += 2 * (k.length + localStorage.getItem(k).length); }
return {bytes, viewed: JSON.parse(localStorage.getItem('cardfeed:viewed') || '[]'), dismissed: JSON.parse(localStorage.getItem('cardfeed:dismissed') || '[]')};
"""


def test_what_the_component_keeps_in_the_hosts_storage_is_bounded_and_long_ids_are_hashed(host):
    """100 cards with 64,000-character ids put 6.4 M characters in the host's storage before;
    now each is a hash, every card is read on the next visit, and the host's own data fits."""
    driver = driver_with_recorder()
    try:
        driver.get(host["url"] + "long.html")
        WebDriverWait(driver, 30).until(lambda d: d.execute_script(SHOWN_CARDS, "long-a") and d.execute_script(SHOWN_CARDS, "long-b"))
        scroll_through(driver)
        WebDriverWait(driver, 15).until(lambda d: len(impressions(d)) == 100)
        driver.execute_script("document.getElementById('long-b').shadowRoot.querySelector('.cardfeed-card__dismiss').click()")
        stored = driver.execute_script(STORED)
        assert stored["bytes"] <= 65536 and len(stored["viewed"]) == 100 and len(stored["dismissed"]) == 1
        assert all(entry.startswith("hash:") and len(entry) == 21 for entry in stored["viewed"] + stored["dismissed"])
        # The host's own data still fits (5 M characters, most of Chromium's quota).
        assert driver.execute_script("try { localStorage.setItem('host', 'x'.repeat(5e6)); return true } catch (e) { return String(e) }") is True
        driver.execute_script("localStorage.removeItem('host')")
        driver.refresh()
        WebDriverWait(driver, 30).until(lambda d: d.execute_script(SHOWN_CARDS, "long-a") and d.execute_script(SHOWN_CARDS, "long-b"))
        state = driver.execute_script(CARD_STATE, "long-a") + driver.execute_script(CARD_STATE, "long-b")
        assert len(state) == 100 and [c["id"][:3] for c in state if c["unread"] and not c["hidden"]] == []
        assert len([c for c in state if c["hidden"]]) == 1
    finally:
        driver.quit()


def test_the_oldest_ids_go_first_when_the_storage_bound_is_reached(host):
    """A host origin that already holds 1,000 ids of 100 characters (a visitor of long ago, or a
    version without the bound): the component keeps the newest that fit in 32 kB a key, then its
    own cards' ids, newest last."""
    driver = driver_with_recorder()
    try:
        driver.get(host["url"] + "odd.html")
        old = [f"old-{i:04d}-" + "o" * 91 for i in range(1000)]
        driver.execute_script("localStorage.clear(); localStorage.setItem('cardfeed:viewed', arguments[0])", json.dumps(old))
        driver.refresh()
        WebDriverWait(driver, 10).until(lambda d: sorted(impressions(d)) == sorted(ODD_IDS))
        stored = driver.execute_script(STORED)
        viewed = stored["viewed"]
        assert stored["bytes"] <= 65536 and 2 * (len("cardfeed:viewed") + len(json.dumps(viewed, separators=(",", ":")))) <= 32768
        assert sorted(viewed[-5:]) == sorted(ODD_IDS)
        kept = viewed[:-5]
        assert kept == old[-len(kept):] and 100 < len(kept) < 200, len(kept)
    finally:
        driver.quit()


def test_a_full_storage_quota_breaks_neither_the_component_nor_the_host(host):
    driver = driver_with_recorder()
    try:
        driver.get(host["url"] + "odd.html")
        WebDriverWait(driver, 15).until(lambda d: d.execute_script(SHOWN_CARDS, "odd"))
        # Fill the origin's storage to the last character the quota allows.
        filled = driver.execute_script("""
            localStorage.clear();
            let size = 1 << 22, i = 0;
            while (size >= 1) {
              try { localStorage.setItem('fill-' + i, 'x'.repeat(size)); i++; } catch (e) { size = Math.floor(size / 2); }
            }
            try { localStorage.setItem('one-more', 'x'); return 'not full'; } catch (e) { return e.name; }
        """)
        assert filled == "QuotaExceededError"
        driver.refresh()
        WebDriverWait(driver, 15).until(lambda d: d.execute_script(SHOWN_CARDS, "odd"))
        WebDriverWait(driver, 10).until(lambda d: sorted(impressions(d)) == sorted(ODD_IDS))
        driver.execute_script("document.getElementById('odd').shadowRoot.querySelector(`[data-card-id='valueOf'] .cardfeed-card__dismiss`).click()")
        state = {c["id"]: c for c in driver.execute_script(CARD_STATE, "odd")}
        assert state["valueOf"]["hidden"] and not state["constructor"]["hidden"]
        assert [e["detail"]["id"] for e in driver.execute_script("return window.__cardfeedEvents") if e["name"] == "dismiss"] == ["valueOf"]
        assert driver.execute_script("return window.__thrown") == [] and driver.execute_script("return window.__errors") == []
        # The host's scripts still run; freeing its own space, it writes again.
        assert driver.execute_script("localStorage.removeItem('fill-0'); localStorage.setItem('host', 'mine'); return localStorage.getItem('host')") == "mine"
    finally:
        driver.execute_script("localStorage.clear()")
        driver.quit()


LAYOUT = """
return [...document.querySelectorAll('cardfeed-placement')].map(p => ({id: p.id, hidden: p.hidden, busy: p.hasAttribute('aria-busy'),
  height: p.getBoundingClientRect().height, cards: p.shadowRoot ? p.shadowRoot.querySelectorAll('[data-card-id]').length : 0}));
"""


def test_a_placement_that_cannot_load_says_why_once_and_takes_no_room(host):
    driver = driver_with_recorder()
    try:
        driver.get(host["url"] + "errors.html")
        WebDriverWait(driver, 15).until(lambda d: not any(p["busy"] for p in d.execute_script(LAYOUT)))
        time.sleep(0.5)
        placements = {p["id"]: p for p in driver.execute_script(LAYOUT)}
        assert placements["fine"]["cards"] == 5 and not placements["fine"]["hidden"] and placements["fine"]["height"] > 100
        # A host's own inline style stays as it was on a placement that loads.
        assert placements["styled"]["cards"] == 5 and driver.execute_script("return document.getElementById('styled').style.display") == "block"
        failed = [id for id in placements if id not in ("fine", "styled")]
        for id in failed:
            assert placements[id]["hidden"] and placements[id]["height"] == 0, placements[id]
        cards = host["cards"]
        expected = {
            "missing": (f"{cards}/embed/no-such-placement.json", "HTTP 404"),
            "no-cors": (None, "request failed (network error, no Access-Control-Allow-Origin header, or connect-src policy)"),
            "invalid": (host["url"] + "broken.json", "invalid JSON ("),
            "not-placement": (host["url"] + "other.json", "not a placement's JSON (it has no html)"),
            "no-stylesheet": (host["url"] + "lonely/cardfeed-embed.css", "its stylesheet could not be loaded"),
        }
        errors = {e["target"]: e["detail"] for e in driver.execute_script("return window.__errors")}
        assert sorted(errors) == sorted(failed), errors
        warnings = driver.execute_script("return window.__warnings")
        assert len(warnings) == len(failed), warnings
        for id, (src, reason) in expected.items():
            detail = errors[id]
            assert detail["reason"].startswith(reason), detail
            if src:
                assert detail["src"] == src, detail
            assert detail["src"].endswith(".json") or detail["src"].endswith(".css")
            assert [w for w in warnings if detail["src"] in w and detail["reason"] in w] != [], (id, warnings)
    finally:
        driver.quit()


class SlowCrossOriginHandler(CrossOriginHandler):
    """CardFeed's output half a second away, as over a real network: the host page has painted
    before the cards arrive, so that anything they push is a layout shift."""

    def do_GET(self):
        time.sleep(0.5)
        super().do_GET()


# Sums the host page's layout shifts (not those a reader's input caused), from its start.
SHIFTS = """
window.__shifts = [];
new PerformanceObserver((list) => { for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__shifts.push(entry.value); })
  .observe({type: "layout-shift", buffered: true});
"""


@pytest.fixture(scope="module")
def docs_host(cardfeed_bin, tmp_path_factory):
    """examples/content-cards with a placement as docs/embedding.md writes it, and a host page that shows
    home-hero in a column 360 px wide as the docs' snippets say: the component, and the frame
    with the few lines that fit it to its height; with or without the room the docs reserve."""
    import shutil
    from test_placements import HOST_JS

    root = tmp_path_factory.mktemp("docs-host")
    site = root / "site"
    shutil.copytree(REPO / "examples" / "content-cards", site, ignore=shutil.ignore_patterns("public"))
    docs = (REPO / "docs" / "embedding.md").read_text()
    # The docs' home-hero, over a site whose newest card but one is a short text card, the size
    # of card the docs' reserved room is for.
    (site / "cardfeed.yml").write_text((site / "cardfeed.yml").read_text() + (
        "placements:\n  home-hero:\n    feed: all\n    limit: 1\n"
        "rules:\n  - match: {id: cc-autumn-menu}\n    keep_out_of: [home-hero]\n"))
    room = re.search(r"<!-- placement-room -->\n```css\n(.*?)```", docs, re.S).group(1)
    out = root / "out"
    out.mkdir()
    cards_server, cards = serve_folder(out, SlowCrossOriginHandler)
    result = subprocess.run([str(cardfeed_bin), "build", str(site), "--now", NOW, "-q", "-o", str(out)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    pages = root / "host"
    pages.mkdir()
    for name, css in (("reserved", room), ("unreserved", "")):
        (pages / f"{name}.css").write_text("aside { width: 360px; } p { margin: 0 0 1rem; }\n" + css)
        (pages / f"{name}.html").write_text(
            f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Layout</title><link rel="stylesheet" href="{name}.css">'
            f'<script src="{cards}/embed/cardfeed-embed.js" defer></script><script src="host.js" defer></script></head><body><aside>'
            f'<p>Offers</p><cardfeed-placement id="component" src="{cards}/embed/home-hero.json" limit="1"></cardfeed-placement>'
            f'<p id="below-component">Below the component</p>'
            f'<iframe id="frame" src="{cards}/embed/home-hero/" title="Offers" data-cardfeed="home-hero" style="width: 100%; border: 0"></iframe>'
            f'<p id="below-frame">Below the frame</p>' + "<p>More of the host's page.</p>" * 20 + "</aside></body></html>")
    (pages / "host.js").write_text(HOST_JS % cards)
    host_server, url = serve_folder(pages, QuietHandler)
    yield {"url": url + "/", "cards": cards, "room": room}
    host_server.shutdown()
    cards_server.shutdown()


def layout_shifts(docs_host, page):
    driver = make_driver()
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SHIFTS})
    try:
        driver.get(docs_host["url"] + page)
        WebDriverWait(driver, 15).until(lambda d: d.execute_script(SHOWN_CARDS, "component"))
        # The frame told its height, and the host fitted it: what the page will look like.
        WebDriverWait(driver, 15).until(lambda d: d.execute_script("return window.__heights.length > 0"))
        time.sleep(1)
        SCREENSHOTS.joinpath("placements").mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(SCREENSHOTS / "placements" / f"room-{page.replace('.html', '')}.png"))
        return driver.execute_script("""return {shifts: window.__shifts,
          component: document.getElementById('component').getBoundingClientRect().height,
          frame: document.getElementById('frame').getBoundingClientRect().height,
          told: window.__heights[window.__heights.length - 1].height}""")
    finally:
        driver.quit()


def test_the_documented_snippets_shift_nothing_when_the_cards_arrive(docs_host):
    """Chromium's layout-shift entries sum to at most 0.01 with the room docs/embedding.md
    reserves, where the same page without it shifts (so the measure sees shifts)."""
    reserved = layout_shifts(docs_host, "reserved.html")
    assert sum(reserved["shifts"]) <= 0.01, reserved
    # The room reserved holds the cards: what was measured is the page as the reader gets it.
    assert 0 < reserved["told"] <= reserved["frame"] and reserved["component"] >= reserved["told"] - 8, reserved
    unreserved = layout_shifts(docs_host, "unreserved.html")
    assert sum(unreserved["shifts"]) > 0.01, unreserved


@pytest.mark.parametrize("reader, told", [("light", "dark"), ("dark", "light")])
def test_the_frame_follows_the_scheme_the_host_tells_it(docs_host, reader, told):
    """`?scheme=dark` in the frame's address, or a cardfeed:scheme message from the parent, over
    the reader's own setting (the frame cannot see the host's color-scheme)."""
    surfaces = {"light": "rgb(255, 255, 255)", "dark": "rgb(21, 30, 47)"}
    driver = make_driver(dark=reader == "dark")
    try:
        driver.get(docs_host["url"] + "reserved.html")
        frame = driver.find_element("id", "frame")
        driver.execute_script("arguments[0].src = arguments[1]", frame, docs_host["cards"] + f"/embed/home-hero/?scheme={told}")
        WebDriverWait(driver, 15).until(lambda d: d.execute_script("return window.__heights.length > 1"))

        def surface():
            driver.switch_to.frame(frame)
            try:
                return driver.execute_script("return getComputedStyle(document.querySelector('[data-card-id]')).backgroundColor")
            finally:
                driver.switch_to.default_content()
        WebDriverWait(driver, 10).until(lambda d: surface() == surfaces[told])
        SCREENSHOTS.joinpath("placements").mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(SCREENSHOTS / "placements" / f"frame-told-{told}-reader-{reader}.png"))
        # The host's theme switch tells it again: back to the reader's, then the one told.
        driver.execute_script("arguments[0].contentWindow.postMessage({type: 'cardfeed:scheme', scheme: arguments[1]}, '*')", frame, reader)
        WebDriverWait(driver, 10).until(lambda d: surface() == surfaces[reader])
        driver.execute_script("arguments[0].contentWindow.postMessage({type: 'cardfeed:scheme', scheme: 'normal'}, '*')", frame)
        WebDriverWait(driver, 10).until(lambda d: surface() == surfaces[reader])
        driver.execute_script("arguments[0].contentWindow.postMessage({type: 'cardfeed:scheme', scheme: arguments[1]}, '*')", frame, told)
        WebDriverWait(driver, 10).until(lambda d: surface() == surfaces[told])
    finally:
        driver.quit()


def test_a_host_page_on_another_port_previews_the_component_from_serve(serve, tmp_path):
    """`cardfeed serve` answers embed/ with Access-Control-Allow-Origin: * for pages of this
    machine, so a host page on another port shows the cards being edited."""
    from conftest import copy_example_site

    site = copy_example_site(tmp_path / "site")
    (site / "cardfeed.yml").write_text((site / "cardfeed.yml").read_text() + "placements:\n  home-hero: {feed: all, limit: 2}\n")
    server, _ = serve(site)
    pages = tmp_path / "host"
    pages.mkdir()
    (pages / "index.html").write_text(
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Host</title>'
        f'<script src="{server.url}embed/cardfeed-embed.js" defer></script></head><body><main>'
        f'<cardfeed-placement id="preview" src="{server.url}embed/home-hero.json"></cardfeed-placement></main></body></html>')
    host_server, host_url = serve_folder(pages, QuietHandler)
    driver = driver_with_recorder()
    try:
        driver.get(host_url + "/")
        WebDriverWait(driver, 20).until(lambda d: d.execute_script(SHOWN_CARDS, "preview"))
        assert len(driver.execute_script(CARD_STATE, "preview")) == 2
        assert driver.execute_script("return window.__errors") == [] and driver.execute_script("return window.__warnings") == []
    finally:
        driver.quit()
        host_server.shutdown()
