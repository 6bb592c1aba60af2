"""Pages stay pages (docs/cards.md, "Pages"): whatever the card ids, no page holds more than
twice `page_size` cards and pages average between half and one and a half times it; ids that
defeat pages cut where the cards say (chosen never to end a page, or always) are warned about."""
import json
import re

import pytest

PAGE_SIZE = 20
MASK = (1 << 64) - 1


def page_end_hash(card_id: str) -> int:
    """PageEnds.hash: 64-bit FNV-1a of the id's UTF-8, mixed by MurmurHash3's finaliser."""
    value = 0xcbf29ce484222325
    for byte in card_id.encode():
        value = ((value ^ byte) * 0x100000001b3) & MASK
    for multiplier in (0xff51afd7ed558ccd, 0xc4ceb9fe1a85ec53):
        value ^= value >> 33
        value = (value * multiplier) & MASK
    return value ^ (value >> 33)


def ids(count, keep):
    found, number = [], 0
    while len(found) < count:
        card_id = f"card-{number}"
        if keep(page_end_hash(card_id) % PAGE_SIZE == 0):
            found.append(card_id)
        number += 1
    return found


def build(run, tmp_path, card_ids):
    site = tmp_path / "site"
    site.mkdir()
    cards = [{"id": card_id, "type": "text_announcement", "created": 1_700_000_000 + n, "description": f"Card {n}"}
             for n, card_id in enumerate(card_ids)]
    (site / "cards.json").write_text(json.dumps(cards))
    result = run("build", site, "--now", "1800000000", "--page-size", PAGE_SIZE)
    assert result.returncode == 0, result.stderr
    sizes = {page.name: len(re.findall(r'<article class="card ', page.read_text()))
             for page in (site / "public").glob("*.html")}
    return result, sizes


def archive_sizes(sizes):
    return [count for name, count in sizes.items() if name.startswith("page-")]


@pytest.mark.parametrize("kind", ["never a page end", "always a page end"])
def test_ids_chosen_to_defeat_pagination_still_give_pages_of_a_page_size_with_a_warning(run, tmp_path, kind):
    card_ids = ids(6_000 if kind.startswith("never") else 1_500, lambda ends: ends == (kind == "always a page end"))
    result, sizes = build(run, tmp_path, card_ids)
    archive = archive_sizes(sizes)
    assert max(sizes.values()) <= 2 * PAGE_SIZE, sorted(sizes.values())[-5:]
    assert 0.5 * PAGE_SIZE <= sum(archive) / len(archive) <= 1.5 * PAGE_SIZE, sum(archive) / len(archive)
    assert sizes["index.html"] <= 2 * PAGE_SIZE
    assert "feed's card ids defeat pages cut where the cards say" in result.stderr, result.stderr
    assert f"its pages are cut every {PAGE_SIZE} cards from the oldest instead" in result.stderr


def test_ordinary_ids_give_pages_of_at_most_twice_the_page_size_without_a_warning(run, tmp_path):
    result, sizes = build(run, tmp_path, [f"card-{n}" for n in range(6_000)])
    archive = archive_sizes(sizes)
    assert max(sizes.values()) <= 2 * PAGE_SIZE, sorted(sizes.values())[-5:]
    assert 0.5 * PAGE_SIZE <= sum(archive) / len(archive) <= 1.5 * PAGE_SIZE
    assert "defeat" not in result.stderr, result.stderr


@pytest.mark.parametrize("count", [45, 48, 60])
def test_a_small_feed_of_ids_that_end_no_page_still_averages_at_most_one_and_a_half_page_sizes(run, tmp_path, count):
    # Too few cards for the statistics to tell chosen ids from chance (no warning), yet such a
    # feed made one archive page of 32 to 36 cards at 20 a page.
    card_ids = ids(40 + count, lambda ends: not ends)[40:]
    result, sizes = build(run, tmp_path, card_ids)
    archive = archive_sizes(sizes)
    assert max(sizes.values()) <= 2 * PAGE_SIZE, sizes
    assert archive and sum(archive) / len(archive) <= 1.5 * PAGE_SIZE, archive
