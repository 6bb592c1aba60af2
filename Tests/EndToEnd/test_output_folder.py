"""The output folder as a deployment uses it: hidden files kept across builds, a folder holding
only those accepted, removed files counted and named, and SITE/static/ copied to the root."""
import json
import re
import signal
import subprocess
import time

import pytest

from conftest import write_cards


def cards(n, category="news"):
    return [{"id": f"c{i}", "type": "text_announcement", "created": i + 1, "description": "d",
             "categories": [category]} for i in range(n)]


def test_hidden_files_in_the_output_survive_rebuilds(run, tmp_path):
    site = write_cards(tmp_path / "s", cards(3))
    out = site / "public"
    (out / ".git").mkdir(parents=True)
    (out / ".git" / "HEAD").write_text("ref: refs/heads/gh-pages\n")
    (out / ".nojekyll").write_text("")
    first = run("build", site, "--page-size", "1", "-q")   # a folder of only dotfiles is a valid target
    assert first.returncode == 0, first.stderr
    assert (out / "index.html").is_file() and (out / "page-c2.html").is_file()  # one card a page: each ends its own
    assert (out / ".git" / "HEAD").read_text() == "ref: refs/heads/gh-pages\n"
    (site / "cards.json").write_text(json.dumps(cards(1)))
    second = run("build", site, "--page-size", "1")
    assert second.returncode == 0, second.stderr
    assert (out / ".git" / "HEAD").is_file() and (out / ".nojekyll").is_file()
    assert not (out / "page-c2.html").exists()
    assert ("Removed 6 files of the previous build that the site no longer has: "
            "cards/card-c1.html, cards/card-c2.html, news/page-c1.html, news/page-c2.html, page-c1.html, ….") in second.stdout
    assert "6 removed" in second.stdout
    # The front pages, and c0's pages, whose newer page is now the front page.
    assert re.search(r"^Wrote \d+ files in [\d.]+ s \(4 changed, \d+ unchanged\)\.$", second.stdout, re.M), second.stdout
    assert "by hand" not in second.stdout  # pages the build made, not files put there by hand


def test_a_file_put_into_the_output_by_hand_is_removed_with_a_pointer_to_static(run, tmp_path):
    site = write_cards(tmp_path / "s", cards(1))
    assert run("build", site, "-q").returncode == 0
    (site / "public" / "CNAME").write_text("news.example\n")
    again = run("build", site)
    assert again.returncode == 0, again.stderr
    assert not (site / "public" / "CNAME").exists()
    assert "If you put CNAME into the output by hand" in again.stdout and "(static/CNAME)" in again.stdout, again.stdout


def test_files_put_into_the_output_by_hand_in_any_folder_are_named_as_removed(run, tmp_path):
    # The files the site lost are told from the walk that opens the output: files in a folder of
    # their own, and in one whose name an older cardfeed's staging files had in theirs, are named.
    site = write_cards(tmp_path / "s", cards(1))
    assert run("build", site, "-q").returncode == 0
    for folder in ("extra", "x.cardfeed-new-1"):
        (site / "public" / folder).mkdir()
        (site / "public" / folder / "a.txt").write_text("a\n")
    (site / "public" / "news" / "b.txt").write_text("b\n")
    again = run("build", site)
    assert again.returncode == 0, again.stderr
    assert ("Removed 3 files of the previous build that the site no longer has: "
            "extra/a.txt, news/b.txt, x.cardfeed-new-1/a.txt.") in again.stdout, again.stdout
    assert not (site / "public" / "extra").exists() and not (site / "public" / "news" / "b.txt").exists()


def test_hidden_files_survive_a_fresh_swap(run, tmp_path):
    # A folder where a page goes (put there by hand) makes the build replace the whole output.
    site = write_cards(tmp_path / "s", cards(1))
    out = site / "public"
    assert run("build", site, "-q").returncode == 0
    (out / ".git").mkdir()
    (out / ".git" / "config").write_text("x")
    (out / "news" / "index.html").unlink()
    (out / "news" / "index.html").mkdir()
    again = run("build", site, "-q")
    assert again.returncode == 0, again.stderr
    assert (out / ".git" / "config").read_text() == "x"
    assert (out / "news" / "index.html").is_file()


def test_visible_files_the_build_did_not_write_are_still_refused(run, tmp_path):
    site = write_cards(tmp_path / "s", cards(1))
    out = tmp_path / "out"
    (out / ".git").mkdir(parents=True)
    (out / "thesis.txt").write_text("keep")
    result = run("build", site, "-o", out)
    assert result.returncode == 1
    assert "did not write (thesis.txt)" in result.stderr and "static/" in result.stderr
    assert (out / "thesis.txt").read_text() == "keep"


