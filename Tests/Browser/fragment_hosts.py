"""What the tests of a placement's fragment in other sites' pages share: a site with a placement
of every kind of card (a Markdown description of every element included), host pages around
its fragment (no stylesheet, Bootstrap 5, MkDocs Material's stylesheet, an aggressive element
stylesheet of the host's own, an Arabic page), and the computed styles of every element of the
placement, which must be the same in each as on the page without a stylesheet."""
import glob
import json
import shutil
import subprocess
from pathlib import Path

from conftest import NOW, copy_example_site

PLACEMENTS = "placements:\n  every-card: {feed: all, limit: 20}\n"

# A card whose description has each element cmark makes, so that each is looked at.
MARKDOWN_CARD = {
    "id": "markdown-everything", "type": "captioned_image", "created": 1794999500, "viewed": False,
    "categories": ["news"], "image": "assets/images/captioned-coffee.png", "aspect_ratio": 1.33,
    "title": "Every element of a description", "url": "https://brewline.example/markdown", "domain": "brewline.example",
    "description": "A paragraph with **strong**, *emphasis*, `code` and [a link](https://brewline.example/l).\n\n"
                   "- a list item\n- another\n\n1. first\n2. second\n\n> A quotation.\n\n"
                   "```\npre formatted\n```\n\n![A picture](assets/images/app-icon-notes.png)\n\n### A heading\n\nLast words.",
}

# Every property the issue names, and some more a host's rules commonly change.
PROPERTIES = [
    "color", "background-color", "background-image", "font-family", "font-size", "font-weight", "font-style",
    "line-height", "letter-spacing", "word-spacing", "text-transform", "text-align", "text-indent", "text-shadow",
    "text-decoration-line", "text-decoration-color", "text-decoration-style", "display", "visibility", "opacity",
    "position", "float", "vertical-align", "box-sizing", "box-shadow", "list-style-type", "list-style-position",
    "list-style-image", "direction", "white-space",
    *[f"margin-{side}" for side in ("top", "right", "bottom", "left")],
    *[f"padding-{side}" for side in ("top", "right", "bottom", "left")],
    *[f"border-{side}-{what}" for side in ("top", "right", "bottom", "left") for what in ("width", "style", "color")],
    *[f"border-{corner}-radius" for corner in ("top-left", "top-right", "bottom-left", "bottom-right")],
]

STYLES = """
const properties = arguments[0];
const root = document.querySelector('.cardfeed-placement');
const elements = [root, ...root.querySelectorAll('*')];
const pick = (style) => Object.fromEntries(properties.map(p => [p, style.getPropertyValue(p)]));
return elements.map((element, index) => {
  const style = getComputedStyle(element);
  const entry = {index, tag: element.tagName.toLowerCase(), cls: element.className || '', styles: pick(style),
    before: getComputedStyle(element, '::before').content, after: getComputedStyle(element, '::after').content};
  if (element.tagName === 'IMG') { entry.styles.width = style.width; entry.styles.height = style.height; }
  if (element.tagName === 'LI') { const marker = getComputedStyle(element, '::marker'); entry.marker = [marker.color, marker.fontSize, marker.content]; }
  return entry;
});
"""

