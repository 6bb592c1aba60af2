"""embed/cardfeed-embed.css stays inside its placements (docs/embedding.md, "What the
stylesheet protects"), in headless Chromium: a site whose own stylesheet attacks the host page
(rules that name a card's class only inside :not(), :is(), :where() or :has(), under @media,
@supports, @container and @layer, nested rules, html, body, :root and *), and a host page whose
own elements (its .card among them) must have, with the placement's stylesheet linked, every
computed style they have without it. What cannot be held inside a placement is left out with a
warning at its file:line:col."""
import re
import subprocess

import pytest

from conftest import NOW, REPO, StaticServer, copy_example_site, make_driver

BUILTIN_CSS = REPO / "assets" / "cardfeed.css"

ATTACK = """
:not(.card) { color: rgb(255, 0, 0) !important; outline: 3px solid red; }
:is(.card, .card__title) ~ *, :is(.card) + p { background: red; }
:where(.card__title), :where(.card) p { text-transform: uppercase; }
:has(.card) { border: 9px solid red; }
body:has(.card) h1 { display: none; }
html { font-size: 40px; background: red; }
body { margin: 100px; font-family: fantasy; }
:root { letter-spacing: 1em; }
* { text-decoration: line-through; }
li:nth-child(odd of .card, li) { color: red; }
@media (min-width: 1px) { :not(.card__title) { font-style: italic; } p { margin: 99px; } }
@media (prefers-color-scheme: dark) { :not(.card) { background: red; } }
@supports (display: grid) { .card ~ *, li { list-style: upper-roman; } }
@container (min-width: 1px) { :not(.card) { padding: 7px; } }
@layer attack { :not(.card) { word-spacing: 20px; } h1 { color: red; } }
.card { :not(&) { font-weight: 900; } & ~ * { opacity: .3; } @media (min-width: 1px) { :has(&) { float: left; } } }
:host, .card__title { text-shadow: 0 0 2px red; }
"""
# Where each rule that cannot be held is, counted in the site's cardfeed.css (the built-in
# stylesheet, then ATTACK).
UNSCOPABLE = ":host, .card__title"

HOST_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Host</title>
{link}
<style>.card { border: 2px solid green; padding: 4px; } h1 { color: navy; } </style>
</head><body>
<header><p>The host's own header</p></header>
<main>
<h1>The host's own page</h1>
<article class="card"><h2 class="card__title">The host's own .card</h2><p>Its text.</p></article>
<ul><li>one</li><li class="card">two</li><li>three</li></ul>
<p><a href="#x">A link of the host's</a> <em>and</em> <code>code</code></p>
{fragment}
<p id="after">After the cards.</p>
<section><h2>A section</h2><p>More.</p></section>
</main>
<footer><p>The host's footer</p></footer>
</body></html>
"""

HOST_STYLES = """
const properties = ['color', 'background-color', 'font-family', 'font-size', 'font-weight', 'font-style', 'line-height',
  'letter-spacing', 'word-spacing', 'text-transform', 'text-decoration-line', 'text-shadow', 'display', 'float', 'opacity',
  'outline-style', 'list-style-type', 'margin-top', 'margin-left', 'padding-top', 'padding-left', 'border-top-width',
  'border-top-color', 'box-sizing', 'animation-name'];
return [document.documentElement, ...document.querySelectorAll('*')]
  .filter(e => !e.closest('.cardfeed-placement') && !['HEAD', 'META', 'TITLE', 'LINK', 'STYLE', 'SCRIPT'].includes(e.tagName))
  .map(e => { const s = getComputedStyle(e); return [e.tagName.toLowerCase() + (e.className ? '.' + e.className : ''),
    Object.fromEntries(properties.map(p => [p, s.getPropertyValue(p)]))]; });
"""


@pytest.fixture(scope="module")
def attacked(cardfeed_bin, tmp_path_factory):
    root = tmp_path_factory.mktemp("embed-scope")
    site = copy_example_site(root / "site")
    (site / "cardfeed.yml").write_text((site / "cardfeed.yml").read_text() + "placements:\n  home-hero: {feed: all, limit: 2}\n")
    (site / "assets").mkdir(exist_ok=True)
    (site / "assets" / "cardfeed.css").write_text(BUILTIN_CSS.read_text() + ATTACK)
    out = root / "out"
    result = subprocess.run([str(cardfeed_bin), "build", str(site), "--now", NOW, "-o", str(out)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    fragment = (out / "embed" / "home-hero.html").read_text()
    for name, link in (("with", '<link rel="stylesheet" href="embed/cardfeed-embed.css">'), ("without", "")):
        (out / f"host-{name}.html").write_text(HOST_PAGE.replace("{link}", link).replace("{fragment}", fragment))
    server = StaticServer(out)
    yield {"url": server.url, "stderr": result.stderr, "site": site}
    server.close()


def test_what_cannot_be_held_inside_a_placement_is_a_warning_at_its_place(attacked):
    lines = (attacked["site"] / "assets" / "cardfeed.css").read_text().splitlines()
    line = next(number for number, text in enumerate(lines, 1) if text.startswith(UNSCOPABLE))
    place = f"{attacked['site'] / 'assets' / 'cardfeed.css'}:{line}:1"
    warnings = [w for w in attacked["stderr"].splitlines() if "placements' stylesheet" in w]
    assert len(warnings) == 1, attacked["stderr"]
    assert warnings[0].startswith("warning: ") and place.split("/site/", 1)[1] in warnings[0] and "the selector :host" in warnings[0], warnings


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_the_site_stylesheets_attack_does_not_reach_the_host_page(attacked, dark):
    driver = make_driver(dark=dark)
    try:
        driver.get(attacked["url"] + "host-without.html")
        expected = driver.execute_script(HOST_STYLES)
        driver.get(attacked["url"] + "host-with.html")
        found = driver.execute_script(HOST_STYLES)
        assert len(found) == len(expected) > 15
        changed = [(tag, name, want[name], got[name]) for (tag, want), (_, got) in zip(expected, found) for name in want if want[name] != got[name]]
        assert changed == []
        # The placement does get the site's rules, held inside it.
        title = driver.execute_script("return getComputedStyle(document.querySelector('.cardfeed-card__title')).textTransform")
        assert title == "uppercase"
        assert driver.execute_script("return getComputedStyle(document.querySelector('.cardfeed-card__description')).color") == "rgb(255, 0, 0)"
    finally:
        driver.quit()


def test_the_old_attack_is_what_this_test_would_see(attacked):
    """The same page with the attack's rules as they were copied before (unscoped): the host's
    elements change, so the comparison above can fail."""
    css = "\n".join(re.sub(r"\.card", ".cardfeed-card", line) for line in ATTACK.splitlines() if not line.startswith(("@layer", ".card {", ":host")))
    driver = make_driver()
    try:
        driver.get(attacked["url"] + "host-without.html")
        expected = driver.execute_script(HOST_STYLES)
        driver.execute_script("const s = document.createElement('style'); s.textContent = arguments[0]; document.head.append(s);", css)
        found = driver.execute_script(HOST_STYLES)
        assert any(want != got for (_, want), (_, got) in zip(expected, found))
    finally:
        driver.quit()
