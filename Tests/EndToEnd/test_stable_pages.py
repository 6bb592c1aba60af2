"""Pages that stay put (docs/cards.md, "Pages"), on 10,000 generated cards of 20 a page:
adding a card, expiring one and removing an old one each rewrite at most three pages of each
feed the card is in, unless the cuts of a long run moved (then only pages of the run the change
touched and its two neighbours), and no page of any other feed (a card's permalink is its own
page); and the build's summary says how many files changed."""
import json
import re
import shutil
import subprocess
import sys

import pytest

from conftest import REPO
from test_page_bounds import page_end_hash

CARDS = 10_000
NOW = 1_800_000_000
pytestmark = pytest.mark.slow  # 10,000 cards, built again for each change

SUMMARY = re.compile(r"^Wrote (\d+) files in [\d.]+ s \((\d+) changed, (\d+) unchanged\)( with \d+ warnings?)?\.$", re.M)


def build(cardfeed_bin, site, out):
    result = subprocess.run([str(cardfeed_bin), "build", str(site), "-o", str(out), "--now", str(NOW), "--base-url", "https://x.test/"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return result.stdout


def files(out):
    return {str(path.relative_to(out)): path.read_bytes() for path in out.rglob("*") if path.is_file()}


def feeds_of(card):
    """The folders of the feeds the card is in: "all" (the root) and its categories'."""
    categories = [c for c in card["categories"] if c != "no_category"]  # unknown: no category
    return {""} | (set(categories) or {"uncategorized"})


def folder(path):
    return path.rpartition("/")[0]


class Site:
    """The generated cards, all but two held back to be added, built once; each edit is built
    over a copy of that output."""

    def __init__(self, cardfeed_bin, root):
        self.bin, self.root = cardfeed_bin, root
        generated = root / "generated.json"
        subprocess.run([sys.executable, str(REPO / "bench" / "gen_cards.py"), str(CARDS), "42", str(generated)], check=True)
        self.cards = json.loads(generated.read_text())
        # Which ids end a page, as a build tells: each names an archive page of the "all" feed.
        first = root / "first"
        self.write(root / "site", self.cards)
        build(cardfeed_bin, root / "site", first)
        ending = {path.name.removeprefix("page-").removesuffix(".html") for path in first.glob("page-*.html")}
        self.ends = lambda card: card["id"] in ending
        shutil.rmtree(first)
        # Two cards held back, made the newest: one that ends a page, one that does not.
        newest = max(card["updated"] for card in self.cards)
        self.new = {}
        for ends in (False, True):
            card = next(card for card in self.cards if self.ends(card) == ends and "news" in card["categories"])
            self.cards.remove(card)
            self.new[ends] = {**card, "created": newest + 60 + ends, "updated": newest + 60 + ends}
        self.by_date = sorted(self.cards, key=lambda card: card["updated"])
        self.base = root / "base"
        self.write(root / "site", self.cards)
        build(cardfeed_bin, root / "site", self.base)
        self.before = files(self.base)

    @staticmethod
    def write(site, cards):
        site.mkdir(exist_ok=True)
        (site / "cards.json").write_text(json.dumps(cards))

    def rebuild(self, name, cards):
        """The site with `cards` built over a copy of the first output: the summary, and the
        paths of the files written (changed or new) and removed."""
        site, out = self.root / f"{name}-site", self.root / f"{name}-out"
        self.write(site, cards)
        shutil.copytree(self.base, out, symlinks=True)
        summary = build(self.bin, site, out)
        after = files(out)
        written = {path for path in after if self.before.get(path) != after[path]}
        removed = set(self.before) - set(after)
        return summary, written, removed, after


@pytest.fixture(scope="module")
def site(cardfeed_bin, tmp_path_factory):
    return Site(cardfeed_bin, tmp_path_factory.mktemp("stable"))


def run_touched(site, feed, card, change):
    """The ids of `feed`'s cards whose pages `change` of `card` may rewrite, oldest first: the
    run it is in (from after the page end before it, whose page links the run, to the page end
    at or after it), the next run too when the card is a page end that goes (its cards join the
    next newer page), and the card after them (whose page links the run's last)."""
    pool = site.cards + ([card] if change == "new" else [])
    ids = [c["id"] for c in sorted(pool, key=lambda c: c["updated"]) if feed in feeds_of(c)]
    ends = [i for i, card_id in enumerate(ids) if page_end_hash(card_id) % 20 == 0]
    at = ids.index(card["id"])
    start = max([e for e in ends if e < at], default=-1)
    after = [e for e in ends if e >= at]
    if change != "new" and after and after[0] == at:
        after = after[1:]
    end = after[0] if after else len(ids) - 1
    return ids[max(start, 0):end + 2]


def edit(site, change, ends):
    """The cards after `change` ("new", "expired", "removed"), and the card changed: a card
    that ends a page or one that does not, a new one the newest, an expired one of the middle
    of the feed, a removed one among the oldest."""
    cards = [dict(card) for card in site.cards]
    if change == "new":
        card = site.new[ends]
        return cards + [card], card
    pool = site.by_date[CARDS // 2:] if change == "expired" else site.by_date[:CARDS // 20]
    card = next(card for card in pool if site.ends(card) == ends)
    index = next(i for i, other in enumerate(cards) if other["id"] == card["id"])
    if change == "expired":
        cards[index]["expires_at"] = NOW - 1
    else:
        del cards[index]
    return cards, card


@pytest.mark.parametrize("ends", [False, True], ids=["ends no page", "ends a page"])
@pytest.mark.parametrize("change", ["new", "expired", "removed"])
def test_a_card_coming_or_going_rewrites_at_most_three_pages_of_its_feeds(site, change, ends, output_formats):
    feed_files = tuple(f["file"] for f in output_formats)
    cards, card = edit(site, change, ends)
    summary, written, removed, after = site.rebuild(f"{change}-{ends}", cards)
    pages = {path for path in written | removed if path.endswith(".html")}
    assert {path for path in written | removed if not path.endswith(".html")} <= {
        path for path in set(site.before) | set(after) if path.endswith(feed_files)}, "only pages, feeds and the site's files"
    for feed in {folder(path) for path in site.before if path.endswith("/index.html")} | {""}:
        changed = sorted(path for path in pages if folder(path) == feed)
        if feed in feeds_of(card):
            # Three pages at most, unless the cuts of a long run moved (docs/cards.md, "Pages"):
            # a page came or went besides the card's own. Either way, only the front page and
            # pages of the run the change touched, and of its neighbours, change.
            prefix = f"{feed}/" if feed else ""
            archive = [path for path in changed if path.startswith(prefix + "page-")]
            moved = any(path != f"{prefix}page-{card['id']}.html" and (path not in site.before or path not in after) for path in archive)
            assert len(changed) <= 3 or moved, f"{feed or 'all'}: {changed}"
            pages_of = {page: set(re.findall(r'data-card-id="([^"]*)"', (site.before.get(page) or after[page]).decode()))
                        for page in archive}
            touched = set(run_touched(site, feed, card, change))
            assert all(pages_of[page] & touched or page.removeprefix(prefix + "page-").removesuffix(".html") in touched
                       for page in archive), f"{feed or 'all'}: {changed}"
            assert changed, f"{feed or 'all'} shows the card"
            continue
        # Another feed does not change: a card's permalink is its own page, whose address stays.
        assert not changed, f"{feed or 'all'} does not show the card"
    # Card pages: the card's own, and where a page end moved, those of the cards of the page
    # that split or merged (each links the page that holds it), no other.
    own = f"cards/card-{card['id']}.html"
    card_pages = {path for path in pages if path.startswith("cards/")}
    assert own in card_pages
    if not ends:
        assert card_pages == {own}, card_pages
    # The summary says how many files changed: those written, new ones included.
    counts = SUMMARY.search(summary)
    assert counts, summary
    assert int(counts.group(2)) == len(written)
    assert int(counts.group(1)) == int(counts.group(2)) + int(counts.group(3)) == len(after) - 1  # but the marker
    if removed:
        assert f"Removed {len(removed)} file" in summary


def test_the_summary_of_a_rebuild_that_changes_nothing(site):
    summary, written, removed, _ = site.rebuild("same", site.cards)
    assert not written and not removed
    assert SUMMARY.search(summary).group(2) == "0", summary


def test_a_bookmarked_archive_page_shows_the_same_cards_after_a_new_one(site):
    _, _, _, after = site.rebuild("bookmark", site.cards + [site.new[False]])
    archive = [path for path in site.before if re.fullmatch(r"(news/)?page-[0-9a-f]+\.html", path)]
    assert len(archive) > CARDS // 20, "about a page in 20 cards, in all and in news"
    assert [path for path in archive if after.get(path) != site.before[path]] == []