AGGRESSIVE_CSS = """
html { font-size: 62.5%; }
body { font: italic 1.9rem/3 Georgia, serif; color: #333; background: #fffbe6; text-transform: uppercase;
  letter-spacing: .2em; word-spacing: .5em; text-align: center; text-indent: 2em; text-shadow: 1px 1px 0 #f0f; }
* { box-sizing: content-box; }
h1, h2, h3, h4, h5, h6 { color: crimson; margin: 2em 1em; border-bottom: 4px double crimson; font: 900 3rem/1 Impact, fantasy;
  text-transform: lowercase; padding: 1em; background: #fee; }
p { color: #063; margin: 3em; border: 2px dashed #063; font-family: "Comic Sans MS", cursive; line-height: .8; padding: 1em; }
a { color: hotpink !important; text-decoration: overline wavy; font-weight: 100; border: 1px solid; padding: 5px; }
a::after { content: " (link)"; }
ul, ol { list-style: square inside; margin: 4em; padding: 0 3em; border: 3px solid teal; background: #eff; }
li { color: teal; margin: 1em; border-left: 8px solid teal; line-height: 4; text-transform: capitalize; }
li::marker { color: red; font-size: 3em; }
img { border: 6px solid orange; border-radius: 50%; width: 50px !important; height: 50px; padding: 10px; float: right; opacity: .5; }
time { color: white; background: black; font-size: 2em; display: block; margin: 1em; }
button { color: yellow; background: purple; border: 5px outset purple; font-size: 2rem; border-radius: 0; padding: 1em; }
footer { background: #333; color: #333; margin: 2em; padding: 2em; border-top: 5px solid black; display: block; }
article { border: 10px solid navy; margin: 3em; padding: 3em; background: lightyellow; border-radius: 0; display: block; }
section, header { border: 3px dotted red; margin: 2em; padding: 2em; font-size: 20px; }
div { margin: 1em; padding: 1em; border: 1px solid gray; direction: rtl; }
span { color: orange; font-weight: bold; text-transform: uppercase; }
strong, em, code, pre, blockquote { color: red; font-family: monospace; background: yellow; margin: 2em; }
p::first-letter { font-size: 3em; float: left; }
.host-content h2, main > div p { color: blue !important; font-size: 40px !important; }
"""

HOST_BODY = """<main class="host-content">
<h1>The host's own page</h1>
<p id="host-text">The host's own paragraph, in its own styles.</p>
<div id="slot" style="width: {width}px">
{fragment}
</div>
</main>"""


def page(title, fragment, head="", body_wrap=("", ""), lang="en", direction="ltr", width=280):
    body = HOST_BODY.replace("{fragment}", fragment).replace("{width}", str(width))
    return (f'<!DOCTYPE html>\n<html lang="{lang}" dir="{direction}">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>{title}</title>\n{head}'
            f'<link rel="stylesheet" href="embed/cardfeed-embed.css">\n</head>\n<body>\n{body_wrap[0]}{body}{body_wrap[1]}\n</body>\n</html>\n')


def material_stylesheets():
    """MkDocs Material's own stylesheets, from the PyPI package (scripts/setup.sh)."""
    import material
    folder = Path(material.__file__).parent / "templates" / "assets" / "stylesheets"
    return [Path(p) for p in sorted(glob.glob(str(folder / "main.*.min.css")) + glob.glob(str(folder / "palette.*.min.css")))]


BOOTSTRAP = Path("/usr/share/javascript/bootstrap5/css/bootstrap.css")


def host_pages(out: Path, fragment: str, width: int):
    """The host pages, written into the built site's output (so that its images load); their names."""
    pages = {"plain": page("No stylesheet", fragment, width=width)}
    if BOOTSTRAP.exists():
        shutil.copy(BOOTSTRAP, out / "bootstrap.css")
        pages["bootstrap"] = page("Bootstrap", fragment, '<link rel="stylesheet" href="bootstrap.css">\n',
                                  ('<div class="container"><div class="row"><div class="col">', "</div></div></div>"), width=width)
    sheets = material_stylesheets()
    if sheets:
        links = ""
        for sheet in sheets:
            shutil.copy(sheet, out / sheet.name)
            links += f'<link rel="stylesheet" href="{sheet.name}">\n'
        pages["material"] = page("MkDocs Material", fragment, links,
                                 ('<div class="md-container"><div class="md-content" data-md-component="content"><article class="md-content__inner md-typeset">',
                                  "</article></div></div>"), width=width).replace("<body>", '<body dir="ltr" data-md-color-scheme="default" data-md-color-primary="indigo">')
    (out / "aggressive.css").write_text(AGGRESSIVE_CSS)
    pages["aggressive"] = page("Aggressive", fragment, '<link rel="stylesheet" href="aggressive.css">\n', width=width)
    pages["arabic"] = page("عربي", fragment, '<link rel="stylesheet" href="aggressive.css">\n', lang="ar", direction="rtl", width=width)
    pages["arabic-plain"] = page("عربي", fragment, lang="ar", direction="rtl", width=width)
    for name, text in pages.items():
        (out / f"host-{name}-{width}.html").write_text(text)
    return list(pages)


