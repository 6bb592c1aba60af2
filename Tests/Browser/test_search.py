"""The search box (`search: true`) in headless Chromium: a word of one card finds that card, its
link leads to it, the keyboard works, the open list passes axe-core and fits a phone, and under
`--csp` nothing is refused; under `cardfeed serve`, the index follows an edit."""
import json
import re
import subprocess
import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from conftest import NOW, REPO, SCREENSHOTS, built_and_served, copy_example_site, make_driver
from test_look import axe_source, axe_violations

WORD = "Marlow"  # in one card of the example site only: "The **Marlow Trio** plays two sets…"
CARD = "card-nf-jazz-riverside"
PAGE = "cards/" + CARD + ".html"  # the card's own page, which a result leads to
VIOLATIONS = "window.__violations = []; document.addEventListener('securitypolicyviolation', e => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));"


@pytest.fixture(scope="module")
def search_site(cardfeed_bin, tmp_path_factory):
    """The example site built with search and the built-in policy, served as static files."""
    site = copy_example_site(tmp_path_factory.mktemp("search") / "site")
    texts = [path.read_text() for path in sorted(site.glob("cards*.json")) + sorted((site / "cards").glob("*.json"))]
    assert sum(len(re.findall(WORD, text, re.IGNORECASE)) for text in texts) == 1, f"{WORD} must be in one card only"
    with built_and_served(cardfeed_bin, site, "--search", "--csp") as url:
        yield url


def search(driver, words):
    box = driver.find_element(By.CSS_SELECTOR, ".site-search__input")
    box.clear()
    box.send_keys(words)
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "site-search-status").get_attribute("textContent"))
    return box


def results(driver):
    # Read in one script: the box replaces its list as each query's results come, and a link
    # found first and read after could be gone (a StaleElementReferenceException, on a busy machine).
    links = driver.execute_script("return [...document.querySelectorAll('.site-search__link')].map(a => [a.innerText.trim(), a.href])")
    return [(text, href) for text, href in links]


# From a feed's page and from a card's page (in a folder, whose links go from the <base>).
@pytest.mark.parametrize("width,dark,start", [(1280, False, "advertising/index.html"), (320, True, "cards/card-nf-welcome.html")])
def test_a_word_of_one_card_finds_that_card_and_its_link_leads_to_it(search_site, width, dark, start):
    driver = make_driver(width=width, height=844 if width < 600 else 900, dark=dark)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": VIOLATIONS})
    try:
        driver.get(search_site + start)
        search(driver, WORD.lower())
        assert results(driver) == [("Jazz at Riverside, every other Friday", search_site + PAGE)]
        assert driver.find_element(By.ID, "site-search-status").get_attribute("textContent") == "1 card"
        marks = driver.find_elements(By.CSS_SELECTOR, ".site-search__excerpt mark")
        assert [mark.text for mark in marks] == [WORD]
        # Nothing sticks out of a phone's screen.
        assert driver.execute_script("return document.documentElement.scrollWidth") <= width
        panel = driver.find_element(By.CSS_SELECTOR, ".site-search__panel").rect
        assert panel["x"] >= 0 and panel["x"] + panel["width"] <= width
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(SCREENSHOTS / f"search-{width}-{'dark' if dark else 'light'}.png"))

        driver.find_element(By.CSS_SELECTOR, ".site-search__link").click()
        WebDriverWait(driver, 10).until(lambda d: d.current_url.endswith("/" + PAGE))
        card = driver.find_element(By.ID, CARD)
        assert WORD in card.text
        assert driver.execute_script("const r = arguments[0].getBoundingClientRect(); return r.top < innerHeight && r.bottom > 0", card)
        # Pagefind's script, worker, index and WebAssembly, all under the built-in policy.
        assert driver.execute_script("return window.__violations") == []
    finally:
        driver.quit()


@pytest.mark.parametrize("page", ["index.html", "cards/card-nf-welcome.html"])
def test_the_keyboard_reaches_every_result_and_axe_finds_no_violation(search_site, page):
    driver = make_driver()
    try:
        driver.get(search_site + page)
        box = search(driver, "coffee")
        found = results(driver)
        assert len(found) >= 3
        box.send_keys(Keys.ARROW_DOWN)
        assert driver.switch_to.active_element.text == found[0][0]
        driver.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
        assert driver.switch_to.active_element.text == found[1][0]
        driver.switch_to.active_element.send_keys(Keys.ARROW_UP, Keys.ARROW_UP)
        assert driver.switch_to.active_element.get_attribute("id") == "site-search-input"
        for dark in (False, True):
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})
            box.send_keys(Keys.ARROW_DOWN)  # the list open, a result focused
            assert axe_violations(driver, axe_source()) == []
            driver.switch_to.active_element.send_keys(Keys.ESCAPE)
        assert not driver.find_element(By.CSS_SELECTOR, ".site-search__panel").is_displayed()
        assert driver.switch_to.active_element.get_attribute("id") == "site-search-input"

        search(driver, "zzyzx")
        assert driver.find_element(By.ID, "site-search-status").get_attribute("textContent") == "No card matches “zzyzx”."
    finally:
        driver.quit()


