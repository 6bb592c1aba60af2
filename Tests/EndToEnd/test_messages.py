"""Messages as a user reads them: cards counted from 1 with their line and column, step lines
and diagnostics in the order they happen when piped, wording that fits the command, did-you-mean
for a command, case-insensitive locales, plural forms, and rule warnings once per rule."""
import json
import re
import subprocess

from conftest import write_cards


def card(i, **extra):
    return {"id": f"c{i}", "type": "text_announcement", "created": i + 1, "description": "d", **extra}


def test_card_warnings_count_from_1_and_give_line_and_column(run, tmp_path):
    site = tmp_path / "w"
    site.mkdir()
    (site / "cards.json").write_text(
        '[\n  {"id": "ok", "type": "text_announcement", "created": 1, "description": "d"},\n'
        '  {"id": "x1", "type": "captioned_image", "created": 1,\n   "title": "t", "description": "d"}\n]\n')
    (site / "cards").mkdir()
    (site / "cards" / "sync.json").write_text('{"full_sync": true,\n "cards": [\n    {"id": "y", "tp": "zzz"}]}')
    result = run("check", site)
    assert result.returncode == 0, result.stderr
    assert ('warning: w/cards.json:3:3: card 2 (id "x1"): field "image": missing (required for captioned_image cards); '
            "the placeholder image is shown") in result.stderr.splitlines()
    # A field that is there: its key's line and column; a missing one (above): the card's.
    assert re.search(r'^warning: w/cards/sync\.json:3:17: card 1 \(id "y"\): field "tp": unknown type', result.stderr, re.M), result.stderr


def test_a_card_fields_warning_points_at_the_fields_key_in_every_form(run, tmp_path):
    site = tmp_path / "f"
    site.mkdir()
    (site / "cards.json").write_text(
        '[\n'
        '  {"id": "a", "type": "captioned_image", "created": 1,\n'
        '   "title": "T", "description": "d",\n'
        '   "image": "missing.png",\n'
        '   "extras": {"campaign": "x",\n'
        '              "background_color": "red;"},\n'
        '   "viewed": "maybe", "viewed": "yes"},\n'
        '  {"id": "b", "tp": "text_announcement", "ca": 4000000000, "ds": "d", "titel": "t"}\n'
        ']\n')
    result = run("check", site, "--now", "1790000000", "--diagnostics", "json")
    assert result.returncode == 0, result.stderr
    found = {(d["id"], d["field"]): (d["line"], d["column"]) for d in map(json.loads, result.stderr.splitlines())}
    assert found[("a", "image")] == (4, 4), found
    # Inside an object: the key of the extra.
    assert found[("a", "extras.background_color")] == (6, 15), found
    # A repeated key: the last, whose value counts.
    assert found[("a", "viewed")] == (7, 23), found
    # A message that names the long key of a card written in short keys: the short key.
    assert found[("b", "created")] == (8, 42), found
    assert found[("b", "titel")] == (8, 71), found
    text = run("check", site, "--now", "1790000000").stderr
    assert 'warning: f/cards.json:6:15: card 1 (id "a"): field "extras.background_color": ' in text, text
    github = run("check", site, "--now", "1790000000", env={"GITHUB_ACTIONS": "true"}).stdout
    assert "::warning file=f/cards.json,line=6,col=15,title=cardfeed::card 1 (id \"a\"): field \"extras.background_color\"" in github, github


def test_piped_output_keeps_the_order_things_happen_in(cardfeed_bin, tmp_path):
    site = tmp_path / "p"
    (site / "cards").mkdir(parents=True)
    (site / "cards" / "a.json").write_text(json.dumps([card(0, type="captioned_image", title="t")]))
    (site / "cards" / "b.json").write_text("[{")
    # One pipe for both streams, as a CI log has it.
    result = subprocess.run([str(cardfeed_bin), "build", site], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, timeout=60)
    lines = result.stdout.splitlines()
    assert result.returncode == 1
    assert lines[0].startswith("[1/4] Load cards: 1 entry from 2 files"), lines
    # In file order: a.json's warning, then b.json's error.
    assert lines[1].startswith('warning: p/cards/a.json:1:2: card 1 (id "c0")'), lines
    assert lines[2].startswith("error: p/cards/b.json:1:3: invalid JSON"), lines
    assert lines[-1] == "error: build failed with 1 error and 1 warning; nothing was written.", lines


def test_check_strict_says_check_not_build(run, tmp_path):
    site = write_cards(tmp_path / "s", [card(0, type="captioned_image", title="t")])
    result = run("check", site, "--strict")
    assert result.returncode == 1
    assert "build failed" not in result.stderr
    assert result.stderr.splitlines()[-1] == "error: check found 1 error (--strict counts warnings as errors)."


