"""Broken input gets a clear message naming the file, never a crash or a hang: bad bytes, deep
nesting, huge files and fields, wrong types everywhere, empty files, folders, pipes and devices
where files should be, unreadable files, and symbolic links that loop or lead out of the site."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from conftest import default_signals, write_cards

NOW = "1795000000"
# Cards of the build that Ctrl-C stops: the render step draws its progress after its first batch
# of 4,096, with four batches still to render.
CTRL_C_CARDS = 20_000


def build(run, site, *extra):
    result = run("build", site, "--now", NOW, "-q", *extra)
    assert result.returncode in (0, 1), f"crashed with status {result.returncode}:\n{result.stderr[-3000:]}"
    assert "Fatal error" not in result.stderr and "Stack dump" not in result.stderr, result.stderr[-3000:]
    return result


def card(**fields):
    return {"id": "c1", "type": "text_announcement", "created": 1790000000, "description": "Hello", **fields}


def site_with(tmp_path, data: bytes, name="cards.json"):
    site = tmp_path / "site"
    (site / name).parent.mkdir(parents=True, exist_ok=True)
    (site / name).write_bytes(data)
    return site


@pytest.mark.parametrize("data, message", [
    (b'[{"id": "a", "type": "text_announcement", "description": "\xc3\x28"}]', ":1:59: invalid JSON: the text is not valid UTF-8"),
    (b'[\n  \xff\n]', ":2:3: invalid JSON: unexpected byte 0xFF"),
    (b'[{"id": "a\x00b"}]', ":1:11: invalid JSON: a control character (a NUL byte) inside text must be escaped"),
    (b'[{"id": "a"}\x00]', ":1:13: invalid JSON: expected \",\" or \"]\" after a list item"),
    (b"\x00\x00\x00", ":1:1: invalid JSON: unexpected a NUL byte"),
    (b"[" * 100_000, ":1:513: invalid JSON: nested more than 512 levels deep"),
    (b'{"feed": ' + b'{"a": ' * 600 + b"1" + b"}" * 601, ":1:3076: invalid JSON: nested more than 512 levels deep"),
    (b"", "the file is empty"),
    (b" \n\t\r\n", "the file is empty"),
    (b"\xef\xbb\xbf", ":1:2: invalid JSON: the file ends before the JSON value does"),
    (b"\xfe\xff\x00[\x00]", ":1:1: invalid JSON: unexpected byte 0xFE"),
    (b"null", ":1:1: expected a card, a list of cards or an envelope"),
    (b'{"cards": "none"}', ':1:2: field "cards": expected a list of cards, found text'),
])
def test_bad_bytes_are_an_error_naming_the_file_line_and_column(run, tmp_path, data, message):
    site = site_with(tmp_path, data)
    result = build(run, site)
    assert result.returncode == 1
    assert f"error: site/cards.json{message if message.startswith(':') else ': ' + message}" in result.stderr, result.stderr
    assert "nothing was written" in result.stderr
    assert not (site / "public").exists()


def test_a_byte_order_mark_is_accepted(run, tmp_path):
    site = site_with(tmp_path, b"\xef\xbb\xbf" + json.dumps([card()]).encode())
    result = build(run, site)
    assert result.returncode == 0, result.stderr
    assert "Hello" in (site / "public" / "index.html").read_text()


def test_wrong_types_in_every_field_are_warnings_naming_each_field(run, tmp_path):
    long_keys = {"id": "a", "type": "captioned_image", "viewed": "maybe", "created": "yesterday", "updated": {},
                 "expires_at": [1], "categories": {"news": True}, "extras": ["x"], "image": 42, "image_alt": {},
                 "title": ["t"], "description": {"md": "x"}, "url": 1, "domain": False, "aspect_ratio": "wide",
                 "use_webview": "sometimes", "pinned": [], "dismissed": {}, "dismissible": 2, "test": "x", "clicked": 3.5}
    short_keys = {"id": "b", "tp": "short_news", "v": "x", "ca": "x", "ea": "x", "e": 5, "i": [], "tt": {}, "ds": 9,
                  "u": [], "dm": {}, "ar": [], "uw": {}, "d": "x", "p": "x", "db": "x", "t": "x", "cl": "x", "r": "x"}
    cross = {"id": "c", "type": "cross_promotion_small", "created": 1, "title": "t", "subtitle": [], "caption": {},
             "rating": "five", "reviews": "many", "price": "cheap", "display_price": [1], "media_type": 7,
             "itunes_id": "abc", "universal": "perhaps", "image": "https://x.test/a.png", "url": "https://x.test"}
    nested = {"id": "d", "type": "text_announcement", "created": 1, "description": "ok",
              "extras": {"deep": {"a": [1, {"b": None}]}, "list": [1], "num": 1e308, "flag": True}}
    entries = [long_keys, short_keys, cross, nested, {"id": {"x": 1}, "type": "text_announcement"},
               {"id": 12345, "type": "text_announcement", "created": 1, "description": "numbered"},
               {"id": "e", "type": 7}, {"id": "f", "type": None}, 42, "text", None, [], True]
    site = write_cards(tmp_path / "site", entries)
    result = build(run, site)
    assert result.returncode == 0, result.stderr
    for entry, index in [(long_keys, 1), (short_keys, 2), (cross, 3)]:
        for key in entry:
            if key in ("id", "type", "tp", "title", "image", "url", "created") and entry is cross:
                continue
            if key in ("id", "type", "tp"):
                continue
            assert f'card {index} (id "{entry["id"]}"): field "{key}"' in result.stderr, key
    assert 'card 4 (id "d"): field "extras.deep": expected text, found an object; ignored' in result.stderr
    assert 'card 5: field "id": expected text, found an object; ignored' in result.stderr
    assert 'card 6: field "id": expected text, found a number; used as text' in result.stderr
    assert 'card 7 (id "e"): field "type": unknown type "7"' in result.stderr
    for index, noun in [(9, "a number"), (10, "text"), (11, "null"), (12, "a list"), (13, "a boolean")]:
        assert f"card {index}: expected a card object, found {noun}; skipped" in result.stderr
    page = (site / "public" / "index.html").read_text()
    assert 'data-card-id="12345"' in page and 'data-card-id="d"' in page


def test_a_card_over_braze_limit_is_a_warning_and_one_over_64_kb_is_skipped_quickly(run, tmp_path):
    description = "**Roast** notes and [a link](https://x.test/) " * 1_200
    big = card(id="big", description=description, title="x" * 2_000, extras={"k" * 2_000: "v" * 2_000})
    huge = card(id="huge", description="word *em* " * 1_000_000, title="x" * 100_000)
    site = write_cards(tmp_path / "site", [big, huge])
    start = time.monotonic()
    result = build(run, site, "--base-url", "https://x.test/")
    assert result.returncode == 0, result.stderr
    assert time.monotonic() - start < 30
    assert 'card 1 (id "big"): content is 61200 bytes, over Braze\'s 2 KB limit (2048 bytes); shown anyway' in result.stderr
    assert ('card 2 (id "huge"): holds 10100050 bytes of text, over the 64 KB a card may hold '
            "(Braze's own limit is 2 KB); skipped") in result.stderr
    page = (site / "public" / "index.html").read_text()
    assert page.count("<strong>Roast</strong>") == 1_200 and "<em>em</em>" not in page


def test_cmark_quadratic_input_cannot_hang_a_build(run, tmp_path):
    """CVE-2023-22486: Debian's libcmark 0.30.2 took 57 s on one description of "![[]()" repeated
    200,000 times. Over the card size limit it is skipped; at the limit one card costs well
    under a second."""
    site = write_cards(tmp_path / "site", [card(id="bomb", description="![[]()" * 200_000),
                                           card(id="small-bomb", description="![[]()" * 10_000)])
    start = time.monotonic()
    result = build(run, site)
    assert result.returncode == 0, result.stderr
    assert time.monotonic() - start < 10
    assert 'card 1 (id "bomb"): holds 1200045 bytes of text, over the 64 KB' in result.stderr
    assert 'data-card-id="small-bomb"' in (site / "public" / "index.html").read_text()


def test_a_folder_named_cards_json_and_folders_where_files_should_be(run, tmp_path):
    site = tmp_path / "site"
    (site / "cards.json").mkdir(parents=True)
    (site / "cardfeed.yml").mkdir()
    (site / "strings" / "en.json").mkdir(parents=True)
    (site / "cards" / "folder.json").mkdir(parents=True)  # a folder of cards that happens to end in .json
    (site / "cards" / "folder.json" / "a.json").write_text(json.dumps([card()]))
    result = build(run, site)
    assert result.returncode == 1
    assert "error: site/cards.json: is a folder, not a file" in result.stderr
    assert "error: site/cardfeed.yml: is a folder, not a file" in result.stderr
    assert "error: site/strings/en.json: is a folder, not a file" in result.stderr


def test_pipes_and_devices_are_refused_without_waiting(run, tmp_path):
    site = write_cards(tmp_path / "site", [card()])
    (site / "cards").mkdir()
    os.mkfifo(site / "cards" / "pipe.json")
    (site / "cards" / "zero.json").symlink_to("/dev/zero")
    (site / "assets").mkdir()
    os.mkfifo(site / "assets" / "pipe.png")
    start = time.monotonic()
    result = build(run, site)
    assert time.monotonic() - start < 30
    assert result.returncode == 0, result.stderr
    assert "warning: site/cards/pipe.json: is a named pipe (FIFO), not a file (reading it could wait forever); not read" in result.stderr
    assert "warning: site/cards/zero.json: is a device, not a file; not read" in result.stderr
    assert "warning: site/assets/pipe.png: is a named pipe (FIFO)" in result.stderr
    # The file itself named as the cards: an error, as fast.
    other = tmp_path / "other"
    other.mkdir()
    os.mkfifo(other / "cards.json")
    result = build(run, other)
    assert result.returncode == 1
    assert "error: other/cards.json: is a named pipe (FIFO), not a file" in result.stderr
    (other / "cards.json").unlink()
    (other / "cards.json").symlink_to("/dev/zero")
    result = build(run, other)
    assert result.returncode == 1 and "error: other/cards.json: is a device, not a file" in result.stderr


def test_symbolic_link_loops_and_links_out_of_the_site(run, tmp_path):
    (tmp_path / "secret.txt").write_text("not for the site")
    site = write_cards(tmp_path / "site", [card(type="captioned_image", title="t", image="images/alias.png")])
    cards, assets = site / "cards", site / "assets" / "images"
    cards.mkdir()
    assets.mkdir(parents=True)
    (cards / "loop").symlink_to("../cards")
    (cards / "self.json").symlink_to("self.json")
    (cards / "ping.json").symlink_to("pong.json")
    (cards / "pong.json").symlink_to("ping.json")
    (cards / "gone.json").symlink_to("nowhere.json")
    (assets / "up").symlink_to("../..")
    (assets / "secret.txt").symlink_to("../../../secret.txt")
    (assets / "real.png").write_bytes(b"\x89PNG fake")
    (assets / "alias.png").symlink_to("real.png")
    result = build(run, site, "--base-url", "https://x.test/")
    assert result.returncode == 0, result.stderr
    for line in [
        'warning: site/cards/loop: is a symbolic link to the folder "../cards"; links to folders are not followed',
        "warning: site/cards/self.json: is a symbolic link that leads round in a loop; not read",
        "warning: site/cards/ping.json: is a symbolic link that leads round in a loop; not read",
        'warning: site/cards/gone.json: is a symbolic link to "nowhere.json", which does not exist; not read',
        'warning: site/assets/images/up: is a symbolic link to "../..", outside assets/; links out of the site\'s folders are not followed (copy the folder in instead)',
        'warning: site/assets/images/secret.txt: is a symbolic link to "../../../secret.txt", outside assets/',
    ]:
        assert line in result.stderr, result.stderr
    out = site / "public"
    assert not (out / "assets" / "images" / "secret.txt").exists()
    assert (out / "assets" / "images" / "alias.png").read_bytes() == b"\x89PNG fake"
    assert not (out / "assets" / "images" / "alias.png").is_symlink()
    assert 'src="assets/images/alias.png"' in (out / "index.html").read_text()


def test_a_standard_folder_that_links_out_of_the_site_is_an_error(run, tmp_path, short_tmp):
    """SITE/assets -> /etc would copy /etc into the output; each standard folder that is a link
    out of the site is an error naming it, and nothing of the target is read or written."""
    outside = short_tmp / "outside"
    (outside / "images").mkdir(parents=True)
    (outside / "secret.txt").write_text("not for the site")
    (outside / "page.mustache").write_text("{{title}}")
    (outside / "news.json").write_text(json.dumps([card(id="from-outside")]))
    (outside / "en.json").write_text('{"empty_feed": "outside"}')
    for folder in ["cards", "templates", "assets", "static", "strings"]:
        site = write_cards(tmp_path / ("site-" + folder), [card()])
        (site / folder).symlink_to(outside)
        result = build(run, site)
        assert result.returncode == 1, (folder, result.stderr)
        assert f'error: site-{folder}/{folder}: is a symbolic link to "{outside}", outside the site folder' in result.stderr, result.stderr
        assert not (site / "public").exists()
        checked = run("check", site)
        assert checked.returncode == 1 and "outside the site folder" in checked.stderr
    inside = write_cards(tmp_path / "inside", [card(type="captioned_image", title="t", image="images/a.png")])
    (inside / "shared" / "images").mkdir(parents=True)
    (inside / "shared" / "images" / "a.png").write_bytes(b"\x89PNG fake")
    (inside / "assets").symlink_to("shared")
    result = build(run, inside)
    assert result.returncode == 0, result.stderr
    assert (inside / "public" / "assets" / "images" / "a.png").read_bytes() == b"\x89PNG fake"


def test_an_output_inside_an_input_folder_is_refused_through_symbolic_links(run, tmp_path):
    site = write_cards(tmp_path / "site", [card()])
    (site / "cards").mkdir()
    (tmp_path / "to-cards").symlink_to(site / "cards")
    (site / "cards-again").symlink_to("cards")
    for output in [tmp_path / "to-cards" / "out", site / "cards-again" / "out" / "deeper"]:
        result = build(run, site, "-o", output)
        assert result.returncode == 1 and "inside the site's cards/ folder" in result.stderr, (output, result.stderr)
    assert list((site / "cards").iterdir()) == []
    (site / "public-link").symlink_to(tmp_path)
    result = build(run, site, "-o", site / "public-link")
    assert result.returncode == 1 and "contains the site itself" in result.stderr, result.stderr


def unreadable_runner(cardfeed_bin):
    """Runs cardfeed so that a chmod 000 file really cannot be read. These tests run as root, for
    whom permissions do not stop reads: then cardfeed runs as the user nobody (setpriv)."""
    if os.geteuid() != 0:
        return [str(cardfeed_bin)]
    if not shutil.which("setpriv"):
        pytest.skip("running as root without setpriv: a chmod 000 file stays readable")
    return ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", str(cardfeed_bin)]


def test_unreadable_files_are_named(cardfeed_bin):
    prefix = unreadable_runner(cardfeed_bin)
    root = Path(tempfile.mkdtemp(prefix="cardfeed-unreadable-"))
    try:
        os.chmod(root, 0o777)
        site = write_cards(root / "site", [card()])
        (site / "cards").mkdir()
        (site / "cards" / "locked.json").write_text(json.dumps([card(id="c2")]))
        (site / "templates").mkdir()
        (site / "templates" / "page.mustache").write_text("{{title}}")
        for path in [site / "cards" / "locked.json", site / "templates" / "page.mustache"]:
            os.chmod(path, 0o000)
        for path in [site, site / "cards", site / "templates"]:
            os.chmod(path, 0o777)
        os.chmod(site / "cards.json", 0o644)
        result = subprocess.run([*prefix, "build", str(site), "--now", NOW, "-q"], capture_output=True, text=True, timeout=60, cwd=root)
        assert result.returncode == 1, result.stderr
        assert "error: site/cards/locked.json: cannot be read: permission denied" in result.stderr
        assert "error: site/templates/page.mustache: the template cannot be read: permission denied" in result.stderr
        # A folder that cannot be listed is named too.
        os.chmod(site / "cards" / "locked.json", 0o644)
        os.chmod(site / "templates" / "page.mustache", 0o644)
        (site / "templates" / "page.mustache").unlink()
        os.chmod(site / "cards", 0o000)
        result = subprocess.run([*prefix, "build", str(site), "--now", NOW, "-q"], capture_output=True, text=True, timeout=60, cwd=root)
        assert "warning: site/cards: is a folder that cannot be read (check its permissions); its files are not read" in result.stderr
        assert result.returncode == 0, result.stderr
    finally:
        for folder, _, files in os.walk(root):
            os.chmod(folder, 0o777)
        shutil.rmtree(root, ignore_errors=True)


def write_big_cards(path: Path, target_bytes: int, shown_every: int = 20) -> int:
    """About `target_bytes` of realistic cards (Markdown descriptions, images, links, extras);
    one in `shown_every` is current, the others expired, so that the page output stays small
    while every card is still read and checked."""
    words = "coffee roast autumn member reward offer season beans brew latte story weekend city event".split()
    description = " ".join(words[i % len(words)] for i in range(80))
    template = ('{"id":"card-%07d","type":"captioned_image","created":%d,"categories":["news"],"title":"Card %d about **roasts**",'
                '"description":"' + description + ' [more](https://brewline.example/%d)","image":"https://img.example/%d.png",'
                '"url":"https://brewline.example/c/%d","domain":"brewline.example","aspect_ratio":1.5,"extras":{"campaign":"c%d"},"expires_at":%d}')
    count, size = 0, 4
    with open(path, "w") as out:
        out.write("[\n")
        batch = []
        while size < target_bytes:
            line = template % (count, 1790000000 + count, count, count, count, count, count % 97, -1 if count % shown_every == 0 else 1700000000)
            line = (",\n" if count else "") + line
            batch.append(line)
            size += len(line)
            count += 1
            if len(batch) == 10_000:
                out.write("".join(batch))
                batch = []
        out.write("".join(batch) + "\n]\n")
    return count


MEASURE = """
import resource, subprocess, sys, time
start = time.monotonic()
result = subprocess.run(sys.argv[1:], capture_output=True, text=True)
print(result.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, round(time.monotonic() - start, 1))
sys.stderr.write(result.stderr[-2000:])
"""


@pytest.mark.slow
def test_a_200_mb_cards_file_builds_in_bounded_memory(cardfeed_bin, tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    count = write_big_cards(site / "cards.json", 200 * 1024 * 1024)
    assert (site / "cards.json").stat().st_size >= 200 * 1024 * 1024
    measured = subprocess.run([sys.executable, "-c", MEASURE, str(cardfeed_bin), "build", str(site), "--now", NOW, "-q"],
                              capture_output=True, text=True, timeout=300)
    status, peak_kb, seconds = measured.stdout.split()
    assert status == "0", measured.stderr
    peak_mb = int(peak_kb) / 1024
    print(f"200 MB cards file, {count} cards: peak memory {peak_mb:.0f} MB, {seconds} s")
    assert peak_mb < 1200, f"peak memory {peak_mb:.0f} MB"
    pages = sorted((site / "public").rglob("*.html"))
    assert len(pages) > 100


def test_output_safety_from_the_command_line(run, example_site, tmp_path):
    """A failed build leaves the previous output byte for byte; the site itself, a parent of it
    and a folder inside its inputs are refused as --output, and nothing of the site is touched."""
    assert build(run, example_site).returncode == 0
    out = example_site / "public"
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    (example_site / "cards" / "broken.json").write_text('[{"id": "x",')
    failed = build(run, example_site)
    assert failed.returncode == 1 and "invalid JSON" in failed.stderr
    assert {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    (example_site / "cards" / "broken.json").unlink()
    # The site's own files: the build cache beside them is the build's.
    inputs = sorted(str(p) for p in example_site.rglob("*") if not {"public", ".cardfeed-cache"} & set(p.parts))
    for output, reason in [(example_site, "contains the site itself"), (example_site.parent, "contains the site itself"),
                           (example_site / "cards" / "out", "inside the site's cards/ folder"),
                           (example_site / "assets", "inside the site's assets/ folder")]:
        result = build(run, example_site, "-o", output)
        assert result.returncode == 1 and reason in result.stderr, (output, result.stderr)
    assert sorted(str(p) for p in example_site.rglob("*") if not {"public", ".cardfeed-cache"} & set(p.parts)) == inputs


def test_rule_numbers_that_no_card_can_hold_are_errors(run, tmp_path):
    """`expires_at: .nan` ended the build with SIGILL when the rule was applied."""
    for value, shown in [(".nan", "nan is not a number"), (".inf", "inf is not a number"), ("-.inf", "-inf is not a number"),
                         ("1e300", "1e+300 is too large for a time")]:
        site = write_cards(tmp_path / "site", [card()])
        (site / "cardfeed.yml").write_text(f"rules:\n  - match: {{id: c1}}\n    set:\n      expires_at: {value}\n")
        result = build(run, site)
        assert result.returncode == 1, (value, result.stderr)
        assert 'error: site/cardfeed.yml:4:19: field "rules[1].set.expires_at": ' + shown in result.stderr, result.stderr
    (site / "cardfeed.yml").write_text("rules:\n  - match: {id: c1}\n    set:\n      aspect_ratio: .nan\n")
    result = build(run, site)
    assert result.returncode == 1 and '"rules[1].set.aspect_ratio": nan is not a number' in result.stderr, result.stderr


ALIAS_BOMB = """a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
? *i
: x
? *h
: y
"""


def test_a_yaml_alias_bomb_is_refused_quickly(run, tmp_path):
    site = write_cards(tmp_path / "site", [card()])
    (site / "cardfeed.yml").write_text(ALIAS_BOMB)
    start = time.monotonic()
    result = build(run, site)
    assert time.monotonic() - start < 5
    assert result.returncode == 1
    assert "error: site/cardfeed.yml:6:" in result.stderr and "expand to more than 100000 values" in result.stderr, result.stderr
    (site / "cardfeed.yml").write_text('base: &base {title: "Hello"}\nrules:\n  - match: {id: c1}\n    set: *base\n')
    result = build(run, site)
    assert "expand to more than" not in result.stderr and 'field "base": unknown key' in result.stderr, result.stderr


@pytest.mark.slow
def test_ctrl_c_stops_a_large_build_within_a_second_and_the_next_build_works(cardfeed_bin, tmp_path):
    """Ctrl-C in the middle of rendering. The test knows the build is there, however fast or
    loaded the machine, from the build itself: on a terminal it draws its progress (from the
    first batch on, with CARDFEED_PROGRESS_DELAY=0). Once the render step's progress shows, the
    test stops the terminal's output as Ctrl-S does, so the build cannot print the line that ends
    that step, nor end, before the signal."""
    import fcntl
    import re
    import select
    import signal
    import termios
    cards = [card(id=f"c{i}", description=f"Card **{i}** " * 20) for i in range(CTRL_C_CARDS)]
    site = write_cards(tmp_path / "site", cards)
    controller, terminal = os.openpty()
    attributes = termios.tcgetattr(terminal)
    attributes[0] |= termios.IXON  # Ctrl-S stops output, Ctrl-Q restarts it
    termios.tcsetattr(terminal, termios.TCSANOW, attributes)
    # SIGINT as a terminal's build gets it: a test runner started in the background ignores it,
    # and so would the build, which then waited on the paused terminal (issue 57).
    process = subprocess.Popen([str(cardfeed_bin), "build", site, "--now", NOW], stdin=subprocess.DEVNULL, stdout=terminal,
                               stderr=subprocess.PIPE, env={**os.environ, "TERM": "xterm", "CARDFEED_PROGRESS_DELAY": "0"},
                               preexec_fn=default_signals)
    os.close(terminal)
    try:
        shown = b""
        while not re.search(rb"Render pages: \d+ of %d cards" % CTRL_C_CARDS, shown):
            readable, _, _ = select.select([controller], [], [], 120)
            assert readable, f"nothing drawn for two minutes:\n{shown.decode(errors='replace')}"
            try:
                data = os.read(controller, 65536)
            except OSError:  # EIO: the build ended and closed the terminal
                data = b""
            assert data, f"the build ended before rendering showed:\n{shown.decode(errors='replace')}"
            shown += data
        os.write(controller, b"\x13")
        # What the build wrote before the terminal stopped: the render step must not have ended.
        fcntl.fcntl(controller, fcntl.F_SETFL, fcntl.fcntl(controller, fcntl.F_GETFL) | os.O_NONBLOCK)
        try:
            while data := os.read(controller, 65536):
                shown += data
        except BlockingIOError:
            pass
        assert not re.search(rb"Render pages: \d+ cards", shown), f"rendering ended before the signal:\n{shown.decode(errors='replace')}"
        assert process.poll() is None, "the build ended before it could be interrupted"
        start = time.monotonic()
        process.send_signal(signal.SIGINT)
        process.wait(timeout=10)
        assert time.monotonic() - start < 1
        assert process.returncode != 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(controller)
    again = subprocess.run([str(cardfeed_bin), "build", site, "--now", NOW, "-q"], capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    # The build cache is the site's; a stopped build leaves it usable.
    assert sorted(p.name for p in site.iterdir() if p.name != ".cardfeed-cache") == ["cards.json", "public"]


def test_control_characters_in_ids_and_file_names_are_escaped_on_the_terminal(run, tmp_path):
    site = write_cards(tmp_path / "site", [card(id="evil\x1b]0;pwned\x07\u009b31m", type="nonsense")])
    (site / "cards").mkdir()
    (site / "cards" / "bad\x1b[2Jname\u0085.json").write_text("[")
    result = build(run, site)
    assert result.returncode == 1
    for raw in ["\x1b", "\x07", "\u009b", "\u0085"]:
        assert raw not in result.stderr, repr(result.stderr)
    assert 'card 1 (id "evil\\u{1b}]0;pwned\\u{7}\\u{9b}31m")' in result.stderr, result.stderr
    assert "site/cards/bad\\u{1b}[2Jname\\u{85}.json:" in result.stderr, result.stderr


def test_a_base_url_with_spaces_or_quotes_is_refused(run, tmp_path):
    site = write_cards(tmp_path / "site", [card()])
    for url in ['https://x.test/a b/', 'https://x.test/"><script>', "https://x.test/'x", "https://x.test/\u00a0"]:
        result = build(run, site, "--base-url", url)
        assert result.returncode == 1 and "error: --base-url: " in result.stderr, (url, result.stderr)
        (site / "cardfeed.yml").write_text(f"base_url: {json.dumps(url)}\n")
        result = build(run, site)
        assert result.returncode == 1 and 'field "base_url": must be an http or https address' in result.stderr, (url, result.stderr)
        (site / "cardfeed.yml").unlink()
    assert build(run, site, "--base-url", "https://x.test/news/").returncode == 0


BASE_URLS_THAT_PREFIX_NO_PATH = [
    # (base URL, what the error says is wrong, what it says to write instead)
    ("https://x.example/?q=1#frag", "must not have a query", 'write "https://x.example/"'),
    ("https://x.example/news#top", "must not have a fragment", 'write "https://x.example/news/"'),
    ("https://user:pw@x.example/", "must not hold a user name or password", 'write "https://x.example/"'),
    ("https://token@x.example/a/", "must not hold a user name or password", 'write "https://x.example/a/"'),
    ("x.example/news/", "not a path", 'write "https://x.example/news/"'),
    ("/news/", "not a path", "such as https://example.com/news/"),
    ("news", "not a path", "such as https://example.com/news/"),
    ("//x.example/", "must say http or https before the host", 'write "https://x.example/"'),
    ("ftp://x.example/", 'not "ftp:"', "such as https://example.com/news/"),
    ("file:///srv/site/", 'not "file:"', "such as https://example.com/news/"),
]


def test_a_base_url_that_cannot_prefix_a_path_is_an_error_saying_what_to_write(run, tmp_path):
    """A query, fragment or password would be in every canonical link, og:url, feed and sitemap
    entry (`https://x.example/?q=1#frag/cards/…`); a path or another scheme cannot prefix one."""
    site = write_cards(tmp_path / "site", [card()])
    for url, problem, instead in BASE_URLS_THAT_PREFIX_NO_PATH:
        result = build(run, site, "--base-url", url)
        assert result.returncode == 1, (url, result.stdout)
        assert f"error: --base-url: {json.dumps(url)} " in result.stderr and problem in result.stderr and instead in result.stderr, (url, result.stderr)
        assert not (site / "public").exists()
        (site / "cardfeed.yml").write_text(f"title: T\nbase_url: {json.dumps(url)}\n")
        result = build(run, site)
        assert result.returncode == 1, (url, result.stdout)
        assert 'cardfeed.yml:2:11: field "base_url": ' in result.stderr and problem in result.stderr and instead in result.stderr, (url, result.stderr)
        assert not (site / "public").exists()
        (site / "cardfeed.yml").unlink()
    assert build(run, site, "--base-url", "https://x.example:8080/news").returncode == 0


def test_an_http_url_without_a_host_is_refused_and_protocol_relative_links_follow_new_tab(run, tmp_path):
    site = write_cards(tmp_path / "site", [
        card(id="img", type="captioned_image", title="t", image="https:javascript:alert(1)"),
        card(id="rel", url="//partner.example/offer", domain="Partner"),
        card(id="own", url="https://other.example/", domain="Other"),
    ])
    (site / "cardfeed.yml").write_text('links:\n  new_tab: ["partner.example"]\n')
    result = build(run, site)
    assert result.returncode == 0, result.stderr
    assert 'field "image": "https:javascript:alert(1)" has no host after "https://"' in result.stderr, result.stderr
    page = (site / "public" / "index.html").read_text()
    assert "javascript" not in page
    assert 'href="//partner.example/offer" target="_blank" rel="noopener"' in page, page
    assert 'href="https://other.example/" target' not in page


def fnv1a(text):
    value = 2166136261
    for byte in text.encode():
        value = ((value ^ byte) * 16777619) & 0xFFFFFFFF
    return value


def test_anchors_and_feed_ids_are_unique_when_an_id_equals_another_cards_anchor(run, tmp_path):
    import re
    # "a b" has the anchor card-a-b-<hash>; a card whose id is "a-b-<hash>" has the same one.
    twin = f"a-b-{fnv1a('a b'):x}"
    colour = {"background_color": "#ff0000"}
    site = write_cards(tmp_path / "site", [
        card(id=twin, created=1790000300, extras=colour),
        card(id="a b", created=1790000200, extras={"background_color": "#00ff00"}),
        card(id="plain", created=1790000100),
        card(id="x y", created=1790000000),
    ])
    result = run("build", site, "--now", NOW, "--base-url", "https://x.test/")
    assert result.returncode == 0, result.stderr
    assert f'card 2 (id "a b"): field "id": its anchor would be the same as that of card "{twin}"' in result.stderr, result.stderr
    assert f"this card's anchor is card-{twin}-2" in result.stderr
    out = site / "public"
    page = (out / "index.html").read_text()
    ids = re.findall(r'\bid="([^"]*)"', page)
    assert len(ids) == len(set(ids)), ids
    # Cards that do not collide keep the anchors they always had (permalinks keep working).
    for anchor in [f"card-{twin}", f"card-{twin}-2", "card-plain", f"card-x-y-{fnv1a('x y'):x}"]:
        assert f'id="{anchor}"' in page, anchor
    css = (out / "assets" / "card-styles.css").read_text()
    assert f"#card-{twin} {{\n  --cf-surface: #ff0000;" in css or f"#card-{twin} {{" in css, css
    selectors = re.findall(r"^(#\S+) \{", css, re.M)
    assert selectors == [f"#card-{twin}", f"#card-{twin}-2"], css
    feed = json.loads((out / "feed.json").read_text())
    entry_ids = [item["id"] for item in feed["items"]]
    assert len(entry_ids) == len(set(entry_ids)) == 4, entry_ids
    atom_ids = re.findall(r"<entry\b.*?<id>([^<]*)</id>", (out / "feed.xml").read_text(), re.S)
    assert len(atom_ids) == len(set(atom_ids)) == 4, atom_ids
    assert f"index.html#card-{twin}-2" in json.dumps(feed) or f"#card-{twin}-2" in json.dumps(feed)


def test_file_names_that_are_not_utf8_are_errors_naming_the_file(run, tmp_path):
    site = write_cards(tmp_path / "site", [card()])
    for folder, name in [("cards", b"caf\xe9.json"), ("assets", b"logo\xff.png"), ("static", b"r\xe9sum\xe9.txt")]:
        (site / folder).mkdir()
        with open(os.path.join(bytes(site / folder), name), "wb") as file:
            file.write(b"[]")
    for command in ["build", "check"]:
        result = run(command, site)
        assert result.returncode == 1, result.stdout
        for shown in ["site/cards/caf\\xE9.json", "site/assets/logo\\xFF.png", "site/static/r\\xE9sum\\xE9.txt"]:
            assert f"error: {shown}: has a name that is not UTF-8" in result.stderr, result.stderr
    assert not (site / "public").exists()


@pytest.mark.parametrize("names", [
    ("a-news.json", "b-sync.json", "c-sync.json"),  # the News Feed file first
    ("b-news.json", "a-sync.json", "c-sync.json"),  # between the syncs
    ("c-news.json", "a-sync.json", "b-sync.json"),  # after both
], ids=["news-first", "news-between", "news-last"])
@pytest.mark.parametrize("later", ["full sync without it", "sync removing it"])
def test_a_news_feed_card_a_sync_replaced_shows_again_once_syncs_no_longer_send_it(run, tmp_path, names, later):
    """A full sync sends a newer X (it takes the News Feed file's X's place), a later sync no
    longer sends X: the News Feed file's X shows again, with a warning saying why, whatever the
    order of the files."""
    news_name, first_sync, second_sync = names
    site = tmp_path / "site"
    (site / "cards").mkdir(parents=True)
    (site / "cards" / news_name).write_text(json.dumps({"feed": [
        {"id": "x", "type": "text_announcement", "created": 1_700_000_000, "description": "news feed x", "categories": ["news"]}]}))
    (site / "cards" / first_sync).write_text(json.dumps({"full_sync": True, "cards": [
        {"id": "x", "tp": "text_announcement", "ca": 1_750_000_000, "ds": "synced x"},
        {"id": "y", "tp": "text_announcement", "ca": 1_750_000_000, "ds": "synced y"}]}))
    (site / "cards" / second_sync).write_text(json.dumps(
        {"full_sync": True, "cards": [{"id": "y", "tp": "text_announcement", "ca": 1_750_000_000, "ds": "synced y"}]}
        if later == "full sync without it" else {"full_sync": False, "cards": [{"id": "x", "r": True}]}))
    result = run("build", site, "--now", "1790000000")
    assert result.returncode == 0, result.stderr
    page = (site / "public" / "index.html").read_text()
    assert "news feed x" in page and "synced x" not in page and "synced y" in page, result.stdout
    if news_name == "c-news.json":
        assert "shows again" not in result.stderr, "read after the syncs, the card never left"
    else:
        assert (f'site/cards/{news_name}:1:12: card 1 (id "x"): field "id": shows again: the Content Cards sync site/cards/{first_sync} sent '
                "a card of this id in its place, and later syncs no longer send it") in result.stderr, result.stderr
    assert "(news feed x)" not in result.stdout
    assert "duplicate" not in result.stdout, result.stdout
    explained = run("explain", "x", site, "--now", "1790000000")
    assert explained.returncode == 0 and news_name in explained.stdout, explained.stdout


def test_a_news_feed_card_stays_behind_a_sync_that_still_sends_it(run, tmp_path):
    site = tmp_path / "site"
    (site / "cards").mkdir(parents=True)
    (site / "cards" / "a-news.json").write_text(json.dumps({"feed": [
        {"id": "x", "type": "text_announcement", "created": 1_700_000_000, "description": "news feed x"}]}))
    for name in ("b-sync.json", "c-sync.json"):
        (site / "cards" / name).write_text(json.dumps({"full_sync": True, "cards": [{"id": "x", "tp": "text_announcement", "ca": 1_750_000_000, "ds": f"synced x {name}"}]}))
    result = run("build", site, "--now", "1790000000")
    assert result.returncode == 0, result.stderr
    page = (site / "public" / "index.html").read_text()
    assert "synced x c-sync.json" in page and "news feed x" not in page and "synced x b-sync.json" not in page
    assert "shows again" not in result.stderr


def test_a_sync_removes_only_cards_of_syncs_and_every_envelope_key_is_read_or_warned_about(run, tmp_path):
    site = tmp_path / "site"
    (site / "cards").mkdir(parents=True)
    news = {"id": "n1", "type": "text_announcement", "created": 1, "description": "news card", "categories": ["news"]}
    (site / "cards" / "a-news.json").write_text(json.dumps({"feed": [news], "cards": [
        {"id": "cc1", "tp": "text_announcement", "ca": 2, "ds": "lost card"}], "extra": 1}))
    (site / "cards" / "b-sync.json").write_text(json.dumps({"cards": [
        {"id": "s1", "tp": "text_announcement", "ca": 3, "ds": "sync card"}], "full_sync": False}))
    (site / "cards" / "c-sync.json").write_text(json.dumps({"cards": [{"id": "n1", "r": True}, {"id": "s1", "r": True}]}))
    result = run("build", site)
    assert result.returncode == 0, result.stderr
    page = (site / "public" / "index.html").read_text()
    assert "news card" in page and "sync card" not in page
    assert ('site/cards/c-sync.json:1:25: card 1 (id "n1"): field "r": removes card "n1", which no earlier sync sent; '
            "the card of that id (site/cards/a-news.json: card 1) is not from a sync, so it stays") in result.stderr, result.stderr
    assert ('site/cards/a-news.json:1:121: field "cards": the file\'s cards are read from {"feed": [...]}, so those under '
            '"cards" are not (a file holds one envelope)') in result.stderr
    assert 'site/cards/a-news.json:1:202: field "extra": not a key of the {"feed": [...]} envelope; ignored' in result.stderr
    assert run("check", site, "--strict").returncode == 1
