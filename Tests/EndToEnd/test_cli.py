"""The command line as a user meets it: from any directory, with clear errors and exit codes."""
import json
import re
import shutil
import subprocess

import pytest

from conftest import REPO, write_cards


def test_builds_the_example_site_from_another_directory_and_says_where(run, example_site, tmp_path):
    result = run("build", example_site, "--now", "1795000000", env={"CI": None})
    assert result.returncode == 0, result.stderr
    index = example_site / "public" / "index.html"
    assert index.is_file()
    assert result.stdout.splitlines()[-1] == f"Open {index} in a browser."
    assert re.search(r"^\[1/4\] Load cards: 31 entries from 3 files$", result.stdout, re.M)
    assert ('26 shown, 4 not shown (1 removed: "cc-flash-sale"; 1 dismissed: "cc-rate-your-visit"; '
            '1 expired: "nf-winter-warmers"; 1 control: "cc-holdout-control")') in result.stdout
    # One card of the example deliberately has no image, to show the placeholder and the warning.
    assert result.stderr.splitlines() == [
        'warning: site/cards/promotions.json:17:3: card 2 (id "promo-latte-art-throwdown"): field "image": '
        "missing (required for captioned_image cards); the placeholder image is shown"
    ]
    for feed in ["news", "advertising", "announcements", "social", "uncategorized"]:
        assert (example_site / "public" / feed / "index.html").is_file()


def test_binary_copied_elsewhere_still_has_its_templates_and_assets(cardfeed_bin, example_site, tmp_path):
    lonely = tmp_path / "bin" / "cardfeed"
    lonely.parent.mkdir()
    shutil.copy(cardfeed_bin, lonely)
    result = subprocess.run([str(lonely), "build", str(example_site), "-q"], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (example_site / "public" / "assets" / "cardfeed.css").is_file()
    assert (example_site / "public" / "assets" / "images" / "appboy_cc_noimage_lrg@2x.png").stat().st_size > 100


def test_default_site_is_site_in_the_working_directory(run, example_site, tmp_path):
    result = run("build", "-q", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "site" / "public" / "index.html").is_file()


def test_quiet_prints_nothing_on_success(run, example_site):
    result = run("build", example_site, "--quiet")
    assert result.returncode == 0
    assert result.stdout == ""


def test_malformed_json_fails_with_file_line_and_column_and_writes_nothing(run, tmp_path):
    site = tmp_path / "bad"
    (site / "cards").mkdir(parents=True)
    (site / "cards" / "broken.json").write_text('[\n  {"id": "a",\n   "type": tru}\n]')
    result = run("build", site)
    assert result.returncode == 1
    assert re.search(r"error: .*bad/cards/broken\.json:3:\d+: invalid JSON", result.stderr), result.stderr
    assert "nothing was written" in result.stderr
    assert not (site / "public").exists()


def test_warnings_name_file_card_and_field_and_strict_fails(run, tmp_path):
    site = write_cards(tmp_path / "w", [{"id": "x1", "type": "captioned_image", "created": 1, "title": "t", "description": "d"}])
    result = run("build", site)
    assert result.returncode == 0
    assert 'warning: w/cards.json:1:2: card 1 (id "x1"): field "image": missing (required for captioned_image cards); the placeholder image is shown' in result.stderr
    strict = run("check", site, "--strict")
    assert strict.returncode == 1
    assert 'error: w/cards.json:1:2: card 1 (id "x1"): field "image"' in strict.stderr


def test_check_writes_nothing_and_exits_zero_on_a_good_site(run, example_site):
    result = run("check", example_site)
    assert result.returncode == 0, result.stderr
    assert "nothing written" in result.stdout
    assert not (example_site / "public").exists()


def test_page_size_and_output_options(run, example_site, tmp_path):
    out = tmp_path / "dist"
    result = run("build", example_site, "-o", out, "--page-size", "5", "-q")
    assert result.returncode == 0, result.stderr
    # Archive pages, each named after its newest card, the first it shows.
    for folder in [out, out / "uncategorized"]:
        archive = sorted(folder.glob("page-*.html"))
        assert len(archive) >= 2, folder
        for page in archive:
            first = page.read_text().split('data-card-id="')[1].split('"')[0]
            assert page.name == f"page-{first}.html"
    single = run("build", example_site, "-o", tmp_path / "one", "--page-size", "0", "-q")
    assert single.returncode == 0
    assert not list((tmp_path / "one").glob("page-*.html"))
    assert (tmp_path / "one" / "index.html").read_text().count("<article") == 26


def test_bad_option_values_are_refused_clearly(run, example_site):
    result = run("build", example_site, "--page-size=-1")
    assert result.returncode != 0
    assert "--page-size must be 0 (one page) or more" in result.stderr


def test_refuses_to_replace_a_folder_it_did_not_write(run, example_site, tmp_path):
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "thesis.txt").write_text("keep")
    result = run("build", example_site, "-o", precious)
    assert result.returncode == 1
    assert "did not write" in result.stderr
    assert (precious / "thesis.txt").read_text() == "keep"


def test_eject_and_templates(run, example_site):
    listing = run("templates", "--site", example_site)
    assert listing.returncode == 0
    assert re.search(r"^cards/short_news\s+built-in$", listing.stdout, re.M)
    ejected = run("eject", "cards/short_news", "--site", example_site)
    assert ejected.returncode == 0, ejected.stderr
    assert (example_site / "templates" / "cards" / "short_news.mustache").is_file()
    assert re.search(r"^cards/short_news\s+overridden by ", run("templates", "--site", example_site).stdout, re.M)
    again = run("eject", "cards/short_news", "--site", example_site)
    assert again.returncode != 0 and "--force" in again.stderr
    unknown = run("eject", "cards/shortnews", "--site", example_site)
    assert unknown.returncode != 0 and 'did you mean "cards/short_news"' in unknown.stderr


