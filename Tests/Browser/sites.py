"""The sites the layout, accessibility and screenshot tests look at: the example site, an empty
feed, a site from `cardfeed init`, examples/customised (docs/customising.md), examples/content-cards
(feeds of the site's own), examples/multilingual (a tree of pages per language), a site of awkward cards (long words and URLs, code blocks, portrait,
tiny and wide images, partly styled cards), the awkward cards in a grid of up to three columns,
and a right-to-left (Arabic) site."""
import json
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
NOW = "1795000000"


def png(width, height, top=(79, 70, 229), bottom=(245, 158, 11)):
    """A vertical gradient, so that cropping and scaling show."""
    rows = []
    for y in range(height):
        t = y / max(height - 1, 1)
        pixel = bytes(round(a + (b - a) * t) for a, b in zip(top, bottom))
        rows.append(b"\x00" + pixel * width)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))


LONG_WORD = "Donaudampfschifffahrtsgesellschaftskapitänswitwenrentenversicherungsanstalt"
LONG_URL = "https://brewline.example/campaigns/2026/autumn/this-is-a-very-long-path-without-any-break-opportunity-at-all?utm_source=cardfeed&utm_medium=feed&utm_campaign=autumn-roast-2026"

STRESS_CARDS = [
    {"id": "portrait", "type": "captioned_image", "created": 1794990000, "viewed": False, "categories": ["news"],
     "image": "images/portrait.png", "title": "A portrait photo (aspect ratio 0.44)",
     "description": "Cropped to three quarters of the window, around its centre.", "url": "https://brewline.example/p"},
    {"id": "tiny", "type": "captioned_image", "created": 1794980000, "viewed": False, "categories": ["news", "social"],
     "image": "images/tiny.png", "title": "A 48 px image", "description": "Shown at its own size, not blown up."},
    {"id": "wide", "type": "banner_image", "created": 1794970000, "categories": ["advertising"],
     "image": "images/wide.png", "url": "https://brewline.example/wide", "domain": "brewline.example"},
    {"id": "long-words", "type": "captioned_image", "created": 1794960000, "viewed": False,
     "categories": ["news", "advertising", "announcements", "social"],
     "image": "images/vector.svg", "title": LONG_WORD + LONG_WORD,
     "description": f"A long word: {LONG_WORD}{LONG_WORD}. A long URL: {LONG_URL}\n\n"
                    f"Inline code: `{LONG_WORD}.{LONG_WORD}()`\n\n"
                    "```\nlet veryLongLineOfCode = [\"" + "x" * 60 + "\", \"" + "y" * 60 + "\"].joined(separator: \", \")\n```\n\n"
                    f"[{LONG_URL}]({LONG_URL})",
     "url": LONG_URL, "domain": "a-very-long-domain-name-for-a-link-text.brewline.example"},
    {"id": "classic-long", "type": "short_news", "created": 1794950000, "viewed": False, "categories": ["announcements"],
     "image": "images/tiny.png", "title": LONG_WORD, "description": LONG_URL, "url": LONG_URL},
    {"id": "app-long", "type": "cross_promotion_small", "created": 1794940000, "viewed": False, "categories": ["advertising"],
     "title": "Brewline Timer Professional Edition " + LONG_WORD, "subtitle": "Utilities", "caption": "Recommended for you",
     "image": "images/tiny.png", "price": 1234.5, "rating": 4.5, "reviews": 12345, "url": "https://apps.example/timer"},
    {"id": "only-background", "type": "text_announcement", "created": 1794930000, "viewed": False, "categories": ["social"],
     "title": "Only a background colour", "description": "The text is chosen for contrast. [A link](https://brewline.example/x) and `code`.",
     "url": "https://brewline.example/bg", "extras": {"background_color": "#1e3a8a"}},
    {"id": "only-light-background", "type": "text_announcement", "created": 1794925000, "categories": ["social"],
     "title": "Only a light background", "description": "Readable in the dark scheme too.",
     "url": "https://brewline.example/bg2", "extras": {"background_color": "#fde68a"}},
    {"id": "only-text", "type": "text_announcement", "created": 1794920000, "categories": ["social"],
     "title": "Only a text colour", "description": "The background is chosen for contrast.",
     "url": "https://brewline.example/text", "extras": {"text_color": "#7c2d12"}},
    {"id": "only-accent", "type": "cross_promotion_small", "created": 1794910000, "categories": ["advertising"],
     "title": "Only an accent", "subtitle": "Games", "caption": "New", "image": "images/tiny.png", "price": 0, "rating": 3,
     "reviews": 7, "url": "https://apps.example/game", "extras": {"accent_color": "#fde047"}},
    {"id": "arabic-in-english", "tp": "text_announcement", "ca": 1794905000, "v": False, "language": "ar",
     "tt": "عرض خاص لعشاق القهوة", "ds": "خصم ٢٠٪ على كل الحبوب هذا الأسبوع.", "u": "https://brewline.example/ar", "dm": "brewline.example"},
    {"id": "gif", "type": "captioned_image", "created": 1794900000, "image": "images/anim.gif", "title": "A GIF",
     "description": "Its size comes from the file."},
]