def build_site(cardfeed_bin, root: Path, base_url: str, extra_cards=(MARKDOWN_CARD,)):
    """The example site with a placement of all its cards, built into root/out, whose address
    will be `base_url` (the fragment's addresses are made of it)."""
    site = copy_example_site(root / "site")
    (site / "cardfeed.yml").write_text((site / "cardfeed.yml").read_text() + PLACEMENTS)
    (site / "cards" / "zz-markdown.json").write_text(json.dumps(list(extra_cards)))
    out = root / "out"
    result = subprocess.run([str(cardfeed_bin), "build", str(site), "--now", NOW, "-q", "-o", str(out), "--base-url", base_url],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return site, out


def wait_for_images(driver):
    """Every image loaded (and decoded), fonts too: the styles of a loaded image are compared.
    Lazy images below the window would never load: they are made eager first."""
    driver.set_script_timeout(30)
    driver.execute_async_script("""const done = arguments[arguments.length - 1];
      document.querySelectorAll('img[loading=lazy]').forEach(i => i.loading = 'eager');
      Promise.all([...document.images].map(i => i.decode().catch(() => null)).concat([document.fonts.ready])).then(() => done());""")


# The dismiss button that the component (embed/cardfeed-embed.js) gives a dismissible card, made
# as it makes it: the fragment has no script, but a host that adds one meets its own `button` rules.
DISMISS_BUTTONS = """
for (const card of document.querySelectorAll('.cardfeed-placement [data-dismissible]')) {
  if (card.querySelector('.cardfeed-card__dismiss')) continue;
  const button = document.createElement('button');
  button.type = 'button'; button.className = 'cardfeed-card__dismiss'; button.title = 'Dismiss';
  button.setAttribute('aria-label', 'Dismiss'); button.textContent = '\u00d7';
  card.classList.add('cardfeed-card--has-dismiss'); card.appendChild(button);
}
"""


def placement_styles(driver):
    """Every element's styles once the page has stopped laying itself out: two readings a couple
    of frames apart that agree. A busy machine (CI runs two browsers at once) once read a card
    footer's auto margin in the middle of a layout, 16 px off what the same page gives a moment
    later; a host's rule that really reaches a card gives the same wrong value every time."""
    wait_for_images(driver)
    driver.execute_script(DISMISS_BUTTONS)
    styles = driver.execute_script(STYLES, PROPERTIES)
    for _ in range(10):
        driver.execute_async_script(AFTER_TWO_FRAMES)
        again = driver.execute_script(STYLES, PROPERTIES)
        if again == styles:
            return styles
        styles = again
    raise AssertionError(f"the placement's styles on {driver.current_url} never settled in 10 readings two frames apart")


AFTER_TWO_FRAMES = """const done = arguments[arguments.length - 1];
requestAnimationFrame(() => requestAnimationFrame(() => done()));"""


def differences(expected, found, limit=12):
    """Where `found`'s styles are not `expected`'s, element by element, at most `limit`."""
    problems = []
    if len(expected) != len(found):
        return [f"{len(found)} elements, not {len(expected)}"]
    for want, got in zip(expected, found):
        where = f"<{want['tag']} class={want['cls']!r}> (element {want['index']})"
        for key in ("before", "after", "marker"):
            if want.get(key) != got.get(key):
                problems.append(f"{where} {key}: {got.get(key)!r}, not {want.get(key)!r}")
        for name, value in want["styles"].items():
            if got["styles"].get(name) != value:
                problems.append(f"{where} {name}: {got['styles'].get(name)!r}, not {value!r}")
    return problems[:limit]
