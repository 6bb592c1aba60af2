"""The example site in Chromium, with the client script (assets/cardfeed.js) at work."""
import re
from collections import Counter

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import BROKEN_IMAGE_CARD, SCREENSHOTS, make_driver, set_viewport

WAIT = 10


def events(driver, name=None):
    recorded = driver.execute_script("return window.__cardfeedEvents || []")
    return [e for e in recorded if name is None or e["name"] == name]


def unread_ids(driver):
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('[data-card-id]')).filter(c => c.querySelector('.card__unread')).map(c => c.dataset.cardId)")


def in_view_ids(driver):
    """Cards at least half visible in the viewport now."""
    return driver.execute_script("""
      return Array.from(document.querySelectorAll('[data-card-id]')).filter(c => {
        if (c.hidden) return false;
        const r = c.getBoundingClientRect();
        const visible = Math.min(r.bottom, innerHeight) - Math.max(r.top, 0);
        return visible >= Math.min(r.height, innerHeight) / 2;
      }).map(c => c.dataset.cardId)""")


def test_navigation_between_feeds_and_pages(driver, example_site_url):
    driver.get(example_site_url)
    assert driver.find_element(By.CSS_SELECTOR, "h1.feed__title").text == "All"
    driver.find_element(By.CSS_SELECTOR, "nav.feed-nav a[href='news/index.html']").click()
    WebDriverWait(driver, WAIT).until(lambda d: d.current_url.endswith("/news/index.html"))
    assert driver.find_element(By.CSS_SELECTOR, "h1.feed__title").text == "News"
    assert driver.find_element(By.CSS_SELECTOR, "nav.feed-nav a[aria-current='page']").get_attribute("href").endswith("/news/index.html")
    # Back to all, then to older cards, newer ones again, and back to the front page.
    driver.find_element(By.CSS_SELECTOR, "nav.feed-nav a[href='index.html']").click()
    WebDriverWait(driver, WAIT).until(lambda d: d.find_element(By.CSS_SELECTOR, "h1.feed__title").text == "All")
    driver.find_element(By.CSS_SELECTOR, "nav.pagination a[rel='next']").click()
    WebDriverWait(driver, WAIT).until(lambda d: re.search(r"/page-[a-z0-9-]+\.html$", d.current_url))
    older = driver.current_url
    assert re.fullmatch(r"[A-Z][a-z]{2} \d+ – [A-Z][a-z]{2} \d+, 2026", driver.find_element(By.CSS_SELECTOR, "p.feed__dates").text), "the page's days"
    assert driver.find_element(By.CSS_SELECTOR, "link[rel='stylesheet']").get_attribute("href").endswith("/assets/cardfeed.css")
    assert driver.execute_script("return getComputedStyle(document.body).fontFamily") != "", "the stylesheet applies at depth"
    driver.find_element(By.CSS_SELECTOR, "nav.pagination a[rel='prev']").click()
    WebDriverWait(driver, WAIT).until(lambda d: d.current_url != older)
    driver.get(older)
    driver.find_element(By.CSS_SELECTOR, "nav.pagination a.pagination__latest").click()
    WebDriverWait(driver, WAIT).until(lambda d: d.current_url.endswith("/index.html"))
    assert [e for e in driver.get_log("browser") if e["level"] == "SEVERE" and "cardfeed.js" in e["message"]] == []


def test_unread_indicators_stay_for_the_visit_and_are_gone_on_the_next(driver, example_site_url):
    driver.get(example_site_url)
    initially_unread = set(unread_ids(driver))
    WebDriverWait(driver, WAIT).until(lambda d: len(events(d, "impression")) > 0)
    seen = {e["detail"]["id"] for e in events(driver, "impression")} & initially_unread
    assert seen, "the first screen has unread cards"
    WebDriverWait(driver, WAIT).until(lambda d: seen <= set(d.execute_script("return JSON.parse(localStorage.getItem('cardfeed:viewed')) || []")))
    # Seen, remembered, and still marked for this visit, as in the Braze feeds.
    driver.execute_script("return new Promise(r => setTimeout(r, 1500))")
    assert seen <= set(unread_ids(driver)), "the indicator stays while the reader is looking"
    assert all(driver.execute_script("return arguments[0].map(id => document.querySelector(`[data-card-id='${id}'] .card__unread`).getBoundingClientRect().width > 0)", list(seen)))
    # Scrolling the rest into view remembers them too.
    driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    WebDriverWait(driver, WAIT).until(lambda d: set(in_view_ids(d)) <= {e["detail"]["id"] for e in events(d, "impression")})
    stored = set(driver.execute_script("return JSON.parse(localStorage.getItem('cardfeed:viewed'))"))
    still_unseen = initially_unread - stored
    assert still_unseen, "cards never scrolled to stay unread"
    # Another page of the site knows which cards were seen here.
    driver.get(example_site_url + "news/index.html")
    assert not (set(unread_ids(driver)) & stored), "a card seen on one page is not unread on another"
    WebDriverWait(driver, WAIT).until(lambda d: set(in_view_ids(d)) <= {e["detail"]["id"] for e in events(d, "impression")})
    stored = set(driver.execute_script("return JSON.parse(localStorage.getItem('cardfeed:viewed'))"))
    # And the next visit of the first page shows them read at once; the unseen ones still unread.
    driver.get(example_site_url)
    assert not (set(unread_ids(driver)) & seen)
    assert initially_unread - stored <= set(unread_ids(driver))


