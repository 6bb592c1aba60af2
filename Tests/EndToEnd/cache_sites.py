"""Small sites to build from the build cache and without it (issue 56), the edits a site owner
makes to them, and the comparison of two outputs, byte for byte: shared by
test_cache_sequences.py and test_cache_robustness.py."""
import difflib
import importlib.util
import json
import os
import random
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

NOW = 1_800_000_000
DAY = 86_400
CARD_TYPES = ["banner_image", "captioned_image", "cross_promotion_small", "short_news", "text_announcement"]
CARD_FILES = ["cards.json", "cards/more.json"]


def _card_generator():
    """bench/gen_cards.py, the generator of the bench's cards, as a module."""
    spec = importlib.util.spec_from_file_location("gen_cards", REPO / "bench" / "gen_cards.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


gen_cards = _card_generator()


# The interface the cache has on the command line. Until `build --help` lists an option, a test
# passes it not (a build without the engine is a full build, which these tests compare all the
# same); once it does, the same tests check the cache.

@dataclass(frozen=True)
class CacheInterface:
    cache_dir: bool
    no_cache: bool

    @staticmethod
    def of(binary: Path) -> "CacheInterface":
        text = subprocess.run([str(binary), "build", "--help"], capture_output=True, text=True, timeout=60).stdout
        return CacheInterface(cache_dir="--cache-dir" in text, no_cache="--no-cache" in text)

    def cached(self, cache: Path | None) -> list[str]:
        """Options of a build from the cache: `cache` or, for None, the default SITE/.cardfeed-cache."""
        return ["--cache-dir", str(cache)] if cache is not None and self.cache_dir else []

    def cold(self) -> list[str]:
        return ["--no-cache"] if self.no_cache else []


def engine_kept_something(cache: Path) -> bool:
    """Whether a build left anything in `cache` besides its tag: the engine is there."""
    return cache.is_dir() and any(p.name != "CACHEDIR.TAG" for p in cache.iterdir())


def notes(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("note:")]


def without_notes(stderr: str) -> str:
    return "\n".join(line for line in stderr.splitlines() if not line.startswith("note:"))


# Comparing outputs.

def tree(folder: Path) -> dict[str, tuple]:
    """Every entry below `folder`: a file's bytes, a folder, a link's target."""
    entries = {}
    for root, folders, files in os.walk(folder):
        for name in folders + files:
            path = Path(root) / name
            relative = str(path.relative_to(folder))
            if path.is_symlink():
                entries[relative] = ("link", os.readlink(path))
            elif path.is_dir():
                entries[relative] = ("folder",)
            else:
                entries[relative] = ("file", path.read_bytes())
    return entries


def differences(cached: Path, cold: Path) -> str:
    """What `diff -r cached cold` would say, shortly; empty when the two are byte-identical."""
    a, b = tree(cached), tree(cold)
    lines = [f"only in the build from the cache: {p}" for p in sorted(a.keys() - b.keys())]
    lines += [f"only in the build without it: {p}" for p in sorted(b.keys() - a.keys())]
    changed = sorted(p for p in a.keys() & b.keys() if a[p] != b[p])
    lines += [f"differs: {p}" for p in changed]
    if not lines:
        return ""
    shown = lines[:12] + ([f"... and {len(lines) - 12} more"] if len(lines) > 12 else [])
    for path in changed[:1]:
        if a[path][0] == b[path][0] == "file":
            diff = difflib.unified_diff(a[path][1].decode(errors="replace").splitlines(),
                                        b[path][1].decode(errors="replace").splitlines(),
                                        f"cached/{path}", f"cold/{path}", lineterm="", n=1)
            shown += list(diff)[:24]
    return "\n".join(shown)


# The sites.

VARIANTS = ["card pages", "no card pages", "languages", "placements"]
PLACEMENTS = {"hero": {"feed": "all", "limit": 1}, "latest": {"feed": "news", "limit": 3}}
LANGUAGES = ["en", "de", "ar"]


@dataclass
class Site:
    """A site held as values (its cards, settings and other files) and written to `root`, a file
    only when its bytes change, as an editor saves."""
    root: Path
    rng: random.Random
    cards: dict[str, list] = field(default_factory=dict)
    config: dict = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)
    now: int = NOW
    serial: int = 0
    # The card file the last edit changed in place, keeping its size and modification time.
    keep_time_of: str | None = None

    @staticmethod
    def make(root: Path, rng: random.Random, variant: str, count: int) -> "Site":
        site = Site(root=root, rng=rng)
        site.config = {"title": "Cache test", "base_url": "https://cache.example/", "page_size": 5}
        if variant == "no card pages":
            site.config["card_pages"] = False
        if variant == "languages":
            site.config["languages"] = list(LANGUAGES)
        if variant == "placements":
            site.config["placements"] = json.loads(json.dumps(PLACEMENTS))
        cards = [site.new_card() for _ in range(count)]
        # A few that expired before the first build, and some the sequence's --now passes.
        for card in rng.sample(cards, k=3):
            card["expires_at"] = NOW - rng.randint(1, 30) * DAY
        site.cards = {CARD_FILES[0]: cards[: count * 2 // 3], CARD_FILES[1]: cards[count * 2 // 3:]}
        return site

    def new_card(self) -> dict:
        card = gen_cards.make_card(self.rng, [t for t, _ in gen_cards.TYPES], [w for _, w in gen_cards.TYPES])
        if self.rng.random() < 0.35:
            card["expires_at"] = NOW + self.rng.randint(1, 120) * DAY
        if self.rng.random() < 0.75:
            card["language"] = self.rng.choice(LANGUAGES)
        return card

    def all_cards(self) -> list[dict]:
        return [card for cards in self.cards.values() for card in cards]

    def next_serial(self) -> int:
        self.serial += 1
        return self.serial

    def contents(self) -> dict[str, bytes]:
        out = {"cardfeed.yml": "".join(f"{key}: {json.dumps(value)}\n" for key, value in self.config.items()).encode()}
        out[CARD_FILES[0]] = json.dumps(self.cards[CARD_FILES[0]], indent=1).encode()
        out[CARD_FILES[1]] = json.dumps({"feed": self.cards[CARD_FILES[1]]}, indent=1).encode()
        out.update({path: text.encode() for path, text in self.files.items()})
        return out

    def write(self):
        """Writes what changed and removes the files the site no longer has."""
        wanted = self.contents()
        for path, data in wanted.items():
            target = self.root / path
            if not target.is_file() or target.read_bytes() != data:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
        for folder in ["templates", "assets", "static", "strings"]:
            for path in sorted((self.root / folder).rglob("*"), reverse=True) if (self.root / folder).exists() else []:
                relative = str(path.relative_to(self.root))
                if path.is_file() and relative not in wanted:
                    path.unlink()
                elif path.is_dir() and not any(path.iterdir()):
                    path.rmdir()

    def build_args(self) -> list[str]:
        return ["--now", str(self.now), "--quiet"]

    @property
    def searches(self) -> bool:
        return bool(self.config.get("search"))


# The edits. Each changes the site's values (not yet its files) and says what it did.

def _pick_card(site: Site) -> tuple[str, int, dict] | None:
    places = [(path, index) for path, cards in site.cards.items() for index in range(len(cards))]
    if not places:
        return None
    path, index = site.rng.choice(places)
    return path, index, site.cards[path][index]


def card_added(site: Site) -> str:
    card = site.new_card()
    path = site.rng.choice(CARD_FILES)
    site.cards[path].insert(site.rng.randint(0, len(site.cards[path])), card)
    return f"card {card['id']} added to {path}"


def card_changed(site: Site) -> str:
    picked = _pick_card(site)
    if picked is None:
        return card_added(site)
    path, _, card = picked
    n = site.next_serial()
    fields = ["image", "category", "extras"] + [f for f in ["title", "description"] if f in card]
    what = site.rng.choice(fields)
    if what == "title":
        card["title"] = f"{card['title']} (edit {n})"
    elif what == "description":
        card["description"] = f"{card['description']}\n\nEdited **{n}** times."
    elif what == "image":
        if card["type"] == "text_announcement" or site.rng.random() < 0.8:
            card["image"] = f"https://cdn.example.com/edited/{n}.jpg"
        else:
            card.pop("image", None)  # a Classic card without image is a text announcement
    elif what == "category":
        card["categories"] = gen_cards.categories(site.rng)
    else:
        card["extras"] = {**card.get("extras", {}), "edit": str(n)}
    return f"card {card['id']} in {path}: {what} changed"


def card_removed(site: Site) -> str:
    picked = _pick_card(site)
    if picked is None:
        return card_added(site)
    path, index, card = picked
    del site.cards[path][index]
    return f"card {card['id']} removed from {path}"


def card_expired(site: Site) -> str:
    """--now moves to the next time a shown card expires (it expires at or before --now)."""
    coming = [card for card in site.all_cards() if card.get("expires_at", -1) > site.now]
    if not coming:
        picked = _pick_card(site)
        if picked is None:
            return card_added(site)
        coming = [picked[2]]
        picked[2]["expires_at"] = site.now + DAY
    card = min(coming, key=lambda c: c["expires_at"])
    site.now = card["expires_at"]
    return f"--now {site.now}: card {card['id']} expired"


def card_changed_keeping_size_and_time(site: Site) -> str:
    """A card's title changes by one letter: its file keeps its size, and (written below) its
    modification time, as `tar -x`, `cp -p`, rsync or a SOURCE_DATE_EPOCH build leave a file."""
    titled = [(p, c) for p, cards in site.cards.items() for c in cards if c.get("title", "")[:1].isalpha()]
    if not titled:
        return card_changed(site)
    path, card = site.rng.choice(titled)
    first = card["title"][0]
    card["title"] = ("Q" if first != "Q" else "Z") + card["title"][1:]
    site.keep_time_of = path
    return f"card {card['id']} in {path}: title's first letter changed, same size and modification time"


def _templated(site: Site, path: str, builtin: str, anchor: str, what: str) -> str:
    """Overrides a built-in template with an attribute added at its first `anchor`, changes
    that attribute, or removes the override (the built-in is back)."""
    n = site.next_serial()
    if path in site.files and site.rng.random() < 0.3:
        del site.files[path]
        return f"{what}: override removed"
    text = (REPO / "templates" / builtin).read_text()
    assert anchor in text, f"{builtin} has no {anchor!r} any more: update cache_sites.py"
    site.files[path] = text.replace(anchor, f'data-edit="{n}" {anchor}', 1)
    return f"{what}: {path} edited"


def card_template_edited(site: Site) -> str:
    name = site.rng.choice(CARD_TYPES + ["card"])
    builtin = "card.mustache" if name == "card" else f"cards/{name}.mustache"
    return _templated(site, f"templates/{builtin}", builtin, 'class="', f"template {builtin}")


def page_template_edited(site: Site) -> str:
    return _templated(site, "templates/page.mustache", "page.mustache", 'class="feed"', "page template")


def stylesheet_changed(site: Site) -> str:
    n = site.next_serial()
    if site.rng.random() < 0.5:
        if "assets/custom.css" in site.files and site.rng.random() < 0.3:
            del site.files["assets/custom.css"]
            return "assets/custom.css removed"
        site.files["assets/custom.css"] = f".card {{ outline: {n % 7}px solid #{n * 2654435761 % 0xffffff:06x}; }}\n"
        return "assets/custom.css written"
    if "theme" in site.config and site.rng.random() < 0.3:
        del site.config["theme"]
        return "theme removed"
    site.config["theme"] = {"accent": f"#{n * 40503 % 0xffffff:06x}", "radius": f"{n % 9}px"}
    return "theme changed"


FEEDS = [{"slug": "all"}, {"slug": "news"}, {"slug": "deals", "title": "Deals", "category": "advertising"}]


def setting_changed(site: Site) -> str:
    what = site.rng.choice(["page_size", "title", "feeds", "card_pages"])
    if what == "page_size":
        site.config["page_size"] = site.rng.choice([s for s in [0, 3, 5, 8, 20] if s != site.config.get("page_size")])
        return f"page_size: {site.config['page_size']}"
    if what == "title":
        site.config["title"] = f"Cache test {site.next_serial()}"
        return "title changed"
    if what == "feeds":
        if "feeds" in site.config:
            del site.config["feeds"]
            return "feeds: the built-in ones"
        site.config["feeds"] = FEEDS
        return "feeds: all, news, deals"
    if site.searches:  # search needs the card pages
        site.config["page_size"] = 4 if site.config.get("page_size") != 4 else 6
        return f"page_size: {site.config['page_size']}"
    site.config["card_pages"] = not site.config.get("card_pages", True)
    return f"card_pages: {site.config['card_pages']}"


def static_file_changed(site: Site) -> str:
    n = site.next_serial()
    present = sorted(p for p in site.files if p.startswith("static/"))
    if present and site.rng.random() < 0.3:
        path = site.rng.choice(present)
        del site.files[path]
        return f"{path} removed"
    path = site.rng.choice(["static/robots.txt", f"static/files/note-{n}.txt"] + present)
    site.files[path] = f"edit {n}\n"
    return f"{path} written"


def languages_changed(site: Site) -> str:
    if site.rng.random() < 0.5:
        if "languages" in site.config:
            del site.config["languages"]
            return "languages: off"
        site.config["languages"] = list(LANGUAGES)
        return "languages: on"
    path = site.rng.choice(["strings/en.json", "strings/de.json"])
    if path in site.files and site.rng.random() < 0.3:
        del site.files[path]
        return f"{path} removed"
    n = site.next_serial()
    site.files[path] = json.dumps({"madeWith": f"Built with {{generator}}, edit {n}", "older": f"Older ({n})"})
    return f"{path} written"


def placements_changed(site: Site) -> str:
    if "placements" in site.config and site.rng.random() < 0.5:
        del site.config["placements"]
        return "placements: off"
    placements = json.loads(json.dumps(PLACEMENTS))
    placements["latest"]["limit"] = site.rng.randint(1, 6)
    site.config["placements"] = placements
    return f"placements: on, latest {placements['latest']['limit']}"


def search_changed(site: Site) -> str:
    if site.searches:
        del site.config["search"]
        return "search: off"
    site.config["card_pages"] = True
    site.config["search"] = True
    return "search: on"


# Each edit with its weight in a sequence: cards change most.
EDITS = [
    (card_added, 10), (card_changed, 14), (card_removed, 8), (card_expired, 8),
    (card_changed_keeping_size_and_time, 3),
    (card_template_edited, 6), (page_template_edited, 4), (stylesheet_changed, 5),
    (setting_changed, 6), (static_file_changed, 4), (languages_changed, 4),
    (placements_changed, 4), (search_changed, 2),
]


def apply_edit(site: Site, edit) -> str:
    """Applies one edit and writes the site; for an edit that keeps a file's size and time,
    puts the file's previous times back."""
    site.keep_time_of = None
    description = edit(site)
    path = site.keep_time_of
    if path is not None:
        before = os.stat(site.root / path)
        size = before.st_size
    site.write()
    if path is not None:
        after = os.stat(site.root / path)
        assert after.st_size == size, f"{path} changed size: {size} -> {after.st_size}"
        os.utime(site.root / path, ns=(before.st_atime_ns, before.st_mtime_ns))
    return description
