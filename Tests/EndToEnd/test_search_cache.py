"""Search from the build cache (issue 56): a card stays in its part of the index from build to
build, and a rebuild makes again only the parts whose cards changed; every other part's files
stay in the output as the last build made them (the same inodes), and the output is byte for
byte a build's without the cache. Parts of at most 8 cards (CARDFEED_SEARCH_PART_SIZE) give
these 32 cards four parts."""
import filecmp
import shutil
import re

import pytest

from conftest import write_cards

NOW = "1795000000"
PARTS = {"CARDFEED_SEARCH_PART_SIZE": "8"}


def cards(title_of_first="Oat flat white"):
    return [{"id": f"card-{i:02d}", "type": "short_news", "created": 1790000000 + i, "title": title_of_first if i == 0 else f"Roast number {i}",
             "description": f"Beans from farm {i}, roasted light.", "url": f"https://example.com/{i}"} for i in range(32)]


def build(run, site, output, *options):
    result = run("build", site, "--search", "--now", NOW, "--stats", "--output", output, *options, env=PARTS)
    assert result.returncode == 0, result.stderr
    return result.stdout


def index_line(stdout):
    return next(line for line in stdout.splitlines() if "Index for search:" in line)


def inodes(folder):
    return {str(p.relative_to(folder)): p.stat().st_ino for p in folder.rglob("*") if p.is_file()}


def same_tree(one, other):
    comparison = filecmp.dircmp(one, other)
    stack = [comparison]
    while stack:
        current = stack.pop()
        if current.left_only or current.right_only or current.diff_files or current.funny_files:
            return False
        _, mismatch, errors = filecmp.cmpfiles(current.left, current.right, current.common_files, shallow=False)
        if mismatch or errors:
            return False
        stack.extend(current.subdirs.values())
    return True


def test_a_rebuild_indexes_again_only_the_part_of_the_card_that_changed(run, tmp_path):
    site = write_cards(tmp_path / "s", cards())
    output = tmp_path / "out"
    first = index_line(build(run, site, output))
    assert re.search(r"32 card pages in \d+ files", first), first
    parts = len(__import__("json").loads((output / "pagefind" / "cardfeed-parts.json").read_text())["parts"]) + 1
    assert parts == 4

    again = index_line(build(run, site, output))
    assert f"0 of 32 card pages indexed again; {parts} of {parts} parts as the last build made them" in again, again

    before = inodes(output / "pagefind")
    write_cards(site, cards("Oat flat white, now with maple"))
    changed = index_line(build(run, site, output))
    match = re.search(r"(\d+) of 32 card pages indexed again; (\d+) of (\d+) parts as the last build made them", changed)
    assert match and int(match[1]) < 16 and (int(match[2]), int(match[3])) == (parts - 1, parts), changed
    after = inodes(output / "pagefind")
    kept = [path for path in after if before.get(path) == after[path]]
    assert len(kept) > len(after) / 2, f"{len(kept)} of {len(after)} files of the index kept"

    build(run, site, tmp_path / "cold", "--no-cache")
    assert same_tree(output, tmp_path / "cold")


@pytest.mark.parametrize("damage", ["removed", "edited"])
def test_a_part_whose_files_were_touched_is_made_again(run, tmp_path, damage):
    site = write_cards(tmp_path / "s", cards())
    output = tmp_path / "out"
    build(run, site, output)
    victim = next(p for p in sorted((output / "pagefind").rglob("*.pf_fragment")) if "part-" in str(p))
    if damage == "removed":
        victim.unlink()
    else:
        victim.write_bytes(b"not a fragment")
    again = index_line(build(run, site, output))
    if damage == "removed":
        # The cache keeps the parts too (SearchPartStore), as they were made: the part comes from there.
        assert "0 of 32 card pages indexed again; 4 of 4 parts" in again, again
    else:
        # Edited in place: the cache's file is the same file (a hard link), so it goes too.
        assert "0 of 32 card pages indexed again" not in again and "3 of 4 parts as the last build made them" in again, again
    build(run, site, tmp_path / "cold", "--no-cache")
    assert same_tree(output, tmp_path / "cold")


def test_a_new_output_takes_the_parts_from_a_restored_cache(run, tmp_path):
    """As in CI: the cache copied back (new inodes and times, as actions/cache restores it), the
    output made anew. The parts come from the cache but that of the card that changed."""
    site = write_cards(tmp_path / "s", cards())
    build(run, site, tmp_path / "first")
    shutil.copytree(site / ".cardfeed-cache", tmp_path / "restored", ignore=shutil.ignore_patterns("previous-output"))
    shutil.rmtree(site / ".cardfeed-cache")
    write_cards(site, cards("Oat flat white, now with maple"))
    line = index_line(build(run, site, tmp_path / "new", "--cache-dir", tmp_path / "restored"))
    match = re.search(r"(\d+) of 32 card pages indexed again; 3 of 4 parts as the last build made them", line)
    assert match and int(match[1]) < 16, line
    build(run, site, tmp_path / "cold", "--no-cache")
    assert same_tree(tmp_path / "new", tmp_path / "cold")


def test_a_part_damaged_in_the_cache_is_made_again(run, tmp_path):
    site = write_cards(tmp_path / "s", cards())
    build(run, site, tmp_path / "first")
    stored = site / ".cardfeed-cache" / "search-parts"
    victim = next(p for p in sorted(stored.rglob("*.pf_fragment")))
    victim.unlink()
    victim.write_bytes(b"not a fragment")  # a file of its own: the output's is untouched
    line = index_line(build(run, site, tmp_path / "new"))
    assert "3 of 4 parts as the last build made them" in line, line
    build(run, site, tmp_path / "cold", "--no-cache")
    assert same_tree(tmp_path / "new", tmp_path / "cold")
    # The store has the part again, as the build made it.
    assert "3 of 4 parts" not in index_line(build(run, site, tmp_path / "newer"))
