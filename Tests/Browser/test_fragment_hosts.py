"""A placement's HTML fragment with embed/cardfeed-embed.css looks the same in any host page
(docs/embedding.md, "What the stylesheet protects"): every element of every card has the same
computed styles (colours, backgrounds, fonts, line heights, margins, padding, borders, radii,
display, text decoration, list style, its ::before, ::after and ::marker, an image's width and
height) on a page linking Bootstrap 5, on one linking MkDocs Material's stylesheet (whose root
font size is 125%), on one with an aggressive element stylesheet of its own (`h2 { color:
crimson }`, `footer { background: #333 }`, `html { font-size: 62.5% }`, `!important` and rules
of higher specificity among them), and on an Arabic page read right to left, as on a page with
no stylesheet at all; light and dark, at 320 and 1280 px. Screenshots of the hostile pages go to
$CARDFEED_SCREENSHOTS/fragment-hosts/."""
import pytest

from conftest import SCREENSHOTS, StaticServer, make_driver, set_viewport
from fragment_hosts import build_site, differences, host_pages, placement_styles

# The viewport, and the width of the host's slot for the cards in it.
WIDTHS = {320: 280, 1280: 640}


@pytest.fixture(scope="module")
def hosts(cardfeed_bin, tmp_path_factory):
    root = tmp_path_factory.mktemp("fragment-hosts")
    (root / "out").mkdir()
    server = StaticServer(root / "out")
    _, out = build_site(cardfeed_bin, root, server.url)
    fragment = (out / "embed" / "every-card.html").read_text()
    names = {}
    for viewport, slot in WIDTHS.items():
        names[viewport] = host_pages(out, fragment, slot)
    yield {"url": server.url, "names": names[320]}
    server.close()


def test_every_host_page_is_tested(hosts):
    """Bootstrap (Debian's libjs-bootstrap5) and MkDocs Material (PyPI) are what scripts/setup.sh installs."""
    assert set(hosts["names"]) == {"plain", "bootstrap", "material", "aggressive", "arabic", "arabic-plain"}


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
@pytest.mark.parametrize("viewport", list(WIDTHS))
def test_the_fragment_looks_the_same_in_every_host_page(hosts, dark, viewport):
    driver = make_driver(width=viewport, dark=dark)
    scheme = "dark" if dark else "light"
    try:
        set_viewport(driver, viewport, 900)
        driver.get(f"{hosts['url']}host-plain-{WIDTHS[viewport]}.html")
        expected = placement_styles(driver)
        assert len(expected) > 100, "every card's elements"
        assert driver.execute_script("return [...document.querySelectorAll('.cardfeed-placement img')].every(i => i.naturalWidth > 0)"), "every image loaded"
        kinds = {e["cls"] for e in expected}
        for part in ("cardfeed-card__title", "cardfeed-card__description", "cardfeed-card__image", "cardfeed-card__date",
                     "cardfeed-card__category cardfeed-card__category--news", "cardfeed-card__link", "cardfeed-card__pin",
                     "cardfeed-card__unread", "cardfeed-card__dismiss"):
            assert part in kinds, part
        assert {"p", "ul", "ol", "li", "blockquote", "pre", "code", "strong", "em", "a", "img", "h3"} <= {e["tag"] for e in expected}
        # The cards in CardFeed's own colours: the site's stylesheet holds on a page without one.
        surface = "rgb(21, 30, 47)" if dark else "rgb(255, 255, 255)"
        assert {e["styles"]["background-color"] for e in expected if e["cls"].startswith("cardfeed-card cardfeed-card--")} == {surface}
        found = {}
        for name in hosts["names"]:
            if name == "plain":
                continue
            driver.get(f"{hosts['url']}host-{name}-{WIDTHS[viewport]}.html")
            found[name] = differences(expected, placement_styles(driver))
            if name in ("aggressive", "arabic", "bootstrap", "material"):
                # The host's own elements keep the host's styles.
                if name in ("aggressive", "arabic"):
                    assert driver.execute_script("return getComputedStyle(document.querySelector('h1')).color") == "rgb(220, 20, 60)"
                    assert driver.execute_script("return getComputedStyle(document.getElementById('host-text')).textTransform") == "uppercase"
                SCREENSHOTS.joinpath("fragment-hosts").mkdir(parents=True, exist_ok=True)
                driver.save_screenshot(str(SCREENSHOTS / "fragment-hosts" / f"{name}-{viewport}-{scheme}.png"))
                driver.execute_script("document.querySelector('[data-card-id=markdown-everything]').scrollIntoView()")
                driver.save_screenshot(str(SCREENSHOTS / "fragment-hosts" / f"{name}-{viewport}-{scheme}-markdown.png"))
        assert {name: problems for name, problems in found.items() if problems} == {}
    finally:
        driver.quit()


def test_a_host_changes_what_the_docs_say_it_can(hosts):
    """The documented custom properties on .cardfeed-placement still win over CardFeed's."""
    driver = make_driver()
    try:
        driver.get(f"{hosts['url']}host-aggressive-640.html")
        driver.execute_script("""const s = document.createElement('style');
          s.textContent = '.cardfeed-placement { --cardfeed-link: #0b7285; --cardfeed-font: Georgia, serif; --cardfeed-font-size: 17px; }';
          document.head.append(s);""")
        link, font, size = driver.execute_script("""const l = document.querySelector('.cardfeed-card__link'), d = document.querySelector('.cardfeed-card__description');
          return [getComputedStyle(l).color, getComputedStyle(d).fontFamily, getComputedStyle(d).fontSize];""")
        assert (link, font, size) == ("rgb(11, 114, 133)", "Georgia, serif", "17px")
    finally:
        driver.quit()