def test_events_fire_once_with_id_and_type(driver, example_site_url):
    driver.get(example_site_url)
    WebDriverWait(driver, WAIT).until(lambda d: len(events(d, "impression")) > 0)
    # Scroll down and back up: every card seen once is one impression, however often it is seen.
    for y in [400, 1200, 2400, 0, 1200, 0]:
        driver.execute_script("window.scrollTo(0, arguments[0])", y)
        driver.execute_script("return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    WebDriverWait(driver, WAIT).until(lambda d: set(in_view_ids(d)) <= {e["detail"]["id"] for e in events(d, "impression")})
    impressions = events(driver, "impression")
    counts = Counter(e["detail"]["id"] for e in impressions)
    assert counts and max(counts.values()) == 1, counts
    types = driver.execute_script("return Object.fromEntries(Array.from(document.querySelectorAll('[data-card-id]')).map(c => [c.dataset.cardId, c.dataset.cardType]))")
    for event in impressions:
        assert event["detail"]["type"] == types[event["detail"]["id"]]
        assert event["target"] == event["detail"]["id"], "dispatched from the card, bubbling to document"
    displayed = events(driver, "feeddisplayed")
    assert displayed == [{"name": "feeddisplayed", "detail": {"feed": "all"}, "target": "document"}]

    link = driver.find_element(By.CSS_SELECTOR, "[data-card-id] a.card__link")
    card = link.find_element(By.XPATH, "ancestor::*[@data-card-id][1]")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
    link.click()
    clicks = events(driver, "click")
    assert clicks == [{"name": "click", "detail": {"id": card.get_attribute("data-card-id"), "type": card.get_attribute("data-card-type")},
                       "target": card.get_attribute("data-card-id")}]


def test_dismissed_card_is_remembered_after_reload(driver, example_site_url):
    driver.get(example_site_url)
    dismissible = driver.find_elements(By.CSS_SELECTOR, "[data-card-id][data-dismissible]")
    assert dismissible, "the example site has dismissible cards"
    not_dismissible = driver.find_elements(By.CSS_SELECTOR, "[data-card-id]:not([data-dismissible])")
    assert all(not c.find_elements(By.CSS_SELECTOR, ".card__dismiss") for c in not_dismissible)
    card = dismissible[0]
    card_id = card.get_attribute("data-card-id")
    button = card.find_element(By.CSS_SELECTOR, "button.card__dismiss")
    assert button.get_attribute("type") == "button"
    assert button.get_attribute("aria-label").startswith("Dismiss")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    assert not card.is_displayed()
    assert events(driver, "dismiss")[-1]["detail"]["id"] == card_id
    assert driver.switch_to.active_element.get_attribute("data-card-id") or driver.switch_to.active_element.tag_name == "h1", "focus stays in the feed"
    driver.refresh()
    again = driver.find_element(By.CSS_SELECTOR, f"[data-card-id='{card_id}']")
    assert not again.is_displayed(), "still dismissed after a reload"
    assert card_id in driver.execute_script("return JSON.parse(localStorage.getItem('cardfeed:dismissed'))")


def test_broken_image_is_replaced_by_the_placeholder(driver, example_site_url):
    driver.get(example_site_url + "news/index.html")
    selector = f"[data-card-id='{BROKEN_IMAGE_CARD['id']}'] img.card__image"
    image = driver.find_element(By.CSS_SELECTOR, selector)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", image)
    WebDriverWait(driver, WAIT).until(lambda d: d.find_element(By.CSS_SELECTOR, selector).get_attribute("src").endswith("/assets/images/appboy_cc_noimage_lrg.png"))
    image = driver.find_element(By.CSS_SELECTOR, selector)
    assert "card__image--placeholder" in image.get_attribute("class")
    assert not driver.execute_script("return arguments[0].hasAttribute('srcset')", image)
    # Whatever happens to the placeholder, the script does not try again and again.
    src = image.get_attribute("src")
    driver.execute_script("return new Promise(r => setTimeout(r, 300))")
    assert driver.find_element(By.CSS_SELECTOR, selector).get_attribute("src") == src


def test_pages_work_without_javascript(example_site_url):
    driver = make_driver()
    try:
        driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
        driver.get(example_site_url)
        assert driver.find_elements(By.CSS_SELECTOR, ".card__unread")
        assert not driver.find_elements(By.CSS_SELECTOR, ".card__dismiss")
        driver.find_element(By.CSS_SELECTOR, "nav.feed-nav a[href='social/index.html']").click()
        WebDriverWait(driver, WAIT).until(lambda d: d.find_element(By.CSS_SELECTOR, "h1.feed__title").text == "Social")
    finally:
        driver.quit()


def test_screenshots_phone_and_desktop_light_and_dark(example_site_url):
    """Pictures for a person to look at; written to $CARDFEED_SCREENSHOTS."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for dark in (False, True):
        driver = make_driver(dark=dark)
        try:
            for name, (width, height) in {"phone": (390, 844), "desktop": (1280, 900)}.items():
                set_viewport(driver, width, height)
                driver.get(example_site_url)
                WebDriverWait(driver, WAIT).until(lambda d: d.execute_script("return document.readyState") == "complete")
                assert driver.execute_script("return matchMedia('(prefers-color-scheme: dark)').matches") == dark
                path = SCREENSHOTS / f"example-{name}-{'dark' if dark else 'light'}.png"
                assert driver.save_screenshot(str(path))
                assert path.stat().st_size > 5000
                # A dismissible card, to see its button.
                driver.execute_script("document.querySelector('[data-dismissible]').scrollIntoView({block: 'start'}); window.scrollBy(0, -(document.querySelector('.site-header').offsetHeight + 16))")
                driver.execute_script("return new Promise(r => setTimeout(r, 500))")
                assert driver.save_screenshot(str(path.with_name(path.stem + "-dismissible.png")))
        finally:
            driver.quit()