def test_help_explains_every_command(run):
    top = run("--help")
    assert top.returncode == 0
    for command in ["build", "check", "explain", "config", "templates", "eject"]:
        assert command in top.stdout
    build = run("build", "--help").stdout
    for option in ["--output", "--now", "--page-size", "--strict", "--quiet"]:
        assert option in build


def test_a_ci_log_is_not_told_to_open_the_site_in_a_browser(run, tmp_path):
    site = write_cards(tmp_path / "s", [{"id": "a", "type": "text_announcement", "created": 1, "description": "Hi"}])
    for ci in ("true", "1", "woodpecker"):
        result = run("build", site, "--now", "2", env={"CI": ci})
        assert result.returncode == 0, result.stderr
        assert "in a browser" not in result.stdout, ci
        # Nothing after the files written but what the build cache gave (Summary.cacheLines).
        after = result.stdout.split("\nWrote ", 1)[1].splitlines()[1:]
        assert all(line.startswith(("Reused ", "note: ")) for line in after), (ci, result.stdout)
    assert "in a browser" in run("build", site, "--now", "2", env={"CI": "false"}).stdout


def test_the_help_examples_keep_their_columns_at_80_columns(run):
    top = run("--help", env={"COLUMNS": "80"}).stdout.splitlines()
    examples = top[top.index("Examples:") + 1:]
    examples = examples[:examples.index("")]
    # Within 72 columns, so that the man page, which indents them by 5 more, keeps them whole too.
    assert len(examples) == 8 and all(line.startswith("  cardfeed ") and len(line) <= 72 for line in examples), examples


def test_bash_completes_the_built_in_template_names_after_eject(run):
    script = run("--generate-completion-script", "bash").stdout
    eject = script[script.index("_cardfeed_eject()"):]
    eject = eject[:eject.index("\n}\n")]
    assert "cards/short_news" in eject and "card_page" in eject, eject


def test_without_proc_commands_read_their_arguments_and_never_succeed_silently(cardfeed_bin, tmp_path):
    """Swift reads CommandLine.arguments from /proc/self/cmdline on Linux: in a chroot or container
    without /proc every command saw no arguments, printed the help and exited 0. Run here in a
    mount namespace whose /proc is unmounted (Tests/Package/test_fresh_root.py runs the packaged
    binary in a root without /proc)."""
    import shutil
    if not shutil.which("unshare") or subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode != 0:
        pytest.skip("unshare -m is not allowed here (needs root)")
    site = tmp_path / "site"
    site.mkdir()
    (site / "cards.json").write_text('[{"id": "a", "type": "text_announcement", "created": 1, "description": "Hello"}]')

    def without_proc(*args):
        script = 'umount -l /proc && test ! -e /proc/self && exec "$@"'
        return subprocess.run(["unshare", "-m", "sh", "-c", script, "sh", str(cardfeed_bin), *map(str, args)],
                              capture_output=True, text=True, timeout=120)

    for _ in range(3):
        built = without_proc("build", site, "-o", tmp_path / "out", "--now", "2")
        assert built.returncode == 0 and (tmp_path / "out" / "index.html").is_file(), built.stdout + built.stderr
        assert "USAGE" not in built.stdout.upper(), built.stdout
        checked = without_proc("check", tmp_path / "missing", "--strict")
        assert checked.returncode != 0 and "USAGE" not in checked.stdout.upper(), checked.stdout + checked.stderr
        assert "Illegal instruction" not in checked.stderr and checked.returncode > 0
        version = without_proc("--version")
        assert version.returncode == 0 and version.stdout.strip() == (REPO / "VERSION").read_text().strip(), version.stdout


def test_config_prints_each_setting_with_where_it_came_from(run, tmp_path):
    site = write_cards(tmp_path / "s", [{"id": "a", "type": "text_announcement", "created": 1, "description": "Hi"}])
    (site / "cardfeed.yml").write_text("title: Brewline\n\npage_size: 7\ntimezone: Europe/Berlin\n")
    text = run("config", site, "--page-size", "3", "--now", "2026-11-20")
    assert text.returncode == 0, text.stderr
    rows = {line.split()[0]: line.split() for line in text.stdout.splitlines()[1:]}
    assert rows["title"] == ["title", "Brewline", "cardfeed.yml:1"]
    assert rows["timezone"] == ["timezone", "Europe/Berlin", "cardfeed.yml:4"]
    assert rows["page_size"] == ["page_size", "3", "--page-size"]
    assert rows["now"] == ["now", "2026-11-19T23:00:00Z", "--now"]
    assert rows["future"] == ["future", "show", "default"]
    data = json.loads(run("config", site, "--json").stdout)
    settings = {setting["key"]: setting for setting in data["settings"]}
    assert settings["page_size"] == {"key": "page_size", "value": 7, "source": "cardfeed.yml:3", "default": "20",
                                     "type": "whole number, 0 or more", "option": "--page-size", "in_file": True,
                                     "help": "Cards a page, on average; 0 puts each feed on one page."}
    assert settings["base_url"]["value"] is None and settings["base_url"]["source"] == "default"
    assert settings["strict"]["value"] is False and settings["description"]["option"] is None
    assert not any(f["written"] for f in data["output_formats"] if f["needs_base_url"]), "no base URL, no feed files"


def test_config_reports_the_files_errors(run, tmp_path):
    site = write_cards(tmp_path / "s", [])
    (site / "cardfeed.yml").write_text("page_sise: 7\n")
    result = run("config", site)
    assert result.returncode == 1 and result.stdout == ""
    assert 'cardfeed.yml:1:1: field "page_sise": unknown key (did you mean "page_size"?)' in result.stderr
