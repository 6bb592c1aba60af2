"""How every command finds its site: an optional positional argument, else the current folder
when it is a site (cardfeed.yml, cards.json or a cards/ folder of card files, and not a site's own
folder), else ./site."""
import json
import re

from conftest import write_cards

CARD = {"id": "a", "type": "text_announcement", "created": 1, "description": "Hello"}


def test_build_inside_a_site_builds_the_current_folder_and_says_so(run, tmp_path):
    site = write_cards(tmp_path / "my-site", [CARD])
    result = run("build", "--now", "2", cwd=site)
    assert result.returncode == 0, result.stderr
    assert (site / "public" / "index.html").is_file()
    assert not (site / "site").exists()
    assert result.stdout.splitlines()[0] == "Site: the current folder (it has cards.json)."
    checked = run("check", cwd=site)
    assert checked.returncode == 0, checked.stderr
    assert "Site: the current folder" in checked.stdout


def test_each_marker_makes_the_current_folder_a_site(run, tmp_path):
    for marker in ["cardfeed.yml", "cards.json", "cards"]:
        # Not named "cards": a folder of that name holding cards/ is a site's own cards/ folder.
        folder = tmp_path / ("site-with-" + marker.replace(".", "-"))
        folder.mkdir()
        if marker == "cards":
            write_cards(folder / "cards", [CARD])
        elif marker == "cards.json":
            write_cards(folder, [CARD])
        else:
            (folder / "cardfeed.yml").write_text("title: T\n")
        result = run("check", cwd=folder)
        assert "Site: the current folder" in result.stdout, (marker, result.stdout, result.stderr)


def test_without_a_site_here_the_default_is_site_and_the_message_says_where_it_looked(run, tmp_path):
    write_cards(tmp_path / "site", [CARD])
    result = run("build", "-q")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "site" / "public" / "index.html").is_file()
    named = run("check")
    assert named.stdout.splitlines()[0] == "Site: site/ (the current folder has no cardfeed.yml, cards.json or a cards/ folder of card files)."
    empty = tmp_path / "empty"
    empty.mkdir()
    missing = run("build", cwd=empty)
    assert missing.returncode == 1
    assert "no site here" in missing.stderr and "cardfeed init ." in missing.stderr
    assert "cardfeed init site" not in missing.stderr  # would not nest a site in a site
    assert not list(empty.iterdir())


def test_a_sites_own_folders_and_output_are_not_sites_and_the_message_names_the_site(run, tmp_path):
    assert run("init", "coffee").returncode == 0
    assert run("eject", "cards/short_news", "coffee").returncode == 0  # templates/ now holds cards/
    assert run("build", "coffee", "-q").returncode == 0
    for folder, role in [("templates", "the templates/ folder"), ("cards", "the cards/ folder"), ("public", "the output folder")]:
        for command in (["build"], ["check"], ["eject", "cards/text_announcement"], ["templates"]):
            result = run(*command[:1], *command[1:], f"coffee/{folder}")
            assert result.returncode == 1, (command, folder, result.stdout)
            assert f"coffee/{folder} is not a site" in result.stderr and f"it is {role} of the site coffee" in result.stderr, result.stderr
    inside = run("eject", "cards/short_news", cwd=tmp_path / "coffee" / "templates")
    assert inside.returncode == 1 and "the current folder is the templates/ folder of the site" in inside.stderr, inside.stderr
    assert not (tmp_path / "coffee" / "templates" / "templates").exists()
    assert not (tmp_path / "coffee" / "templates" / "public").exists()
    assert not (tmp_path / "coffee" / "cards" / "public").exists()
    empty = tmp_path / "empty"
    empty.mkdir()
    refused = run("build", empty)
    assert refused.returncode == 1 and "empty is not a site" in refused.stderr and "cardfeed init empty" in refused.stderr
    assert not list(empty.iterdir())