def test_misspelled_command_gets_a_did_you_mean(run):
    result = run("biuld")
    assert result.returncode == 64
    assert 'unknown command "biuld" (did you mean "build"?)' in result.stderr
    assert "the commands are build, check, explain, config, serve, init, templates, eject" in result.stderr
    assert 'did you mean "check"' in run("chekc").stderr
    # `help` with a misspelt command is the same mistake, and gets the same error.
    helped = run("help", "biuld")
    assert (helped.returncode, helped.stderr, helped.stdout) == (64, result.stderr, "")
    # So is a misspelt word after a command's name: no command has commands of its own.
    extra = run("help", "build", "biuld")
    assert (extra.returncode, extra.stdout) == (64, ""), extra
    assert extra.stderr == 'error: unexpected "biuld" after `cardfeed help build`: build has no commands of its own; did you mean `cardfeed help build`?\n'
    other = run("help", "build", "chekc")
    assert other.returncode == 64 and "did you mean `cardfeed help check`?" in other.stderr, other.stderr
    assert "see `cardfeed help build`" in run("help", "build", "zzzzzz").stderr


def test_locale_names_are_case_insensitive(run, tmp_path):
    site = write_cards(tmp_path / "l", [card(0, categories=["news"])])
    result = run("build", site, "--locale", "DE", "-q")
    assert result.returncode == 0, result.stderr
    assert '<html lang="de"' in (site / "public" / "index.html").read_text()
    (site / "strings").mkdir()
    (site / "strings" / "nl.json").write_text('{"feedAll": "Alles"}')
    (site / "cardfeed.yml").write_text("locale: NL\n")
    mixed = run("build", site, "-q")
    assert mixed.returncode == 0, mixed.stderr
    page = (site / "public" / "index.html").read_text()
    assert '<html lang="nl"' in page and "Alles" in page


def reviews(page):
    """The review counts of the page's cross promotions, in order."""
    return re.findall(r'<span class="card__reviews">\(([^)<]*)\)</span>', page)


def test_plural_forms_follow_the_language(run, tmp_path):
    counts = [0, 1, 2, 3, 5, 11, 22, 100]
    site = write_cards(tmp_path / "n", [
        {"id": f"app{n}", "type": "cross_promotion_small", "created": 1000 - i, "title": "App", "subtitle": "Tools",
         "caption": "Get", "image": "https://x.test/i.png", "price": 0, "url": "https://x.test/app", "rating": 4, "reviews": n}
        for i, n in enumerate(counts)])

    def build(*options):
        result = run("build", site, *options, "-q")
        assert result.returncode == 0, result.stderr
        assert "unknown string" not in result.stderr
        return reviews((site / "public" / "index.html").read_text())

    assert build()[:2] == ["0 reviews", "1 review"]  # not "1 reviews"
    # German: 0 is plural ("0 Bewertungen"); Arabic has all six of CLDR's forms.
    assert build("--locale", "de")[:2] == ["0 Bewertungen", "1 Bewertung"]
    assert build("--locale", "ar") == ["لا توجد مراجعات", "مراجعة واحدة", "مراجعتان", "3 مراجعات", "5 مراجعات", "11 مراجعة", "22 مراجعة", "100 مراجعة"]
    # A site's own language with CLDR's few and many forms (Polish).
    (site / "strings").mkdir()
    (site / "strings" / "pl.json").write_text(json.dumps({
        "reviewsOne": "{count} recenzja", "reviewsFew": "{count} recenzje", "reviewsMany": "{count} recenzji"}))
    assert build("--locale", "pl") == ["0 recenzji", "1 recenzja", "2 recenzje", "3 recenzje", "5 recenzji", "11 recenzji", "22 recenzje", "100 recenzji"]


def test_a_rule_warns_once_with_a_count_and_the_first_ids(run, tmp_path):
    site = write_cards(tmp_path / "r", [card(i) for i in range(8)])
    (site / "cardfeed.yml").write_text(
        'rules:\n  - name: Bad link\n    match:\n      type: text_announcement\n    set:\n      url: "javascript:x"\n'
        '  - name: Nothing\n    match:\n      id: nope\n    pin: true\n')
    result = run("check", site)
    warnings = [line for line in result.stderr.splitlines() if "Bad link" in line]
    assert len(warnings) == 1, result.stderr
    assert '(for 8 cards: "c0", "c1", "c2", "c3", "c4", …)' in warnings[0]
    assert "the rule matches no card" in result.stderr
    # With a card file that cannot be read, "matches no card" would be wrong: left out.
    (site / "cards").mkdir()
    (site / "cards" / "broken.json").write_text("[")
    broken = run("check", site)
    assert broken.returncode == 1
    assert "matches no card" not in broken.stderr