def test_static_files_are_copied_to_the_output_root_as_they_are(run, tmp_path):
    site = write_cards(tmp_path / "s", cards(1))
    static = site / "static"
    (static / ".well-known").mkdir(parents=True)
    (static / ".well-known" / "security.txt").write_text("Contact: mailto:a@example.com\n")
    (static / "robots.txt").write_text("User-agent: *\n")
    (static / "CNAME").write_text("news.example.com\n")
    (static / "_headers").write_text("/*\n  X-Content-Type-Options: nosniff\n")
    (static / ".nojekyll").write_text("")
    (static / "news").mkdir()
    (static / "news" / "extra.txt").write_text("more")
    result = run("build", site, "-q")
    assert result.returncode == 0, result.stderr
    out = site / "public"
    for path in [".well-known/security.txt", "robots.txt", "CNAME", "_headers", ".nojekyll", "news/extra.txt"]:
        assert (out / path).read_bytes() == (static / path).read_bytes(), path
    (static / "CNAME").unlink()
    rebuilt = run("build", site)
    assert rebuilt.returncode == 0
    assert not (out / "CNAME").exists()
    assert "that the site no longer has: CNAME." in rebuilt.stdout


def test_a_static_file_colliding_with_a_generated_one_is_an_error_naming_both(run, tmp_path):
    site = write_cards(tmp_path / "s", cards(1))
    (site / "static" / "news").mkdir(parents=True)
    (site / "static" / "news" / "index.html").write_text("mine")
    (site / "static" / "assets").mkdir()
    (site / "static" / "assets" / "cardfeed.css").write_text("mine")
    result = run("build", site)
    assert result.returncode == 1
    assert ("error: s/static/news/index.html: would be copied to news/index.html, where the build writes "
            "the front page of the news feed; rename or remove one of them") in result.stderr
    assert "s/static/assets/cardfeed.css: would be copied to assets/cardfeed.css" in result.stderr
    assert not (site / "public").exists()
    (site / "static" / "news" / "index.html").unlink()
    (site / "static" / "assets" / "cardfeed.css").unlink()
    (site / "static" / "news" / "index.html").mkdir()
    (site / "static" / "news" / "index.html" / "x").write_text("x")
    inside = run("build", site)
    assert inside.returncode == 1
    assert "would be copied into news/index.html/" in inside.stderr


def test_static_cannot_write_into_the_outputs_git_or_its_kept_hidden_files(run, tmp_path):
    site = write_cards(tmp_path / "s", cards(1))
    out = site / "public"
    assert run("build", site, "-q").returncode == 0
    (out / ".git").mkdir()
    (out / ".git" / "config").write_text("[core]\n")
    (out / ".nojekyll").write_text("by hand\n")
    before = tree(out)
    static = site / "static"
    (static / ".git").mkdir(parents=True)
    (static / ".git" / "config").write_text("[core]\n\tfsmonitor = touch /tmp/pwned\n")
    (static / ".nojekyll").write_text("")
    result = run("build", site)
    assert result.returncode == 1
    assert ("error: s/static/.git/config: would be copied to .git/config, inside the output's .git, "
            "which is git's own") in result.stderr
    assert ("error: s/static/.nojekyll: would be copied to .nojekyll, over s/public/.nojekyll, a hidden path "
            "of the output that every build keeps and none wrote") in result.stderr
    assert tree(out) == before, "nothing written"
    # A submodule's gitlink file is refused too, also into an output that has no .git yet.
    (static / ".git" / "config").unlink()
    (static / ".git").rmdir()
    (static / ".git").write_text("gitdir: /elsewhere\n")
    (static / ".nojekyll").unlink()
    fresh = run("build", site, "-o", tmp_path / "fresh")
    assert fresh.returncode == 1 and "s/static/.git: would be copied to .git, inside the output's .git" in fresh.stderr
    assert not (tmp_path / "fresh").exists()