# An Arabic site (`locale: ar`: `<html dir="rtl">`, the layout mirrored), with a Hebrew card, an
# English one among them (it reads left to right) and archive pages, so that pagination shows:
# two cards a page on average, so that ar-pinned, en-card and ar-plain end pages (the front page
# shows ar-pinned, ar-classic and he-text; page-en-card.html links newer, older and latest).
RTL_CARDS = [
    {"id": "ar-pinned", "tp": "captioned_image", "ca": 1794990000, "v": False, "p": True, "db": True,
     "i": "images/captioned-coffee.png", "image_alt": "فنجان قهوة", "tt": "وصلت تحميصة الخريف",
     "ds": "نكهات **التين** و*الكاكاو*، بسعر ٢٥ ريالاً فقط.", "u": "https://brewline.example/autumn", "dm": "brewline.example"},
    {"id": "ar-classic", "tp": "short_news", "ca": 1794980000, "v": False, "i": "images/classic-badge.png",
     "tt": "شارة جديدة", "ds": "حصلت على شارة «محبّ القهوة». شاركها مع أصدقائك!", "u": "https://brewline.example/badge"},
    {"id": "he-text", "tp": "text_announcement", "ca": 1794970000, "language": "he", "v": False,
     "tt": "שעות פתיחה בחג", "ds": "ביום שישי נפתח ב־10:00 ונסגור ב־14:00.\nחג שמח!", "u": "https://brewline.example/hours", "dm": "לפרטים"},
    {"id": "en-card", "tp": "text_announcement", "ca": 1794960000, "language": "en",
     "tt": "An English card", "ds": "It reads left to right, with its date and link where an English reader expects them.",
     "u": "https://brewline.example/en", "dm": "brewline.example"},
    {"id": "ar-banner", "tp": "banner_image", "ca": 1794950000, "i": "images/banner-summer-sale.png",
     "image_alt": "تخفيضات الصيف", "u": "https://brewline.example/sale"},
    {"id": "ar-plain", "tp": "text_announcement", "ca": 1794940000, "e": {"cardfeed_descriptions": "text"},
     "tt": "نص كما كُتب", "ds": "السطر الأول\n  السطر الثاني بمسافتين\n3*4*5", "u": "https://brewline.example/text", "dm": "المزيد"},
]

GIF_2x2 = bytes.fromhex("47494638396102000200800000ff0000ffffff21f90400000000002c00000000020002000002028451003b")

VECTOR = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1200 500">
<rect width="1200" height="500" fill="#0ea5e9"/><circle cx="600" cy="250" r="180" fill="#f8fafc"/></svg>
"""


def build(binary, site: Path, output: Path, *extra):
    result = subprocess.run([str(binary), "build", str(site), "--output", str(output), "--now", NOW, "-q", *extra],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return output


def make_sites(binary, root: Path):
    """Each site built into root/<name>/public; returns {name: output folder}."""
    sites = {}
    example = root / "example"
    shutil.copytree(REPO / "site", example, ignore=shutil.ignore_patterns("public"))
    sites["example"] = example

    empty = root / "empty"
    empty.mkdir()
    (empty / "cards.json").write_text("[]")
    (empty / "cardfeed.yml").write_text("title: Nothing yet\n")
    sites["empty"] = empty

    init = root / "init"
    result = subprocess.run([str(binary), "init", str(init)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    sites["init"] = init

    customised = root / "customised"
    shutil.copytree(REPO / "examples" / "customised", customised, ignore=shutil.ignore_patterns("public"))
    sites["customised"] = customised

    # Feeds of the site's own, one of them empty and left out of the navigation.
    content_cards = root / "content-cards"
    shutil.copytree(REPO / "examples" / "content-cards", content_cards, ignore=shutil.ignore_patterns("public"))
    sites["content-cards"] = content_cards

    stress = root / "stress"
    images = stress / "assets" / "images"
    images.mkdir(parents=True)
    (images / "portrait.png").write_bytes(png(440, 1000))
    (images / "tiny.png").write_bytes(png(48, 48, (16, 185, 129), (6, 95, 70)))
    (images / "wide.png").write_bytes(png(3000, 250, (236, 72, 153), (99, 102, 241)))
    (images / "vector.svg").write_text(VECTOR)
    (images / "anim.gif").write_bytes(GIF_2x2)
    (stress / "cards.json").write_text(json.dumps(STRESS_CARDS, indent=1))
    (stress / "cardfeed.yml").write_text("title: Awkward cards\nbase_url: https://awkward.example/\n")
    sites["stress"] = stress

    # The awkward cards again, up to three side by side (the theme's `columns`).
    grid = root / "grid"
    shutil.copytree(stress, grid)
    # Its page-width is the width of a card's own page (the columns widen the feeds' pages).
    (grid / "cardfeed.yml").write_text("title: Awkward cards in a grid\ntheme:\n  columns: 3\n  page-width: 60rem\n")
    sites["grid"] = grid

    rtl = root / "rtl"
    (rtl / "assets" / "images").mkdir(parents=True)
    for name in ("captioned-coffee.png", "classic-badge.png", "banner-summer-sale.png"):
        shutil.copy(REPO / "site" / "assets" / "images" / name, rtl / "assets" / "images" / name)
    (rtl / "cards.json").write_text(json.dumps({"cards": RTL_CARDS, "full_sync": True}, ensure_ascii=False, indent=1))
    (rtl / "cardfeed.yml").write_text("title: برولاين\nlocale: ar\npage_size: 2\n")
    sites["rtl"] = rtl

    # A site in English, German and Arabic (languages:), with translations linked.
    multilingual = root / "multilingual"
    shutil.copytree(REPO / "examples" / "multilingual", multilingual, ignore=shutil.ignore_patterns("public"))
    sites["multilingual"] = multilingual

    return {name: build(binary, site, site / "public") for name, site in sites.items()}


def pages(output: Path, every_card_page=True):
    """Every HTML page of a built site, as paths relative to its root; without
    `every_card_page`, of the cards' own pages only the first two (a site's card pages differ
    only in their cards, which its feed pages show too)."""
    found = sorted(str(p.relative_to(output)) for p in output.rglob("*.html"))
    card_pages = [page for page in found if page.startswith("cards/")]
    return [page for page in found if page not in card_pages[2:] or every_card_page]