def test_init_dot_in_an_empty_folder_or_one_with_only_dotfiles_then_build(run, tmp_path):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / ".gitignore").write_text("public/\n")
    made = run("init", ".", cwd=repo)
    assert made.returncode == 0, made.stderr
    assert "Next: cardfeed serve " in made.stdout and "cardfeed build " in made.stdout
    assert (repo / "cardfeed.yml").is_file()
    assert (repo / ".gitignore").read_text() == "public/\n"
    built = run("build", "-q", cwd=repo)
    assert built.returncode == 0, built.stderr
    assert (repo / "public" / "index.html").is_file()
    again = run("init", ".", cwd=repo)
    assert again.returncode == 1
    assert "is a site already" in again.stderr
    assert "Usage" not in again.stderr
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "notes.txt").write_text("mine")
    refused = run("init", busy)
    assert refused.returncode == 1 and "notes.txt" in refused.stderr
    assert sorted(p.name for p in busy.iterdir()) == ["notes.txt"]


def test_init_refuses_a_folder_inside_a_sites_own_folders_naming_the_site(run, tmp_path):
    """A site made in my-site/cards/sub would have its cards read as my-site's (duplicate ids),
    one in my-site/public/ would be replaced by the next build: init refuses, naming the site,
    at any depth and through a symbolic link, and writes nothing."""
    site = write_cards(tmp_path / "my-site", [CARD])
    for folder in ["cards", "templates", "assets", "static", "strings", "public"]:
        (site / folder).mkdir(exist_ok=True)
    (tmp_path / "link").symlink_to(site / "templates")
    targets = [site / "cards" / "sub", site / "templates" / "x", site / "assets" / "images" / "new", site / "static" / "s",
               site / "strings" / "s", site / "public" / "p", site / "cards", tmp_path / "link" / "deep" / "er", site / "unbuilt-output" / "x"]
    (site / "unbuilt-output").mkdir()
    (site / "unbuilt-output" / ".cardfeed-output").write_text("")
    for target in targets:
        result = run("init", target)
        assert result.returncode == 1, (target, result.stdout)
        assert "is inside the " in result.stderr and "of the site " in result.stderr and "my-site" in result.stderr, result.stderr
        assert "Usage" not in result.stderr
        assert not (target / "cardfeed.yml").exists()
    assert not (site / "cards" / "sub").exists() and not (site / "templates" / "x").exists()
    # Beside the site, or in a folder of its own that is none of those, is fine.
    assert run("init", tmp_path / "other").returncode == 0
    assert run("init", site / "docs" / "example").returncode == 0


def test_init_without_a_folder_creates_site(run, tmp_path):
    made = run("init")
    assert made.returncode == 0, made.stderr
    assert (tmp_path / "site" / "cardfeed.yml").is_file()
    assert "Next: cardfeed serve site" in made.stdout and "cardfeed build site" in made.stdout


def test_an_init_site_passes_strict_check_once_its_sample_cards_are_replaced(run, tmp_path):
    made = run("init", "coffee")
    assert made.returncode == 0, made.stderr
    site = tmp_path / "coffee"
    ignored = [line for line in (site / ".gitignore").read_text().splitlines() if not line.startswith("#")]
    assert ignored == ["/public/", "/.cardfeed-cache/"], ignored
    assert (site / "static").is_dir()
    assert "# base_url: https://" in (site / "cardfeed.yml").read_text()
    (site / "cards" / "content-cards.json").unlink()
    (site / "cards.json").write_text(
        '[{"id": "latte", "type": "text_announcement", "created": 1700000000, "title": "Latte", "description": "New"}]')
    checked = run("check", site, "--strict", "-q")
    assert checked.returncode == 0, checked.stderr
    assert checked.stderr == ""