def test_diagnostics_json_one_object_a_line(run, tmp_path):
    site = tmp_path / "j"
    site.mkdir()
    (site / "cards.json").write_text('[\n  {"id": "x\\"1", "type": "captioned_image", "created": 1, "title": "t", "description": "d"}\n]')
    result = run("check", site, "--diagnostics", "json")
    assert result.returncode == 0
    objects = [json.loads(line) for line in result.stderr.splitlines()]
    assert objects == [{
        "severity": "warning", "file": "j/cards.json", "line": 2, "column": 3, "card": 1, "id": 'x"1',
        "field": "image", "message": "missing (required for captioned_image cards); the placeholder image is shown"}]
    strict = run("check", site, "--diagnostics", "json", "--strict")
    assert strict.returncode == 1
    assert [json.loads(line)["severity"] for line in strict.stderr.splitlines()] == ["error"]
    (site / "cards.json").write_text("[\n  {")
    broken = run("build", site, "--diagnostics", "json")
    assert broken.returncode == 1
    [error] = [json.loads(line) for line in broken.stderr.splitlines()]
    assert (error["severity"], error["file"], error["line"], error["card"]) == ("error", "j/cards.json", 2, None)
    missing = run("build", tmp_path / "nowhere", "--diagnostics", "json")
    assert missing.returncode == 1
    assert json.loads(missing.stderr)["message"].startswith("no site folder")


