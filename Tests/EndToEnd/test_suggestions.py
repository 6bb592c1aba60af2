"""Every name a user types gets "did you mean" with the closest one or two, by one rule
(`Suggestion`, held to a table in SuggestionTests), and every message starts with `error:` or
`warning:`, ArgumentParser's option errors too (issue 57)."""
import json

NOW = "2026-11-20"


def make_site(folder, config=""):
    folder.mkdir(parents=True)
    cards = [{"id": "sale-en", "type": "short_news", "created": 1, "description": "x", "categories": ["nwes"]},
             {"id": "sale-de", "type": "short_news", "created": 1, "description": "x"},
             {"id": "odd", "type": "captioned_imag", "created": 1, "description": "x"}]
    (folder / "cards.json").write_text(json.dumps(cards))
    (folder / "cardfeed.yml").write_text(config)
    return folder


def test_card_ids_cut_short_or_mistyped_get_the_closest_one_or_two(run, tmp_path):
    site = make_site(tmp_path / "site")
    cut = run("explain", "sale", site, "--now", NOW)
    assert cut.returncode == 1
    assert 'No card "sale" in the site: no card file has an entry with this id (did you mean "sale-de" or "sale-en"?).' in cut.stdout, cut.stdout
    data = json.loads(run("explain", "sale-enn", site, "--now", NOW, "--diagnostics", "json").stdout)
    assert data["suggestion"] == "sale-en" and data["suggestions"] == ["sale-en"]


def test_card_types_and_categories_in_cards_get_a_suggestion(run, tmp_path):
    result = run("check", make_site(tmp_path / "site"), "--now", NOW)
    assert 'field "type": unknown type "captioned_imag" (did you mean "captioned_image"?); the types are ' in result.stderr, result.stderr
    assert 'field "categories": unknown category "nwes" (did you mean "news"?); the categories are ' in result.stderr


def test_names_in_cardfeed_yml_get_a_suggestion(run, tmp_path):
    config = ("placements:\n  home-hero:\n    feed: al\nrules:\n  - match: {category: nwes, type: captioned_imag}\n"
              "    hide: true\n    keep_out_of: [home-her]\ntitel: x\n")
    result = run("check", make_site(tmp_path / "site", config), "--now", NOW)
    assert result.returncode == 1
    for expected in ['unknown category "nwes" (did you mean "news"?)', 'unknown type "captioned_imag" (did you mean "captioned_image"?)',
                     'no feed "al" in the site (did you mean "all"?)', 'no placement "home-her" (did you mean "home-hero"?)',
                     'unknown key (did you mean "title"?)']:
        assert expected in result.stderr, (expected, result.stderr)
    assert all(line.startswith(("error: ", "warning: ")) for line in result.stderr.splitlines()), result.stderr


def test_a_mistyped_site_folder_gets_the_folders_beside_it(run, tmp_path):
    make_site(tmp_path / "my-site")
    result = run("build", "my-sit", cwd=tmp_path)
    assert result.returncode != 0
    assert result.stderr.startswith("error: no site folder my-sit (did you mean \"my-site\"? Or create one with `cardfeed init my-sit`)"), result.stderr
    far = run("build", tmp_path / "elsewhere")
    assert "did you mean" not in far.stderr and "create one with `cardfeed init" in far.stderr, far.stderr


def test_option_errors_say_error_and_suggest_by_the_same_rule(run, tmp_path):
    for args, first in [(["build", "--strictt"], 'error: unknown option "--strictt" (did you mean "--strict"?)'),
                        (["serve", "--prot", "4000"], 'error: unknown option "--prot" (did you mean "--port"?)'),
                        (["build", "--zzz"], 'error: unknown option "--zzz"'),
                        (["build", "--page-size"], "error: missing value for '--page-size <n>'"),
                        (["explain"], "error: missing expected argument '<card-id>'")]:
        result = run(*args)
        assert result.returncode == 64, result.stderr
        assert result.stderr.splitlines()[0] == first, result.stderr
        assert "Error:" not in result.stderr
