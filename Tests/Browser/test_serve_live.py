"""`cardfeed serve` brings every watched change to the open page without a reload and keeps the
reading position: stylesheets rewritten under the same name (custom.css, the theme, a card's
colour extras) and an image replaced under the same name, as well as card text."""
import json
import shutil

from selenium.webdriver.support.ui import WebDriverWait

from conftest import copy_example_site

WAIT = 20


def first_card(site):
    data = json.loads((site / "cards.json").read_text())
    return data, (data["feed"] if isinstance(data, dict) else data)


def style(driver, selector, prop):
    return driver.execute_script(
        "var e = document.querySelector(arguments[0]); return e ? getComputedStyle(e).getPropertyValue(arguments[1]).trim() : null",
        selector, prop)


def test_stylesheet_edits_reach_the_open_page_in_place(serve, driver, tmp_path):
    site = copy_example_site(tmp_path / "site")
    (site / "assets" / "custom.css").write_text(":root { --test-custom: first; }\n")
    (site / "cardfeed.yml").write_text((site / "cardfeed.yml").read_text() + "\ntheme:\n  accent: \"#112233\"\n")
    data, cards = first_card(site)
    card_id = cards[0]["id"]
    cards[0].setdefault("extras", {})["background_color"] = "#aabbcc"
    (site / "cards.json").write_text(json.dumps(data, indent=1))
    server, _ = serve(site)
    driver.get(server.url)
    card = f"[data-card-id='{card_id}']"
    assert style(driver, ":root", "--test-custom") == "first"
    assert style(driver, card, "background-color") == "rgb(170, 187, 204)"
    driver.execute_script("window.scrollTo(0, 300); window.__notReloaded = true")
    assert driver.execute_script("return window.scrollY") == 300

    (site / "assets" / "custom.css").write_text(":root { --test-custom: second; }\n")
    WebDriverWait(driver, WAIT).until(lambda d: style(d, ":root", "--test-custom") == "second")

    (site / "cardfeed.yml").write_text((site / "cardfeed.yml").read_text().replace("#112233", "#445566"))
    WebDriverWait(driver, WAIT).until(lambda d: style(d, ":root", "--cf-accent") == "#445566")

    cards[0]["extras"]["background_color"] = "#ccbbaa"
    (site / "cards.json").write_text(json.dumps(data, indent=1))
    WebDriverWait(driver, WAIT).until(lambda d: style(d, card, "background-color") == "rgb(204, 187, 170)")

    assert driver.execute_script("return window.__notReloaded === true"), "updated in place, not reloaded"
    assert driver.execute_script("return window.scrollY") == 300
    # One stylesheet each: the old links were removed once the new ones applied.
    hrefs = driver.execute_script("return Array.from(document.querySelectorAll('link[rel=stylesheet]')).map(function (l) { return l.getAttribute('href'); })")
    assert len(hrefs) == len(set(h.split("?")[0] for h in hrefs)), hrefs
    server.wait_for_output(r"^Changed cards\.json: rebuilt")


def test_an_image_replaced_under_the_same_name_reaches_the_open_page(serve, driver):
    server, site = serve()
    driver.get(server.url)
    image = "img[src$='captioned-concert.png'], img[data-cardfeed-src$='captioned-concert.png']"
    driver.execute_script("document.querySelector(arguments[0]).scrollIntoView()", image)
    height = lambda d: d.execute_script("var i = document.querySelector(arguments[0]); return i.complete ? i.naturalHeight : 0", image)
    WebDriverWait(driver, WAIT).until(lambda d: height(d) == 900)
    driver.execute_script("window.__notReloaded = true")
    y = driver.execute_script("return window.scrollY")
    shutil.copy(site / "assets" / "images" / "banner-summer-sale.png", site / "assets" / "images" / "captioned-concert.png")
    WebDriverWait(driver, WAIT).until(lambda d: height(d) == 300)
    assert driver.execute_script("return window.__notReloaded === true")
    assert driver.execute_script("return window.scrollY") == y


def test_preview_responses_are_never_cached(serve):
    import urllib.request
    server, _ = serve()
    for path in ["", "assets/cardfeed.css", "assets/images/captioned-concert.png", "_cardfeed/live.js"]:
        with urllib.request.urlopen(server.url + path, timeout=10) as response:
            assert response.headers["Cache-Control"] == "no-store", path
