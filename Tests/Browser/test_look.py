"""The sites of sites.py in Chromium at phone, tablet and desktop widths, light and dark:
no page scrolls sideways, nothing sticks out of a card, the header stays on screen, the current
feed's chip is in view, images are sized and bounded, and axe-core reports no violation. The
screenshots are for a person to look at ($CARDFEED_SCREENSHOTS/look/)."""
import importlib.util
from pathlib import Path

import pytest

import sites
from conftest import SCREENSHOTS, StaticServer, make_driver, set_viewport


@pytest.fixture(scope="session")
def look_sites(cardfeed_bin, tmp_path_factory):
    """{name: (url, [pages])} for each site, built and served as static files: every page, but
    of the cards' own pages those of the awkward and the right-to-left cards, and two a site."""
    built = sites.make_sites(cardfeed_bin, tmp_path_factory.mktemp("look"))
    servers = {name: StaticServer(output) for name, output in built.items()}
    try:
        yield {name: (servers[name].url, sites.pages(output, every_card_page=name in ("stress", "rtl"))) for name, output in built.items()}
    finally:
        for server in servers.values():
            server.close()


def height(width):
    return 844 if width < 600 else 900


def load(driver, url):
    driver.get(url)
    driver.execute_script("return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


# What sticks out of its card: any element whose box passes the card's edges (a scrolling code
# block's content and visually hidden text excepted), and the page's own width, against the
# screen's (arguments[0]): on an emulated phone a too wide page widens the layout viewport
# itself, innerWidth included.
OVERFLOW = """
const problems = [];
const width = Math.max(document.documentElement.scrollWidth, innerWidth);
if (width > arguments[0]) problems.push("page is " + width + " px wide");
for (const card of document.querySelectorAll(".card")) {
  const edge = card.getBoundingClientRect();
  for (const e of card.querySelectorAll("*")) {
    if (e.closest(".visually-hidden") || (e.parentElement.closest("pre") && e.tagName !== "PRE")) continue;
    const box = e.getBoundingClientRect();
    if (box.width && (box.right > edge.right + 0.5 || box.left < edge.left - 0.5))
      problems.push(card.id + " " + e.tagName.toLowerCase() + "." + e.className + " passes the card by " + Math.round(Math.max(box.right - edge.right, edge.left - box.left)) + " px");
  }
  for (const pre of card.querySelectorAll("pre")) {
    if (pre.scrollWidth > pre.clientWidth && getComputedStyle(pre).overflowX !== "auto") problems.push(card.id + " pre is clipped");
  }
}
return problems;
"""


def each_page(driver, look_sites, widths):
    """Loads every page of every site at each width in turn; yields the site's name, the page
    and the width, with the page loaded."""
    for width in widths:
        set_viewport(driver, width, height(width))
        for name, (url, pages) in look_sites.items():
            for page in pages:
                load(driver, url + page)
                yield name, page, width


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_nothing_scrolls_sideways_or_sticks_out(look_sites, dark):
    driver = make_driver(dark=dark)
    problems = []
    try:
        for name, page, width in each_page(driver, look_sites, (320, 390, 768)):
            problems += [f"{name} {page} at {width}: {p}" for p in driver.execute_script(OVERFLOW, width)]
    finally:
        driver.quit()
    assert problems == [], "\n".join(problems)


def test_header_stays_and_the_current_chip_is_in_view(look_sites):
    driver = make_driver()
    try:
        set_viewport(driver, 320, 640)
        # The last chips of the example's strip, and of a site's own feeds: "workshops" is empty
        # and in the strip only on its own page (hide_empty_feeds).
        for site, feed in [("content-cards", "members"), ("content-cards", "workshops"),
                           ("example", "news"), ("example", "announcements"), ("example", "social"), ("example", "uncategorized")]:
            url, _ = look_sites[site]
            load(driver, f"{url}{feed}/index.html")
            chip, strip = driver.execute_script("""
              const chip = document.querySelector(".feed-nav [aria-current='page']").getBoundingClientRect();
              const strip = document.querySelector(".feed-nav__list").getBoundingClientRect();
              return [[chip.left, chip.right], [strip.left, strip.right]]""")
            assert strip[0] - 0.5 <= chip[0] and chip[1] <= strip[1] + 0.5, (feed, chip, strip)
        driver.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
        top, bottom = driver.execute_script("const r = document.querySelector('.site-header').getBoundingClientRect(); return [r.top, r.bottom]")
        assert top == 0 and bottom > 40, "the header stays at the top of the screen"
    finally:
        driver.quit()


def test_images_have_a_size_and_stay_within_the_window(look_sites):
    driver = make_driver()
    try:
        for name, page, _ in each_page(driver, look_sites, (390, 1280)):
            unsized = driver.execute_script("return Array.from(document.images).filter(i => !i.getAttribute('width') || !i.getAttribute('height')).map(i => i.getAttribute('src'))")
            assert unsized == [], f"{name} {page}: images without width and height"
        set_viewport(driver, 1280, 900)
        url, _ = look_sites["stress"]
        load(driver, url)
        driver.execute_script("document.querySelectorAll('img').forEach(i => i.loading = 'eager')")
        driver.execute_script("return Promise.all(Array.from(document.images).map(i => i.decode().catch(() => null)))")
        sizes = driver.execute_script("""
          return Object.fromEntries(Array.from(document.querySelectorAll('[data-card-id]')).filter(c => c.querySelector('.card__image'))
            .map(c => { const i = c.querySelector('.card__image'); return [c.dataset.cardId, [i.getBoundingClientRect().width, i.getBoundingClientRect().height, i.naturalWidth]]; }))""")
        assert sizes["portrait"][1] <= 0.75 * 900 + 1, "a portrait image is at most three quarters of the window"
        assert sizes["portrait"][0] <= 440, "and not enlarged"
        assert sizes["tiny"][0] == 48, "a 48 px image keeps its size"
        assert sizes["wide"][0] > 700, "a large image fills the card"
    finally:
        driver.quit()


# Where things are, left to right, in a card: the unread bar, the pin, the date and the link.
PLACES = """
const card = document.getElementById(arguments[0]);
const box = e => { const r = e ? e.getBoundingClientRect() : null; return r && r.width ? [r.left, r.right] : null; };
return {dir: getComputedStyle(card).direction, lang: card.getAttribute('lang'), card: box(card),
        unread: box(card.querySelector('.card__unread')), pin: box(card.querySelector('.card__pin')),
        date: box(card.querySelector('.card__date')), link: box(card.querySelector('.card__link')),
        page: document.documentElement.getAttribute('dir')};"""


@pytest.mark.parametrize("width", [390, 1280])
def test_right_to_left_pages_and_cards_are_mirrored(look_sites, width):
    driver = make_driver()
    try:
        set_viewport(driver, width, height(width))
        load(driver, look_sites["rtl"][0] + "index.html")
        arabic = driver.execute_script(PLACES, "card-ar-pinned")
        assert arabic["page"] == "rtl" and arabic["dir"] == "rtl"
        assert abs(arabic["unread"][1] - arabic["card"][1]) <= 1.5, "the unread bar runs along the right edge"
        assert arabic["pin"][1] < (arabic["card"][0] + arabic["card"][1]) / 2, "the pin is in the left corner"
        assert arabic["date"][0] > arabic["link"][1], "the date comes first, on the right; the link after it"
        hebrew = driver.execute_script(PLACES, "card-he-text")
        assert hebrew["lang"] == "he" and hebrew["dir"] == "rtl"
        load(driver, look_sites["rtl"][0] + "page-en-card.html")
        english = driver.execute_script(PLACES, "card-en-card")
        assert english["lang"] == "en" and english["dir"] == "ltr"
        assert english["date"][1] < english["link"][0], "an English card in an Arabic feed reads left to right"
        assert english["unread"] is None or abs(english["unread"][0] - english["card"][0]) <= 1.5
        latest, newer, older = driver.execute_script("""
          const r = s => document.querySelector(s).getBoundingClientRect();
          return [r('.pagination__latest'), r('.pagination__step[rel=prev]'), r('.pagination__step[rel=next]')].map(b => [b.left, b.right]);""")
        assert latest[0] >= newer[1] and newer[0] >= older[1], "from the right: the front page, newer cards, older ones"
        # An Arabic card in an English feed: right to left, its date on the right.
        load(driver, look_sites["stress"][0] + "index.html")
        mixed = driver.execute_script(PLACES, "card-arabic-in-english")
        assert mixed["page"] is None and mixed["lang"] == "ar" and mixed["dir"] == "rtl"
        assert mixed["date"][0] > mixed["link"][1]
    finally:
        driver.quit()


def axe_source():
    spec = importlib.util.find_spec("axe_playwright_python")
    assert spec and spec.origin, "scripts/setup.sh installs axe-playwright-python, which ships axe.min.js"
    return (Path(spec.origin).parent / "axe.min.js").read_text()


AXE_RUN = """
  const done = arguments[arguments.length - 1];
  axe.run(document).then(r => done(r.violations.map(v => v.id + ": " + v.nodes.slice(0, 3).map(n => n.target.join(" ") + " " + (n.failureSummary || "").replace(/\\s+/g, " ").slice(0, 160)).join(" | "))),
                         e => done(["axe failed: " + e]))"""


def axe_violations(driver, source):
    """axe-core's violations on the page loaded, one line each (`source`: axe_source())."""
    driver.execute_script(source)
    return driver.execute_async_script(AXE_RUN)


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_axe_finds_no_violation(look_sites, dark):
    source = axe_source()
    driver = make_driver(dark=dark)
    driver.set_script_timeout(60)
    found = []
    try:
        for name, page, width in each_page(driver, look_sites, (390, 1280)):
            found += [f"{name} {page} at {width}: {v}" for v in axe_violations(driver, source)]
    finally:
        driver.quit()
    assert found == [], "\n".join(found)


COLUMNS = "return new Set([...document.querySelectorAll('.card')].map(c => Math.round(c.getBoundingClientRect().left))).size"


def test_the_grid_puts_cards_side_by_side_on_wide_screens_only(look_sites):
    """`columns: 3`: one column on phones, two on a tablet, three from a laptop up; screenshots
    at each width for a person to look at. Without the setting, one column up to 1,400 px and
    two from there, so that a wide window is not mostly empty."""
    folder = SCREENSHOTS / "look"
    folder.mkdir(parents=True, exist_ok=True)
    driver = make_driver()
    try:
        seen = {}
        for width in (390, 768, 1280, 1920):
            set_viewport(driver, width, height(width))
            load(driver, look_sites["grid"][0] + "index.html")
            seen[width] = driver.execute_script(COLUMNS)
            if width >= 768:
                assert driver.save_screenshot(str(folder / f"grid-all-{width}-light.png"))
            for site in ("example", "init"):
                load(driver, look_sites[site][0] + "index.html")
                assert driver.execute_script(COLUMNS) == (2 if width >= 1400 else 1), f"the {site} site at {width} px"
                if width == 1920:
                    width_used = driver.execute_script("return document.querySelector('.feed__cards').getBoundingClientRect().width")
                    assert width_used >= 1150, f"the {site} site uses {width_used} px of 1920"
        assert seen == {390: 1, 768: 2, 1280: 3, 1920: 3}
    finally:
        driver.quit()


# Cards side by side: under each card, the next card of its column starts one gap lower (no
# hole under a short card beside a tall one), and cards start in their order in the page, each
# no higher than the one before (the reading order). Returns the problems.
PACKED = """
const list = document.querySelector('.feed__cards'), gap = parseFloat(getComputedStyle(list).columnGap);
const cards = [...list.children].filter(c => c.offsetParent), boxes = cards.map(c => c.getBoundingClientRect());
const problems = [], columns = {};
boxes.forEach((box, i) => {
  if (i > 0 && box.top < boxes[i - 1].top - 0.5) problems.push(cards[i].id + ' starts above the card before it');
  const above = columns[Math.round(box.left)];
  if (above !== undefined && Math.abs(box.top - above - gap) > 1.5) problems.push(cards[i].id + ' starts ' + Math.round(box.top - above) + ' px under the card above it');
  columns[Math.round(box.left)] = box.bottom;
});
return [Object.keys(columns).length, problems];
"""


@pytest.mark.parametrize("width", [1400, 1920])
def test_cards_side_by_side_leave_no_gap_and_keep_their_order(look_sites, width):
    driver = make_driver()
    try:
        set_viewport(driver, width, height(width))
        for name in ("example", "init", "grid", "stress"):
            load(driver, look_sites[name][0] + "index.html")
            columns, problems = driver.execute_script(PACKED)
            assert columns >= 2 and problems == [], (name, width, columns, problems)
    finally:
        driver.quit()


CARD_PAGE = """
const main = document.querySelector('main'), h1 = main.querySelector('h1'), card = main.querySelector('#card article'),
      places = main.querySelector('nav.card-places'), box = e => e.getBoundingClientRect();
return {heading: h1.textContent, headingHeight: box(h1).height, hidden: h1.matches('.visually-hidden'),
        order: box(h1).bottom <= box(card).top && box(card).bottom <= box(places).top,
        chipsInMain: main.querySelectorAll('.feed-nav__link').length,
        links: [...places.querySelectorAll('a')].map(a => a.textContent)};
"""


MAIN_WIDTH = "return document.querySelector('main').getBoundingClientRect().width"


@pytest.mark.parametrize("width", [320, 1280, 1920])
def test_a_card_page_leads_with_its_title_then_the_card_then_where_it_sits(look_sites, width):
    driver = make_driver()
    try:
        set_viewport(driver, width, height(width))
        for name in ("example", "init"):
            url, pages = look_sites[name]
            for page in [p for p in pages if p.startswith("cards/")][:2]:
                load(driver, url + page)
                seen = driver.execute_script(CARD_PAGE)
                assert seen["heading"] and seen["headingHeight"] > 20 and not seen["hidden"], (name, page, seen)
                assert seen["order"] and seen["chipsInMain"] == 0, (name, page, seen)
                assert seen["links"] and seen["links"][0] == "All", (name, page, seen)
            # A single column's width: 52rem by default (not the two columns' 78rem from 1,400 px),
            # and the theme's page-width where it sets one (the grid site's 60rem).
            assert driver.execute_script(MAIN_WIDTH) <= 52 * 16, (name, width)
        if width >= 1280:
            url, pages = look_sites["grid"]
            load(driver, url + [p for p in pages if p.startswith("cards/")][0])
            main = driver.execute_script(MAIN_WIDTH)
            assert abs(main - 60 * 16) < 1, f"the grid site's card page at {width} px is {main} px wide"
    finally:
        driver.quit()


# Waits (2 s at most) for the images on screen to be decoded, so that a picture shows them: the
# page's load does not wait for lazy images, nor two frames for an async decode.
DECODED = """
const done = arguments[arguments.length - 1];
const shown = [...document.images].filter(i => { const r = i.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; });
Promise.race([Promise.all(shown.map(i => i.decode().catch(() => null))), new Promise(r => setTimeout(r, 2000))]).then(() => done());
"""


def test_screenshots_of_every_site(look_sites):
    """Pictures for a person to look at; scripts/update-readme-screenshots.sh copies two."""
    folder = SCREENSHOTS / "look"
    folder.mkdir(parents=True, exist_ok=True)
    for dark in (False, True):
        driver = make_driver(dark=dark)
        try:
            for width in (320, 390, 1280, 1920):
                set_viewport(driver, width, height(width))
                for name, (url, pages) in look_sites.items():
                    # The front pages, the first archive page of the front page's feed, and a card's
                    # own page with an image and one without, left to right and right to left.
                    archive = [p for p in pages if p.startswith("page-")][:1]
                    more = ("news/index.html", "offers/index.html", "workshops/index.html", "cards/card-cc-autumn-menu.html",
                            "cards/card-nf-welcome.html", "cards/card-ar-pinned.html", "cards/card-he-text.html")
                    for page in ["index.html"] + [p for p in more if p in pages] + archive:
                        load(driver, url + page)
                        driver.execute_async_script(DECODED)
                        shown = "archive" if page in archive else page.replace("/index.html", "").replace(".html", "").replace("/", "-")
                        path = folder / f"{name}-{shown}-{width}-{'dark' if dark else 'light'}.png"
                        assert driver.save_screenshot(str(path))
                        assert path.stat().st_size > 3000
        finally:
            driver.quit()


# The feeds' row on a phone: whether it overflows, the direction of its fade, the width of the
# fade at each end (none at the start until it is scrolled), and whether the current chip and,
# scrolled to the end, the last chip are clear of both fades.
FEED_ROW = """
const strip = document.querySelector('.feed-nav__list'), box = strip.getBoundingClientRect();
const rtl = getComputedStyle(strip).direction === 'rtl', fade = parseFloat(getComputedStyle(strip).paddingInlineEnd);
// (Within a pixel: scrollLeft is a whole number, the chips' widths are not.)
const clear = chip => { const r = chip.getBoundingClientRect(); return r.left >= box.left + (rtl ? fade : 0) - 1 && r.right <= box.right - (rtl ? 0 : fade) + 1; };
const start = () => parseFloat(getComputedStyle(strip).getPropertyValue('--cf-nav-start')) || 0;
const seen = {overflows: strip.scrollWidth > strip.clientWidth, mask: getComputedStyle(strip).maskImage, rtl, fade,
              startFade: start(), currentClear: clear(strip.querySelector("[aria-current='page']"))};
strip.scrollLeft = rtl ? -strip.scrollWidth : strip.scrollWidth;
return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() =>
  r({...seen, scrolledStartFade: start(), lastClear: clear(strip.querySelector('li:last-child a'))}))));
"""


@pytest.mark.parametrize("width", [320, 390])
def test_the_feed_row_shows_that_it_scrolls_both_ways_of_writing(look_sites, width):
    """A chip cut by the screen's edge reads as more to scroll to: the row fades out at its end
    (the right, or the left right to left), and at its start once scrolled; scrolled to its end,
    the last chip is clear of the fade, and the current feed's chip is clear of both."""
    driver = make_driver()
    try:
        set_viewport(driver, width, height(width))
        pages = [("example", "index.html", False), ("example", "social/index.html", False),
                 ("multilingual", "ar/index.html", True), ("multilingual", "ar/social/index.html", True),
                 ("rtl", "index.html", True)]
        for site, page, rtl in pages:
            load(driver, look_sites[site][0] + page)
            seen = driver.execute_script(FEED_ROW)
            where = f"{site} {page} at {width}: {seen}"
            assert seen["overflows"] and seen["rtl"] == rtl and seen["fade"] >= 24, where
            assert "linear-gradient(to " + ("left" if rtl else "right") in seen["mask"] and seen["mask"].endswith("rgba(0, 0, 0, 0))"), where
            assert seen["currentClear"] and seen["lastClear"], where
            assert seen["scrolledStartFade"] >= 24, where
            if page in ("index.html", "ar/index.html"):  # a later feed's page starts scrolled, to show its chip
                assert seen["startFade"] == 0, where
    finally:
        driver.quit()