def test_templates_and_eject_take_the_site_as_an_argument_and_inside_a_site(run, example_site):
    listing = run("templates", example_site)
    assert listing.returncode == 0, listing.stderr
    assert re.search(r"^cards/short_news\s+built-in$", listing.stdout, re.M)
    inside = run("eject", "cards/short_news", cwd=example_site)
    assert inside.returncode == 0, inside.stderr
    assert (example_site / "templates" / "cards" / "short_news.mustache").is_file()
    assert not (example_site / "site").exists()
    assert re.search(r"^cards/short_news\s+overridden by ", run("templates", cwd=example_site).stdout, re.M)
    positional = run("eject", "card", example_site)
    assert positional.returncode == 0, positional.stderr
    assert (example_site / "templates" / "card.mustache").is_file()


def test_deprecated_site_option_still_works_but_not_with_the_argument(run, example_site):
    old = run("templates", "--site", example_site)
    assert old.returncode == 0
    assert old.stderr.splitlines() == [f"warning: --site: deprecated, and will go: give the site as the argument instead (`cardfeed templates {example_site}`)"]
    ejected = run("eject", "cards/short_news", "--site", example_site)
    assert f"(`cardfeed eject cards/short_news {example_site}`)" in ejected.stderr, ejected.stderr
    checked = run("check", "--site", example_site, "-q")
    assert checked.returncode == 0 and checked.stderr.count("--site: deprecated") == 1, checked.stderr
    # With --diagnostics json, standard error stays one JSON object a line, the notice too.
    as_json = run("check", "--site", example_site, "-q", "--diagnostics", "json")
    notices = [json.loads(line) for line in as_json.stderr.splitlines()]
    assert as_json.returncode == 0 and [n for n in notices if n["file"] == "--site" and n["severity"] == "warning"], as_json.stderr
    both = run("templates", example_site, "--site", example_site)
    assert both.returncode != 0 and "give the site once" in both.stderr


def test_eject_refuses_a_folder_that_is_not_a_site_and_creates_nothing(run, tmp_path):
    missing = run("eject", "card", tmp_path / "nonexistent")
    assert missing.returncode == 1
    assert "no site folder" in missing.stderr and "nonexistent" in missing.stderr
    assert not (tmp_path / "nonexistent").exists()
    plain = tmp_path / "plain"
    plain.mkdir()
    refused = run("eject", "card", plain)
    assert refused.returncode == 1
    assert "is not a site" in refused.stderr
    assert not list(plain.iterdir())
    stray = run("eject", "card", cwd=plain)
    assert stray.returncode == 1 and not list(plain.iterdir())
    assert not (tmp_path / "site").exists()


def test_eject_errors_exit_1_without_usage_text(run, example_site):
    unknown = run("eject", "cards/shortnews", example_site)
    assert unknown.returncode == 1
    assert 'did you mean "cards/short_news"' in unknown.stderr
    assert "Usage" not in unknown.stderr and "--help" not in unknown.stderr
    assert run("eject", "card", example_site).returncode == 0
    twice = run("eject", "card", example_site)
    assert twice.returncode == 1 and "--force" in twice.stderr and "Usage" not in twice.stderr


def test_serve_inside_a_site_serves_the_current_folder_and_says_so(running, tmp_path):
    site = write_cards(tmp_path / "s", [CARD])
    serve = running("serve", "--port", "0", "-q", cwd=site)
    serve.wait_for(r"^Serving \. at http://127\.0\.0\.1:\d+/")
    assert serve.lines[0].strip() == "Site: the current folder (it has cards.json)."


def test_an_init_site_has_a_real_sample_picture_and_says_whose_it_is(run, tmp_path):
    made = run("init", "coffee")
    assert made.returncode == 0, made.stderr
    site = tmp_path / "coffee"
    png = (site / "assets" / "images" / "sample.png").read_bytes()
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and width >= 600 and width > height, (width, height)
    assert "MIT licence" in (site / "README.md").read_text()
    settings = (site / "cardfeed.yml").read_text()
    for shown in ("ar or he", "image-max-height", "image-position", "column-width", "columns: 1"):
        assert shown in settings, shown