def test_without_a_server_the_box_says_search_needs_one(cardfeed_bin, tmp_path):
    site = copy_example_site(tmp_path / "site")
    result = subprocess.run([str(cardfeed_bin), "build", str(site), "--search", "--now", NOW, "-q"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    driver = make_driver()
    try:
        driver.get((site / "public" / "index.html").as_uri())
        search(driver, "jazz")
        assert driver.find_element(By.ID, "site-search-status").get_attribute("textContent") == "Search works once the site is served over http(s)."
    finally:
        driver.quit()


def test_under_serve_the_index_follows_an_edit(serve):
    process, site = serve(None, "--search")
    process.wait_for_output(r"^Indexed 26 cards for search in ")
    driver = make_driver()
    try:
        driver.get(process.url)
        assert results(driver) == [] and search(driver, "quokkaphone")
        assert driver.find_element(By.ID, "site-search-status").get_attribute("textContent") == "No card matches “quokkaphone”."
        cards = site / "cards.json"
        cards.write_text(cards.read_text().replace("**Marlow Trio**", "**Quokkaphone Trio**"))
        deadline = time.monotonic() + 20
        while sum("Indexed 26 cards" in line for line in process.lines) < 2:
            assert time.monotonic() < deadline, "".join(process.lines)
            time.sleep(0.05)
        # The page was updated in place; its box searches the new index.
        WebDriverWait(driver, 10).until(lambda d: "Quokkaphone" in d.find_element(By.ID, CARD).text)
        time.sleep(0.5)
        search(driver, "quokkaphone")
        assert [title for title, _ in results(driver)] == ["Jazz at Riverside, every other Friday"]
    finally:
        driver.quit()


@pytest.mark.parametrize("width", [1280, 320])
def test_a_card_opened_by_its_anchor_is_below_the_taller_header(search_site, width):
    """The box makes the sticky header taller; a card a link opens by its anchor is still seen
    whole from its top, as without search."""
    driver = make_driver(width=width, height=844 if width < 600 else 900)
    try:
        driver.get(search_site + "index.html#card-cc-open-mic")
        time.sleep(0.3)
        driver.execute_script("location.hash = ''; location.hash = 'card-cc-open-mic'")
        header, card = driver.execute_script(
            "return [document.querySelector('.site-header').getBoundingClientRect().bottom,"
            " document.getElementById('card-cc-open-mic').getBoundingClientRect().top]")
        assert header <= card <= header + 48, f"the card's top is at {card} px, the header ends at {header} px"
    finally:
        driver.quit()


def test_the_search_fields_focus_ring_is_the_themes_accent(search_site):
    driver = make_driver()
    try:
        driver.get(search_site + "index.html")
        box = driver.find_element(By.CSS_SELECTOR, ".site-search__input")
        box.click()
        ring, accent = driver.execute_script(
            "const probe = document.createElement('span'); probe.style.color = 'var(--cf-accent)'; document.body.append(probe);"
            "return [getComputedStyle(arguments[0]).outlineColor, getComputedStyle(probe).color]", box)
        assert ring == accent
    finally:
        driver.quit()


def test_a_results_excerpt_starts_with_the_cards_own_words(search_site):
    """A cross promotion's badge ("Buy"), its stars and the title its button repeats for screen
    readers are the template's, not the card's words."""
    driver = make_driver()
    try:
        driver.get(search_site + "index.html")
        search(driver, "tasting journal")
        excerpts = [node.text for node in driver.find_elements(By.CSS_SELECTOR, ".site-search__excerpt")]
        assert excerpts and excerpts[0].startswith("Cupping Notes. A tasting journal"), excerpts
        assert "★" not in excerpts[0] and "Buy" not in excerpts[0]
    finally:
        driver.quit()


def test_an_index_in_parts_finds_the_cards_of_every_part(cardfeed_bin, tmp_path, monkeypatch):
    """A large site's index comes in parts (of 4,000 cards at most; here 10, CARDFEED_SEARCH_PART_SIZE),
    which the box merges: a word every card has finds every card, whichever part it is in; a
    word of one card finds it; and Pagefind's script, worker and WebAssembly are fetched once."""
    monkeypatch.setenv("CARDFEED_SEARCH_PART_SIZE", "10")
    site = tmp_path / "site"
    site.mkdir()
    (site / "cards.json").write_text(json.dumps([
        {"id": f"n{n:02d}", "type": "text_announcement", "title": f"Card {n}", "description": f"Brewing night {word}.", "created": 1790000000 + n}
        for n, word in enumerate(["quokkaphone", "wombatophone"] + [f"night{chr(97 + n // 26)}{chr(97 + n % 26)}" for n in range(38)])
    ]))
    with built_and_served(cardfeed_bin, site, "--search") as url:
        index = site / "public" / "pagefind"
        assert json.loads((index / "cardfeed-parts.json").read_text()) == {"parts": [f"part-{n}/" for n in range(2, 5)]}
        driver = make_driver()
        fetched = "return performance.getEntriesByType('resource').map(e => e.name)"
        try:
            driver.get(url + "cards/card-n00.html")
            search(driver, "brewing")
            WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "site-search-status").get_attribute("textContent") == "40 cards")
            for word, title, page in [("quokkaphone", "Card 0", "cards/card-n00.html"), ("wombatophone", "Card 1", "cards/card-n01.html")]:
                search(driver, word)
                WebDriverWait(driver, 10).until(lambda d: results(d) == [(title, url + page)])
            names = [name[len(url):] for name in driver.execute_script(fetched)]
            # (The worker fetches the WebAssembly, out of the page's sight.)
            assert names.count("pagefind/pagefind.js") == 1, names
            assert not [name for name in names if name.startswith("pagefind/part-") and ("wasm" in name or name.endswith(".js"))], names
        finally:
            driver.quit()
