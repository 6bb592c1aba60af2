"""`cardfeed serve` as a user meets it: live reload, the error overlay and its recovery, and only
the built site's files served."""
import json
import re
import socket
import urllib.error
import urllib.request

from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ServeProcess, copy_example_site

WAIT = 20


def raw_get(port, target, method="GET"):
    """Sends one request with the target exactly as given (no client-side normalising)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(f"{method} {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while chunk := connection.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    return status, head.decode("latin-1"), body


def get(url):
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def edit_first_card_title(site, title):
    path = site / "cards.json"
    data = json.loads(path.read_text())
    cards = data["feed"] if isinstance(data, dict) else data
    cards[0]["title"] = title
    path.write_text(json.dumps(data, indent=1))
    return cards[0]["id"]


def card_title(driver, card_id):
    return driver.execute_script(
        "var t = document.querySelector(\"[data-card-id='\" + arguments[0] + \"'] .card__title\"); return t ? t.textContent : null", card_id)


def test_live_update_after_a_card_edit(serve, driver):
    server, site = serve()
    driver.get(server.url)
    assert driver.execute_script("return !!document.querySelector('script[src=\"/_cardfeed/live.js\"]')")
    WebDriverWait(driver, WAIT).until(lambda d: d.execute_script("return !!document.querySelector('link[href=\"/_cardfeed/live.css\"]')"))
    dismissible = driver.execute_script("return document.querySelectorAll('[data-dismissible] .card__dismiss').length")
    driver.execute_script("""window.__notReloaded = true; window.__displays = 0;
        document.addEventListener('cardfeed:feeddisplayed', function () { window.__displays++; });""")
    card_id = edit_first_card_title(site, "Edited while serving")
    WebDriverWait(driver, WAIT).until(lambda d: card_title(d, card_id) == "Edited while serving")
    # Updated in place, not reloaded; cardfeed.js showed the new content as a new page.
    assert driver.execute_script("return window.__notReloaded === true")
    WebDriverWait(driver, WAIT).until(lambda d: d.execute_script("return window.__displays") == 1)
    assert driver.execute_script("return document.querySelectorAll('[data-dismissible] .card__dismiss').length") == dismissible > 0
    server.wait_for_output(r"^Changed cards\.json: rebuilt in \d+\.\d+ s")
    # A second edit updates the page again (the page knows its new build).
    edit_first_card_title(site, "Edited twice")
    WebDriverWait(driver, WAIT).until(lambda d: card_title(d, card_id) == "Edited twice")
    assert driver.execute_script("return window.__notReloaded === true")


def test_template_edit_reloads_the_page(serve, driver):
    server, site = serve()
    driver.get(server.url)
    driver.execute_script("window.__notReloaded = true")
    (site / "templates").mkdir(exist_ok=True)
    (site / "templates" / "page.mustache").write_text(
        '{{<builtin.page}}{{$head}}<meta name="x-edited" content="yes">{{/head}}{{/builtin.page}}\n')
    WebDriverWait(driver, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, "meta[name='x-edited']"))


def test_build_errors_show_over_the_page_until_fixed(serve, driver):
    server, site = serve()
    driver.get(server.url)
    good_title = driver.find_element(By.CSS_SELECTOR, "h1.feed__title").text
    broken = site / "cards" / "broken.json"
    broken.write_text('[\n  {"id": "x",\n   "type": tru}\n]\n')
    text = WebDriverWait(driver, WAIT, ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda d: [overlay.text for overlay in d.find_elements(By.ID, "cardfeed-live-overlay")])[0]
    assert re.search(r"cards/broken\.json:3:\d+", text), text
    assert "invalid JSON" in text
    # The last good pages are still served, to this page and to new ones.
    status, _, body = get(server.url)
    assert status == 200 and b"feed__title" in body
    assert driver.find_element(By.CSS_SELECTOR, "h1.feed__title").text == good_title
    # A page opened now shows the errors too.
    driver.get(server.url + "news/")
    WebDriverWait(driver, WAIT).until(lambda d: d.find_elements(By.ID, "cardfeed-live-overlay"))
    # A template syntax error names the template, its line and column.
    (site / "templates" / "cards").mkdir(parents=True, exist_ok=True)
    broken.unlink()
    template = site / "templates" / "cards" / "text_announcement.mustache"
    template.write_text("{{<builtin.cards.text_announcement}}\n{{$footer}}{{#title}}x{{/titel}}{{/footer}}\n{{/builtin.cards.text_announcement}}\n")
    # Each rebuild with errors replaces the overlay, so the one found may be gone when read.
    WebDriverWait(driver, WAIT, ignored_exceptions=(NoSuchElementException, StaleElementReferenceException)).until(
        lambda d: re.search(r"text_announcement\.mustache:2:\d+", d.find_element(By.ID, "cardfeed-live-overlay").text))
    # Fixing it clears the overlay, and the page is updated in place.
    driver.execute_script("window.__notReloaded = true")
    template.unlink()
    WebDriverWait(driver, WAIT).until(lambda d: not d.find_elements(By.ID, "cardfeed-live-overlay"))
    server.wait_for_output(r"rebuilt in")
    assert driver.find_element(By.CSS_SELECTOR, "h1.feed__title").text == "News"
    assert driver.execute_script("return window.__notReloaded === true")


def test_only_files_of_the_built_site_are_served(serve):
    server, site = serve()
    port = server.port
    (site.parent / "secret.txt").write_text("not for the web")
    for target in ["/../../../../etc/passwd", "/..", "/%2e%2e/%2e%2e/etc/passwd", "/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
                   "/news/..%2f..%2f..%2fsecret.txt", "//etc/passwd", "/../secret.txt", "/..%5c..%5csecret.txt",
                   "/.cardfeed-output", "/_cardfeed/../../secret.txt", "http://127.0.0.1/../secret.txt", "/assets/%00"]:
        status, _, body = raw_get(port, target)
        # An absolute target names its own host, without this server's port: refused as such.
        assert status == (421 if target.startswith("http:") else 404), (target, status)
        assert b"root:" not in body and b"not for the web" not in body
    status, head, body = raw_get(port, "/")
    assert status == 200 and "Content-Type: text/html; charset=utf-8" in head
    assert b'<script src="/_cardfeed/live.js"' in body
    for path, content_type in {"/assets/cardfeed.css": "text/css; charset=utf-8", "/assets/cardfeed.js": "text/javascript; charset=utf-8",
                               "/_cardfeed/live.js": "text/javascript; charset=utf-8", "/news/index.html": "text/html; charset=utf-8"}.items():
        status, headers, _ = get(server.url.rstrip("/") + path)
        assert (status, headers["Content-Type"]) == (200, content_type), path
    status, head, _ = raw_get(port, "/news")
    assert status == 301 and "Location: /news/" in head
    status, _, _ = raw_get(port, "/", method="POST")
    assert status == 405
    # The built-in client script is served as built: serve adds its own script to HTML only.
    _, _, script = get(server.url + "assets/cardfeed.js")
    assert b"_cardfeed/live" not in script


def test_port_taken_is_a_clear_error_and_ctrl_c_stops_cleanly(serve, cardfeed_bin, tmp_path):
    server, site = serve()
    taken = __import__("subprocess").run(
        [str(cardfeed_bin), "serve", str(site), "--port", str(server.port)], capture_output=True, text=True, timeout=60)
    assert taken.returncode == 1
    assert f"port {server.port} on 127.0.0.1 is already in use" in taken.stderr
    # Said before building: a large site would otherwise be built in full first.
    assert "Load cards" not in taken.stdout + taken.stderr and "Built " not in taken.stdout + taken.stderr, taken.stdout
    work = re.search(r"Write (\S+/cardfeed-serve-[^/]+)/site", "".join(server.lines))
    assert server.stop() == 0
    assert "Stopped; the preview build was removed." in "".join(server.lines)
    assert work and not __import__("os").path.exists(work.group(1))
    assert not (site / "public").exists(), "serve never writes into the site"


def test_built_output_has_no_live_reload_script(cardfeed_bin, tmp_path):
    site = copy_example_site(tmp_path / "site")
    result = __import__("subprocess").run([str(cardfeed_bin), "build", str(site), "-q"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    for page in (site / "public").rglob("*.html"):
        text = page.read_text()
        assert "_cardfeed" not in text
        assert '<script src="assets/cardfeed.js" defer></script>' in text


def test_serve_screenshot_of_the_error_overlay(serve, driver):
    from conftest import SCREENSHOTS
    server, site = serve()
    driver.get(server.url)
    (site / "cards" / "broken.json").write_text('{"feed": [\n  {"id": "x", "type": "short_news",,}\n]}\n')
    WebDriverWait(driver, WAIT).until(lambda d: d.find_elements(By.ID, "cardfeed-live-overlay"))
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    assert driver.save_screenshot(str(SCREENSHOTS / "serve-error-overlay.png"))


def test_the_overlay_says_there_is_no_page_when_nothing_has_built(serve, driver, tmp_path):
    site = copy_example_site(tmp_path / "site")
    (site / "cards" / "broken.json").write_text('[{"id": "x",,}]\n')
    server, _ = serve(site)
    driver.get(server.url)
    note = WebDriverWait(driver, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".cardfeed-live__note"))[0].text
    assert "has not built yet" in note and "last good build" not in note, note
    # Once a build is good and another fails, the page does show the last good build.
    (site / "cards" / "broken.json").unlink()
    WebDriverWait(driver, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, "h1.feed__title"))
    (site / "cards" / "broken.json").write_text('[{"id": "x",,}]\n')
    WebDriverWait(driver, WAIT, ignored_exceptions=(NoSuchElementException, StaleElementReferenceException)).until(
        lambda d: "The page shows the last good build" in d.find_element(By.CSS_SELECTOR, ".cardfeed-live__note").text)
