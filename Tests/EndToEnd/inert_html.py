"""Checks that HTML built from untrusted cards can do nothing in a visitor's browser, by parsing
it the way a browser tokenizes it (Python's html.parser) rather than by searching its text."""
import re
from html.parser import HTMLParser

# Elements the built-in templates, cmark's safe mode and the HTML allowed in descriptions write;
# anything else came from a card.
ELEMENTS = {
    "html", "head", "meta", "base", "title", "link", "script", "body", "header", "main", "footer", "nav",
    "div", "p", "a", "span", "ul", "ol", "li", "h1", "h2", "h3", "h4", "h5", "h6", "article", "img", "time",
    "strong", "em", "code", "pre", "blockquote", "hr", "br", "b", "i", "u",
}
ATTRIBUTES = {
    "class", "id", "href", "src", "srcset", "alt", "width", "height", "loading", "decoding", "title", "lang", "dir",
    "charset", "name", "content", "rel", "type", "target", "datetime", "defer", "start", "http-equiv", "property", "tabindex",
}
LINK_SCHEMES = {"http", "https", "mailto", "tel"}
IMAGE_SCHEMES = {"http", "https"}
# cmark's safe mode keeps these data: images in Markdown; an image cannot run script.
DATA_IMAGES = ("data:image/png", "data:image/gif", "data:image/jpeg", "data:image/webp")
OUR_SCRIPT = [("src", "assets/cardfeed.js"), ("defer", None)]


def browser_scheme(url: str):
    """The scheme a browser sees: tabs and newlines anywhere and C0 controls or spaces at
    either end are dropped before the URL is parsed."""
    cleaned = re.sub(r"[\t\n\r]", "", url).strip("".join(chr(c) for c in range(0x21)))
    match = re.match(r"([A-Za-z][A-Za-z0-9+.\-]*):", cleaned)
    return (match.group(1).lower(), cleaned.lower()) if match else (None, cleaned.lower())


class InertChecker(HTMLParser):
    """Collects every way a page could run code or load what it should not."""

    def __init__(self, extra_link_schemes=()):
        super().__init__(convert_charrefs=True)
        self.problems = []
        self.scripts = []
        self.open_script = False
        self.link_schemes = LINK_SCHEMES | set(extra_link_schemes)
        self.csp = []

    def handle_starttag(self, tag, attrs):
        self.check(tag, attrs)

    def handle_startendtag(self, tag, attrs):
        self.check(tag, attrs)

    def check(self, tag, attrs):
        where = f"<{tag} {attrs}>"[:200]
        if tag not in ELEMENTS:
            self.problems.append(f"element {tag}: {where}")
        if tag == "script":
            self.scripts.append(attrs)
            if attrs != OUR_SCRIPT:
                self.problems.append(f"a script that is not assets/cardfeed.js: {where}")
            self.open_script = True
        if tag == "meta" and any(name == "http-equiv" for name, _ in attrs):
            values = dict(attrs)
            if values["http-equiv"].lower() != "content-security-policy":
                self.problems.append(f"meta http-equiv: {where}")
            self.csp.append(values.get("content"))
        for name, value in attrs:
            if name.startswith("on") or name == "style" or not (name in ATTRIBUTES or name.startswith(("data-", "aria-"))):
                self.problems.append(f"attribute {name}: {where}")
                continue
            if value is None:
                continue
            if name == "href" and tag not in ("link", "base"):
                self.check_url(value, self.link_schemes, False, where)
            elif name == "src" and tag == "img":
                self.check_url(value, IMAGE_SCHEMES, True, where)
            elif name == "srcset":
                for candidate in value.split(","):
                    self.check_url(candidate.strip().split(" ")[0], IMAGE_SCHEMES, False, where)
            elif name == "target" and value != "_blank":
                self.problems.append(f"target {value}: {where}")
        if tag == "a" and "target" in dict(attrs) and "noopener" not in (dict(attrs).get("rel") or ""):
            self.problems.append(f"a new tab without rel=noopener: {where}")

    def check_url(self, url, schemes, data_images, where):
        scheme, cleaned = browser_scheme(url)
        if scheme is None or scheme in schemes:
            return
        if data_images and cleaned.startswith(DATA_IMAGES):
            return
        self.problems.append(f"URL with scheme {scheme}: {url[:80]!r} in {where}")

    def handle_data(self, data):
        if self.open_script and data.strip():
            self.problems.append(f"inline script text: {data[:80]!r}")

    def handle_endtag(self, tag):
        if tag == "script":
            self.open_script = False


def problems(html: str, extra_link_schemes=()):
    checker = InertChecker(extra_link_schemes)
    checker.feed(html)
    checker.close()
    return checker.problems