def test_github_actions_gets_workflow_commands(cardfeed_bin, tmp_path):
    import os
    site = tmp_path / "g"
    site.mkdir()
    (site / "cards.json").write_text('[\n  {"id": "a,b", "type": "captioned_image", "created": 1, "title": "t", "description": "50%\\nx"}\n]')
    env = dict(os.environ, GITHUB_ACTIONS="true")
    result = subprocess.run([str(cardfeed_bin), "check", "g", "--strict", "-q"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        '::error file=g/cards.json,line=2,col=3,title=cardfeed::card 1 (id "a,b"): field "image": '
        "missing (required for captioned_image cards); the placeholder image is shown"]
    plain = subprocess.run([str(cardfeed_bin), "check", "g", "-q"], cwd=tmp_path, capture_output=True, text=True,
                           env={k: v for k, v in os.environ.items() if k != "GITHUB_ACTIONS"}, timeout=60)
    assert "::" not in plain.stdout
    assert subprocess.run([str(cardfeed_bin), "check", "g", "-q"], cwd=tmp_path, capture_output=True, text=True,
                          env=dict(os.environ, GITHUB_ACTIONS="true"), timeout=60).stdout.startswith("::warning file=g/cards.json,line=2")
    # An id holding terminal escapes is shown escaped in the annotation too (the job log is a terminal).
    (site / "cards.json").write_text('[\n  {"id": "a\\u001b[31mred\\u0007", "type": "captioned_image", "created": 1, "title": "t"}\n]')
    annotated = subprocess.run([str(cardfeed_bin), "check", "g", "-q"], cwd=tmp_path, capture_output=True, text=True,
                               env=dict(os.environ, GITHUB_ACTIONS="true"), timeout=60).stdout
    assert '(id "a\\u{1b}[31mred\\u{7}")' in annotated, annotated
    assert "\x1b" not in annotated and "\x07" not in annotated


def test_rule_diagnostics_have_a_file_line_and_column_in_every_form(cardfeed_bin, tmp_path):
    import os
    site = write_cards(tmp_path / "r", [card(0)])
    (site / "cardfeed.yml").write_text(
        'title: R\nrules:\n  - name: Nothing\n    match:\n      id: nope\n    pin: true\n'
        '  - name: Bad link\n    match: {id: c0}\n    set: {url: "javascript:x"}\n')
    env = {k: v for k, v in os.environ.items() if k != "GITHUB_ACTIONS"}
    text = subprocess.run([str(cardfeed_bin), "check", "r", "-q"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert 'r/cardfeed.yml:3:5: field "Nothing": the rule matches no card' in text.stderr, text.stderr
    assert 'r/cardfeed.yml:7:5: field "Bad link: set.url":' in text.stderr, text.stderr
    as_json = subprocess.run([str(cardfeed_bin), "check", "r", "-q", "--diagnostics", "json"], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=60)
    places = [(o["file"], o["line"], o["column"]) for o in map(json.loads, as_json.stderr.splitlines())]
    assert places == [("r/cardfeed.yml", 7, 5), ("r/cardfeed.yml", 3, 5)] or places == [("r/cardfeed.yml", 3, 5), ("r/cardfeed.yml", 7, 5)], places
    github = subprocess.run([str(cardfeed_bin), "check", "r", "-q"], cwd=tmp_path, capture_output=True, text=True,
                            env=dict(env, GITHUB_ACTIONS="true"), timeout=60)
    annotations = github.stdout.splitlines()
    assert any(line.startswith("::warning file=r/cardfeed.yml,line=3,col=5,") for line in annotations), annotations
    assert any(line.startswith("::warning file=r/cardfeed.yml,line=7,col=5,") for line in annotations), annotations


def test_messages_lead_to_the_fix(run, tmp_path):
    site = write_cards(tmp_path / "m", [{"id": "x", "type": "text_announcement", "created": 1, "description": "d",
                                         "url": "brewline://offer"}])
    negative = run("build", site, "--page-size", "-1")
    assert negative.returncode != 0 and "--page-size must be 0 (one page) or more, not -1" in negative.stderr, negative.stderr
    german = run("build", site, "--locale", "german")
    assert german.returncode != 0 and '"german" is not a language tag' in german.stderr and 'did you mean "de"?' in german.stderr
    (site / "cardfeed.yml").write_text("title: T\nlocale: Deutsch\n")
    deutsch = run("check", site, "-q")
    assert 'm/cardfeed.yml:2:9: field "locale": "Deutsch" is not a language tag' in deutsch.stderr, deutsch.stderr
    assert 'did you mean "de"?' in deutsch.stderr and "strings/" not in deutsch.stderr
    (site / "cardfeed.yml").write_text("title: Bean & Bloom: Coffee\n")
    colon = run("check", site, "-q")
    assert 'a value holding ": " must be quoted' in colon.stderr, colon.stderr
    # A broken cardfeed.yml holds the card warnings back: its app_schemes would have allowed the link.
    (site / "cardfeed.yml").write_text("title: A\ntitle: B\nlinks:\n  app_schemes: [brewline]\n")
    twice = run("check", site, "-q")
    assert "a key is given twice: title" in twice.stderr
    assert "brewline:" not in twice.stderr and "1 card warning is held back" in twice.stderr, twice.stderr
    (site / "cardfeed.yml").write_text("title: T\n")
    deep = run("check", site, "-q")
    assert "allow it with `links: {app_schemes: [brewline]}` in cardfeed.yml" in deep.stderr, deep.stderr
    eject = run("eject", "short_news", site)
    assert eject.returncode == 1 and 'did you mean "cards/short_news"?' in eject.stderr, eject.stderr
    built = run("build", site, "--now", "2")
    assert "Render pages: 1 card, " in built.stdout, built.stdout


def test_a_warning_each_card_gets_is_one_line_on_a_terminal_and_one_entry_a_card_for_tools(run, tmp_path):
    # 30 cards dated after --now and 4 banners without image_alt, in one file.
    cards = [card(i, created=2000 + i) for i in range(30)] + [
        {"id": f"banner{i}", "type": "banner_image", "created": 10 + i, "image": "https://x.test/b.png"} for i in range(4)]
    site = write_cards(tmp_path / "f", cards)
    text = run("check", site, "--now", "1000", "-q", env={"GITHUB_ACTIONS": None})
    assert text.returncode == 0, text.stderr
    lines = text.stderr.splitlines()
    assert len(lines) == 2, lines
    future, banners = sorted(lines, key=lambda line: "image_alt" in line)
    assert re.match(r'^warning: .*cards\.json:\d+:\d+: 30 cards \(card 1 \(id "c0"\), card 2 \(id "c1"\), card 3 \(id "c2"\), …\): '
                    r'field "created": dated after the build\'s time \(1970-01-01T00:16:40Z, --now\); shown at the top', future), future
    assert re.match(r'^warning: .*cards\.json:\d+:\d+: 4 cards \(card 31 \(id "banner0"\), card 32 \(id "banner1"\), card 33 \(id "banner2"\), …\): '
                    r'field "image_alt": missing: a banner\'s image is all it shows', banners), banners

    as_json = run("check", site, "--now", "1000", "-q", "--diagnostics", "json", env={"GITHUB_ACTIONS": None})
    entries = [json.loads(line) for line in as_json.stderr.splitlines()]
    assert len(entries) == 34
    assert all(entry["card"] is not None and entry["id"] is not None and entry["line"] is not None for entry in entries), entries
    assert [entry["id"] for entry in entries if entry["field"] == "created"] == [f"c{i}" for i in range(30)]
    assert entries[0]["message"].startswith("dated 1970-01-01T00:33:20Z, after the build's time")
    assert [entry["id"] for entry in entries if entry["field"] == "image_alt"] == [f"banner{i}" for i in range(4)]

    github = run("check", site, "--now", "1000", "-q", env={"GITHUB_ACTIONS": "true"})
    commands = [line for line in github.stdout.splitlines() if line.startswith("::warning ")]
    assert len(commands) == 34 and all("::card " in command for command in commands), commands


def test_warnings_whose_words_differ_by_card_are_one_line_each_on_a_terminal(run, tmp_path):
    # Each kind three times, its words different for each card (the card's value): over 2 KB,
    # HTML changed, a blank link with a domain, a number written as text, a table.
    kinds = {
        "2 KB": lambda i: {"description": "x" * (2100 + i)},
        "HTML changed": lambda i: {"description": f"<{['script', 'iframe', 'object'][i]}>x</{['script', 'iframe', 'object'][i]}> d"},
        "blank": lambda i: {"url": " " * (i + 1), "domain": f"d{i}.example"},
        "number written as text": lambda i: {"aspect_ratio": f"1.{i}"},
        "Markdown table": lambda i: {"description": "\n" * i + "a | b\n--|--\n1 | 2"},
    }
    cards = [dict(card(len(kinds) * i + n), **make(i)) for i in range(3) for n, make in enumerate(kinds.values())]
    site = write_cards(tmp_path / "k", cards)
    text = run("check", site, "-q", env={"GITHUB_ACTIONS": None})
    assert text.returncode == 0, text.stderr
    lines = text.stderr.splitlines()
    for kind in kinds:
        said = [line for line in lines if kind in line]
        assert len(said) == 1 and ": 3 cards (" in said[0], (kind, lines)
    assert len(lines) == len(kinds), lines
    entries = [json.loads(line) for line in run("check", site, "-q", "--diagnostics", "json", env={"GITHUB_ACTIONS": None}).stderr.splitlines()]
    assert len(entries) == 3 * len(kinds) and all(entry["card"] and entry["id"] for entry in entries), entries
    assert len({entry["message"] for entry in entries}) == 3 * len(kinds), "each card's own words"


def test_a_blank_link_is_warned_about_as_the_rules_leave_the_card(run, tmp_path):
    # A rule gives card "fixed" its link: no warning; another gives card "named" a domain, which
    # its blank link then hides: a warning.
    cards = [dict(card(0), id="fixed", url="  ", domain="a.example"), dict(card(1), id="named", url="  "),
             dict(card(2), id="left", url="  ", domain="c.example")]
    site = write_cards(tmp_path / "r", cards)
    (site / "cardfeed.yml").write_text(
        "rules:\n  - name: Link\n    match: {id: fixed}\n    set: {url: 'https://a.example/'}\n"
        "  - name: Name\n    match: {id: named}\n    set: {domain: b.example}\n")
    entries = [json.loads(line) for line in run("check", site, "-q", "--diagnostics", "json").stderr.splitlines()]
    blank = [entry for entry in entries if "blank, so the card has no link" in entry["message"]]
    assert [(entry["id"], entry["card"], entry["field"], entry["line"] is not None) for entry in blank] == [
        ("named", 2, "url", True), ("left", 3, "url", True)], entries
    assert '("b.example")' in blank[0]["message"], blank


def test_a_summary_counts_cards_not_warnings(run, tmp_path):
    # Card a names the unknown category twice, card b once: two cards, not three warnings.
    cards = [dict(card(0), id="a", categories=["bogus", "bogus"]), dict(card(1), id="b", categories=["bogus"])]
    text = run("check", write_cards(tmp_path / "two", cards), "-q", env={"GITHUB_ACTIONS": None})
    lines = [line for line in text.stderr.splitlines() if "bogus" in line]
    assert len(lines) == 1 and '2 cards (card 1 (id "a"), card 2 (id "b"))' in lines[0], lines
    # One card's two warnings alike are its own lines, not "2 cards" of one card.
    alone = run("check", write_cards(tmp_path / "one", cards[:1]), "-q", env={"GITHUB_ACTIONS": None})
    lines = [line for line in alone.stderr.splitlines() if "bogus" in line]
    assert len(lines) == 2 and all('card 1 (id "a")' in line and " cards (" not in line for line in lines), lines
