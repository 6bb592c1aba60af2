"""Search on a site in several languages, in headless Chromium: each tree's search box finds that
tree's cards only (Pagefind searches the index of the page's `<html lang>`), and its results lead
to the tree's card pages."""
import json

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import built_and_served, make_driver
from test_search import results, search

CONFIG = """\
title: Brewline
languages: [en, de, ar]
search: true
"""


def card(id, language, words):
    return {"id": id, "type": "text_announcement", "title": f"Title {id}", "description": words,
            "created": 1790000000, "categories": ["news"], "language": language}


# Each word in one card only, of one language.
CARDS = [
    card("en-1", "en", "Our Espresso blend is back"), card("en-2", "en", "Tea on the terrace"),
    card("de-1", "de", "Die Kaffeemühle ist wieder da"), card("de-2", "de-AT", "Tee auf der Terrasse"),
    card("ar-1", "ar", "قهوة الصباح"),
]


@pytest.fixture(scope="module")
def site(cardfeed_bin, tmp_path_factory):
    folder = tmp_path_factory.mktemp("search-languages") / "site"
    folder.mkdir()
    (folder / "cardfeed.yml").write_text(CONFIG)
    (folder / "cards.json").write_text(json.dumps(CARDS, ensure_ascii=False))
    with built_and_served(cardfeed_bin, folder) as url:
        yield url


@pytest.fixture()
def driver():
    made = make_driver()
    yield made
    made.quit()


def found(driver, url, words):
    """The results and status of a search for `words` in the box of the page at `url`, loaded
    afresh (the status of an earlier search would be taken for this one's)."""
    driver.get(url)
    search(driver, words)
    return results(driver), driver.find_element(By.ID, "site-search-status").get_attribute("textContent")


@pytest.mark.parametrize("start", ["de/index.html", "de/cards/card-de-2.html"])
def test_the_german_box_finds_the_german_cards_only(site, driver, start):
    assert found(driver, site + start, "Kaffeemühle") == ([("Title de-1", site + "de/cards/card-de-1.html")], "1 Karte")
    assert found(driver, site + start, "Espresso") == ([], "Keine Karte passt zu „Espresso“.")
    # German stemming, in the German index: the plural finds the singular.
    assert found(driver, site + start, "Kaffeemühlen")[0] == [("Title de-1", site + "de/cards/card-de-1.html")]


def test_the_english_box_finds_the_english_cards_only(site, driver):
    assert found(driver, site + "index.html", "Espresso") == ([("Title en-1", site + "cards/card-en-1.html")], "1 card")
    assert found(driver, site + "index.html", "Kaffeemühle") == ([], "No card matches “Kaffeemühle”.")


def test_the_arabic_box_finds_the_arabic_card_only_and_leads_to_its_page(site, driver):
    assert found(driver, site + "ar/index.html", "Espresso")[0] == []
    assert found(driver, site + "ar/index.html", "قهوة")[0] == [("Title ar-1", site + "ar/cards/card-ar-1.html")]
    driver.find_element(By.CSS_SELECTOR, ".site-search__link").click()
    WebDriverWait(driver, 10).until(lambda d: d.current_url == site + "ar/cards/card-ar-1.html")
    assert driver.find_element(By.ID, "card-ar-1").is_displayed()


def word(number):
    """A word of letters for a number (Pagefind cuts "code12" into two words): 12 is "qxbc"."""
    return "qx" + "".join(chr(ord("a") + int(digit)) for digit in str(number))


@pytest.fixture(scope="module")
def large_site(cardfeed_bin, tmp_path_factory):
    """More English cards than a part holds (parts of 8 here, CARDFEED_SEARCH_PART_SIZE), and one
    German card: an index in parts, the German card in the first."""
    folder = tmp_path_factory.mktemp("search-languages-parts") / "site"
    folder.mkdir()
    (folder / "cardfeed.yml").write_text(CONFIG)
    cards = [card(f"en-{n}", "en", f"Espresso {word(n)}") for n in range(10, 40)] + [card("de-1", "de", "Die Kaffeemühle")]
    (folder / "cards.json").write_text(json.dumps(cards, ensure_ascii=False))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CARDFEED_SEARCH_PART_SIZE", "8")
        with built_and_served(cardfeed_bin, folder) as url:
            yield url, folder / "public"


def test_a_language_with_one_card_among_thousands_keeps_the_index_in_parts(large_site, driver):
    """Its one card does not make the site one part (one Pagefind run over every page), and the
    German box merges no part without a German index, which would answer with English cards."""
    url, public = large_site
    parts = json.loads((public / "pagefind" / "cardfeed-parts.json").read_text())
    assert parts == {"parts": [f"part-{n}/" for n in range(2, 5)], "languages": {f"part-{n}/": ["en"] for n in range(2, 5)}}
    assert found(driver, url + "de/index.html", "Espresso") == ([], "Keine Karte passt zu „Espresso“.")
    assert found(driver, url + "de/index.html", "Kaffeemühle")[0] == [("Title de-1", url + "de/cards/card-de-1.html")]
    # The English box merges every part: each English card is found, whichever part it is in.
    for n in range(10, 40):
        assert found(driver, url + "index.html", word(n)) == ([(f"Title en-{n}", url + f"cards/card-en-{n}.html")], "1 card")