def test_hidden_files_static_copied_are_the_builds_own_and_others_are_kept_in_any_folder(run, tmp_path):
    site = write_cards(tmp_path / "s", cards(1))
    out = site / "public"
    static = site / "static"
    (static / ".well-known").mkdir(parents=True)
    (static / ".well-known" / "security.txt").write_text("v1\n")
    (static / "docs").mkdir()
    (static / "docs" / "guide.txt").write_text("guide")
    assert run("build", site, "-q").returncode == 0
    (out / "docs" / ".htaccess").write_text("deny\n")
    (out / "docs" / ".cache").mkdir()
    (out / "docs" / ".cache" / "x").write_text("x")
    (out / ".well-known" / "by-hand.txt").write_text("mine\n")
    # The build no longer makes docs/: the hidden files in it stay, in a folder of their own.
    (static / "docs" / "guide.txt").unlink()
    (static / ".well-known" / "security.txt").write_text("v2\n")
    second = run("build", site)
    assert second.returncode == 0, second.stderr
    assert (out / "docs" / ".htaccess").read_text() == "deny\n"
    assert (out / "docs" / ".cache" / "x").read_text() == "x"
    assert not (out / "docs" / "guide.txt").exists()
    assert "no longer has: docs/guide.txt." in second.stdout
    assert (out / ".well-known" / "security.txt").read_text() == "v2\n", "static/'s copy is the build's own"
    assert (out / ".well-known" / "by-hand.txt").read_text() == "mine\n"
    (static / ".well-known" / "security.txt").unlink()
    third = run("build", site)
    assert third.returncode == 0, third.stderr
    assert not (out / ".well-known" / "security.txt").exists()
    assert "no longer has: .well-known/security.txt." in third.stdout
    assert (out / ".well-known" / "by-hand.txt").read_text() == "mine\n"
    (static / ".well-known" / "by-hand.txt").write_text("other\n")
    clash = run("build", site)
    assert clash.returncode == 1 and "would be copied to .well-known/by-hand.txt, inside s/public/.well-known, a hidden path" in clash.stderr


def test_output_inside_static_is_refused(run, tmp_path):
    site = write_cards(tmp_path / "s", cards(1))
    (site / "static").mkdir()
    result = run("build", site, "-o", site / "static" / "out")
    assert result.returncode == 1
    assert "inside the site's static/ folder" in result.stderr


def tree(folder):
    """Every file below `folder`, by relative path, with its bytes."""
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


@pytest.mark.slow
def test_a_killed_build_leaves_the_whole_old_or_the_whole_new_site(cardfeed_bin, run, tmp_path):
    site = write_cards(tmp_path / "site", cards(3000))
    assert run("build", site, "--page-size", "5", "--now", "1800000000").returncode == 0
    old = tree(site / "public")
    edited = cards(3000)
    for entry in edited:
        entry["title"] = "Edited " + entry["id"]
    write_cards(site, edited)
    start = time.monotonic()
    assert run("build", site, "--page-size", "5", "--now", "1800000000", "--output", tmp_path / "new").returncode == 0
    seconds = time.monotonic() - start
    new = tree(tmp_path / "new")
    assert len(new) > 1000 and new != old
    outcomes = set()
    for delay in [seconds * share for share in (0.1, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 1.0, 1.1)]:
        process = subprocess.Popen([str(cardfeed_bin), "build", str(site), "--page-size", "5", "--now", "1800000000", "--quiet"])
        time.sleep(delay)
        process.send_signal(signal.SIGKILL)
        process.wait()
        now = tree(site / "public")
        assert now in (old, new), f"killed after {delay} s: a mix of old and new pages"
        outcomes.add("new" if now == new else "old")
    assert run("build", site, "--page-size", "5", "--now", "1800000000").returncode == 0
    assert tree(site / "public") == new
    # The build cache, which a killed build leaves usable, is the site's.
    assert sorted(path.name for path in site.iterdir() if path.name != ".cardfeed-cache") == ["cards.json", "public"], "leftovers of killed builds are removed"
    assert "old" in outcomes, "some builds were killed half way"


def test_two_builds_into_one_output_at_once(cardfeed_bin, run, tmp_path):
    site = write_cards(tmp_path / "site", cards(3000))
    first = subprocess.Popen([str(cardfeed_bin), "build", str(site), "--page-size", "5", "--quiet"],
                             stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 20
    while not (site / ".public.cardfeed-lock").exists() and first.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    second = run("build", site, "--page-size", "5")
    assert first.wait() == 0
    if (site / "public").exists() and second.returncode == 0:
        pytest.skip("the first build ended before the second began")
    assert second.returncode == 1
    assert f"another cardfeed (process {first.pid}) is writing site/public; wait until it ends, or choose another --output" in second.stderr
    assert run("build", site, "--page-size", "5").returncode == 0
