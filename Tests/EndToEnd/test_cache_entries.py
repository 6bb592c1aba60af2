"""A card file's entries as the build cache keeps them (issue 56): a rebuild takes an entry
whose bytes did not change as it was decoded, with the messages about it, rather than reading
it again. It must say what a build without the cache says, in the same words at the same
place, and show the same cards; an entry that changed, or moved in its file, is read anew."""
import json
from datetime import datetime, timezone

from conftest import write_cards

NOW = "1800000000"


def entries(title_of_first="First"):
    return [
        {"id": "first", "type": "short_news", "created": 1_790_000_001, "title": title_of_first, "description": "d"},
        # Its link is spaces only: the decoder notes which key held it, and a check later says so.
        {"id": "blank", "type": "short_news", "created": 1_790_000_002, "title": "Blank", "url": "   ", "domain": "x.example"},
        # No words for its image: a warning from the decoder's checks.
        {"id": "banner", "type": "banner_image", "created": 1_790_000_003, "image": "https://cdn.example/b.png"},
        {"id": "gone", "type": "short_news", "created": 1_790_000_004, "title": "Gone", "removed": True},
        {"id": "odd", "type": "no_such_type", "created": 1_790_000_005},
    ]


def messages(result):
    return [line for line in result.stderr.splitlines() if line.startswith(("warning:", "error:"))]


def test_an_entry_taken_from_the_cache_says_what_reading_it_says(run, tmp_path):
    site = write_cards(tmp_path / "site", entries())
    first = run("build", site, "--now", NOW, "-o", tmp_path / "out")
    assert first.returncode == 0, first.stderr
    # One entry changes, and one more comes first, so that every other moves in the file.
    changed = [{"id": "new", "type": "short_news", "created": 1_790_000_000, "title": "New"}] + entries("First, changed")
    write_cards(site, changed)
    cached = run("build", site, "--now", NOW, "-o", tmp_path / "out")
    cold = run("build", site, "--now", NOW, "-o", tmp_path / "cold", "--no-cache")
    assert cached.returncode == cold.returncode == 0, cached.stderr + cold.stderr
    # The four entries whose bytes did not change were taken as the cache kept them.
    assert "Load cards: 6 entries from 1 file, 4 from the cache\n" in cached.stdout, cached.stdout
    assert messages(cached) == messages(cold) and len(messages(cold)) >= 3, f"{cached.stderr}\n---\n{cold.stderr}"
    assert any('card 3 (id "blank")' in line and 'field "url"' in line for line in messages(cached)), cached.stderr
    assert any('card 4 (id "banner")' in line for line in messages(cached)), cached.stderr
    cold_files = sorted(p.relative_to(tmp_path / "cold") for p in (tmp_path / "cold").rglob("*") if p.is_file())
    cached_files = sorted(p.relative_to(tmp_path / "out") for p in (tmp_path / "out").rglob("*") if p.is_file())
    assert cached_files == cold_files
    for path in cold_files:
        assert (tmp_path / "out" / path).read_bytes() == (tmp_path / "cold" / path).read_bytes(), path


def test_a_rest_object_that_counts_from_the_time_is_read_again_when_the_time_moves(run, tmp_path):
    """A REST `content_card` object with `time_to_live` and no date expires that long after the
    time its file is read at (`--now` here); any other entry is taken from the cache whatever the
    time."""
    rest = {"type": "CLASSIC", "title": "Counted from now", "description": "d", "time_to_live": 3600}
    plain = {"id": "plain", "type": "short_news", "created": 1_790_000_000, "title": "Plain", "description": "d"}
    site = write_cards(tmp_path / "site", [rest, plain])
    for build, now in enumerate(("1800000000", "1800001000", "1800004000")):
        cached = run("build", site, "--now", now, "-o", tmp_path / "out")
        cold = run("build", site, "--now", now, "-o", tmp_path / f"cold-{now}", "--no-cache")
        assert cached.returncode == cold.returncode == 0, cached.stderr + cold.stderr
        # The plain card is taken from the cache at any time; the REST object at its own alone.
        assert f"Load cards: 2 entries from 1 file{', 1 from the cache' if build else ''}\n" in cached.stdout, cached.stdout
        assert messages(cached) == messages(cold), f"{cached.stderr}\n---\n{cold.stderr}"
        for path in (tmp_path / f"cold-{now}").rglob("*"):
            if path.is_file():
                other = tmp_path / "out" / path.relative_to(tmp_path / f"cold-{now}")
                assert other.read_bytes() == path.read_bytes(), f"--now {now}: {path.name}"
    # The card was sent at the time of the last build, not of the first, which the cache saw.
    last = (tmp_path / "out" / "index.html").read_text()
    sent = datetime.fromtimestamp(1800004000, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert "Counted from now" in last and f'datetime="{sent}"' in last
