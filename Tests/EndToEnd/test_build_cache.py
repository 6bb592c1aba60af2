"""The build cache as a user reaches it: --cache-dir and --no-cache on build, check and serve,
cache_dir: in cardfeed.yml (which `cardfeed config` shows with its line), the folders a cache may
not be in, and `cardfeed cache clean`, which removes only a folder that cardfeed tagged as its
cache. (What the cache holds is the build's; here only where it is.)"""
import json

from conftest import write_cards

CARDS = [{"id": f"c{i}", "type": "text_announcement", "created": i + 1, "description": "d"} for i in range(3)]
TAG = "Signature: 8a477f597d28d172789f06886806bc55\n# This folder is CardFeed's build cache.\n"


def site_with(tmp_path, settings=""):
    site = write_cards(tmp_path / "s", CARDS)
    if settings:
        (site / "cardfeed.yml").write_text(settings)
    return site


def cache_setting(run, *args):
    result = run("config", *args, "--json")
    assert result.returncode == 0, result.stderr
    return next(s for s in json.loads(result.stdout)["settings"] if s["key"] == "cache_dir")


def test_build_and_check_take_the_cache_options(run, tmp_path):
    site = site_with(tmp_path)
    for command in ("build", "check"):
        for options in (["--no-cache"], ["--cache-dir", tmp_path / "elsewhere"], ["--cache-dir", "relative/cache"]):
            result = run(command, site, *options, "-q")
            assert result.returncode == 0, f"{command} {options}: {result.stderr}"
    both = run("build", site, "--cache-dir", "x", "--no-cache")
    assert both.returncode == 64 and "give --cache-dir or --no-cache, not both" in both.stderr, both.stderr
    empty = run("build", site, "--cache-dir", "")
    assert empty.returncode == 64 and "--cache-dir needs a folder's path" in empty.stderr, empty.stderr


def test_serve_takes_the_cache_options(running, tmp_path):
    site = site_with(tmp_path)
    for options in (["--no-cache"], ["--cache-dir", tmp_path / "cache"]):
        server = running("serve", site, "--port", "0", *options)
        server.wait_for(r"Serving s at http://")
        server.stop()
    # A folder the build reads: refused as a build refuses it, and never made.
    refused = running("serve", site, "--port", "0", "--cache-dir", site / "static" / "cache")
    refused.wait_for(r"error: --cache-dir: .*static/cache is inside the site's static/ folder", stream="stderr")
    refused.wait_for(r"Serving s at http://")
    refused.stop()
    assert not (site / "static").exists()


def test_the_options_help_says_what_they_do_and_the_default(run):
    for command in ("build", "check", "serve"):
        text = " ".join(run(command, "--help").stdout.split())
        assert "--cache-dir <dir> Where the build cache is kept" in text and "else SITE/.cardfeed-cache" in text, text
        assert "--no-cache Build without the build cache" in text, text


def test_config_shows_where_the_cache_is_and_where_that_came_from(run, tmp_path):
    site = site_with(tmp_path, "title: Mine\ncache_dir: ../caches/mine\n")
    setting = cache_setting(run, site)
    assert (setting["value"], setting["source"], setting["default"], setting["option"], setting["in_file"]) == \
        ("../caches/mine", "cardfeed.yml:2", "SITE/.cardfeed-cache", "--cache-dir", True), setting
    text = run("config", site).stdout
    assert any(line.split() == ["cache_dir", "../caches/mine", "cardfeed.yml:2"] for line in text.splitlines()), text
    assert (cache_setting(run, site, "--cache-dir", "/tmp/x")["value"], cache_setting(run, site, "--cache-dir", "/tmp/x")["source"]) == ("/tmp/x", "--cache-dir")
    off = cache_setting(run, site, "--no-cache")
    assert (off["value"], off["source"]) == (None, "--no-cache"), off
    (site / "cardfeed.yml").unlink()
    default = cache_setting(run, site)
    assert (default["value"], default["source"]) == (".cardfeed-cache", "default"), default


def test_a_cache_inside_the_output_is_refused_at_its_line(run, tmp_path):
    site = site_with(tmp_path, "title: Mine\ncache_dir: public/.cache\n")
    for command in ("build", "check", "config"):
        result = run(command, site)
        assert result.returncode == 1, f"{command}: {result.stdout}"
        assert ('error: s/cardfeed.yml:2:12: field "cache_dir": s/public/.cache is inside the output folder s/public, '
                "which each build replaces; keep the build cache in a folder of its own, such as the default, s/.cardfeed-cache") in result.stderr, f"{command}: {result.stderr}"
    assert not (site / "public").exists(), "nothing is written"
    as_json = run("build", site, "--diagnostics", "json", "-q")
    error = json.loads(as_json.stderr.splitlines()[0])
    assert (error["severity"], error["file"], error["line"], error["field"]) == ("error", "s/cardfeed.yml", 2, "cache_dir"), error
    # --no-cache: no cache, so nowhere to refuse.
    assert run("build", site, "--no-cache", "-q").returncode == 0


def test_a_cache_option_in_the_output_or_the_sites_folders_is_refused_naming_the_option(run, tmp_path):
    site = site_with(tmp_path)
    refused = {
        "s/dist/cache": ("-o", "s/dist", "inside the output folder s/dist"),
        "s/static/cache": (None, None, "inside the site's static/ folder, whose files each build copies into the output"),
        "s/templates": (None, None, "inside the site's templates/ folder, which the build reads"),
        "s": (None, None, "is the site folder itself"),
        ".": (None, None, "holds the site folder s"),
    }
    for folder, (flag, output, words) in refused.items():
        result = run("build", site, "--cache-dir", folder, *([flag, output] if flag else []))
        assert result.returncode == 1, f"{folder}: {result.stdout}"
        assert f"error: --cache-dir: {folder} " in result.stderr and words in result.stderr, f"{folder}: {result.stderr}"
        assert "nothing was written" in result.stderr
    assert not (site / "public").exists() and not (site / "dist").exists()


def test_cache_clean_removes_the_tagged_cache_and_nothing_else(run, tmp_path):
    site = site_with(tmp_path)
    cache = site / ".cardfeed-cache"
    none = run("cache", "clean", site)
    assert none.returncode == 0 and none.stdout.strip() == "No build cache at s/.cardfeed-cache: nothing to remove.", none.stdout + none.stderr

    (cache / "cards").mkdir(parents=True)
    (cache / "cards" / "part-1").write_text("x")
    (cache / "CACHEDIR.TAG").write_text(TAG)
    removed = run("cache", "clean", site)
    assert removed.returncode == 0 and removed.stdout.strip() == "Removed the build cache s/.cardfeed-cache.", removed.stdout + removed.stderr
    assert not cache.exists()

    # A folder without cardfeed's tag (a mistyped --cache-dir, someone's own folder) is kept.
    mine = tmp_path / "mine"
    (mine / "notes").mkdir(parents=True)
    (mine / "CACHEDIR.TAG").write_text("Signature: 0000\n")
    refused = run("cache", "clean", "--cache-dir", mine)
    assert refused.returncode == 1, refused.stdout
    assert refused.stderr.startswith("error: mine is not a CardFeed cache (it has no CACHEDIR.TAG written by cardfeed)"), refused.stderr
    assert (mine / "notes").is_dir()


def test_cache_clean_finds_the_cache_where_cardfeed_yml_puts_it(run, tmp_path):
    site = site_with(tmp_path, "cache_dir: ../kept\n")
    kept = tmp_path / "kept"
    kept.mkdir()
    (kept / "CACHEDIR.TAG").write_text(TAG)
    cleaned = run("cache", "clean", site)
    assert cleaned.returncode == 0 and cleaned.stdout.strip() == "Removed the build cache kept.", cleaned.stdout + cleaned.stderr
    assert not kept.exists()
    # A cardfeed.yml with errors cannot say where: nothing is removed on a guess.
    kept.mkdir()
    (kept / "CACHEDIR.TAG").write_text(TAG)
    (site / "cardfeed.yml").write_text("cache_dir: ../kept\npage_size: many\n")
    broken = run("cache", "clean", site)
    assert broken.returncode == 1 and "cannot tell where the build cache is until s/cardfeed.yml is fixed" in broken.stderr, broken.stderr
    assert kept.exists()
    assert run("cache", "clean", site, "--cache-dir", kept).returncode == 0 and not kept.exists()


def test_cache_clean_has_help_and_a_site_that_is_none_is_an_error(run, tmp_path):
    text = run("help", "cache", "clean").stdout
    assert "Remove the build cache." in text and "CACHEDIR.TAG" in text and "--cache-dir <dir>" in text, text
    assert "clean" in run("cache", "--help").stdout
    missing = run("cache", "clean", tmp_path / "nowhere")
    assert missing.returncode == 1 and "no site folder" in missing.stderr, missing.stderr
    typo = run("cache", "claen")
    assert typo.returncode == 64 and 'unknown command "cache claen" (did you mean "clean"?)' in typo.stderr, typo.stderr


def test_init_leaves_the_cache_out_of_git(run, tmp_path):
    assert run("init", "new").returncode == 0
    assert "/.cardfeed-cache/" in (tmp_path / "new" / ".gitignore").read_text().splitlines()


def test_the_summary_says_what_the_cache_gave_and_quiet_hides_it(run, tmp_path):
    site = site_with(tmp_path)
    first = run("build", site, "--now", "10")
    assert first.returncode == 0, first.stderr
    assert (site / ".cardfeed-cache" / "CACHEDIR.TAG").is_file(), "the build keeps its cache in SITE/.cardfeed-cache"
    second = run("build", site, "--now", "10")
    lines = second.stdout.splitlines()
    wrote = next(i for i, line in enumerate(lines) if line.startswith("Wrote "))
    assert lines[wrote + 1] == "Reused 3 of 3 cards; 0 files written.", second.stdout
    assert "Reused" not in run("build", site, "--now", "10", "--no-cache").stdout
    quiet = run("build", site, "--now", "10", "-q")
    assert quiet.returncode == 0 and quiet.stdout == "", quiet.stdout
    # What the build keeps, cache clean removes.
    cleaned = run("cache", "clean", site)
    assert cleaned.stdout.strip() == "Removed the build cache s/.cardfeed-cache." and not (site / ".cardfeed-cache").exists()
    assert "Reused 0 of 3 cards" in run("build", site, "--now", "10").stdout


def test_a_cache_that_cannot_be_kept_is_a_note_not_a_warning(run, tmp_path):
    site = site_with(tmp_path)
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache's folder would go")
    result = run("build", site, "--strict", "--cache-dir", blocked)
    assert result.returncode == 0, result.stderr
    notes = [line for line in result.stdout.splitlines() if line.startswith("note: ")]
    assert len(notes) == 1 and "blocked" in notes[0], result.stdout
    assert "warning" not in result.stderr and "Reused" not in result.stdout, (result.stdout, result.stderr)
    assert run("build", site, "--cache-dir", blocked, "-q").stdout == "", "--quiet leaves the note out with the rest of the summary"
