"""Every kind of diagnostic in every form (issue 31): broken sites (cards, rules, cardfeed.yml,
templates, strings, assets, the output) checked with `--diagnostics text`, `--diagnostics json`
and, as in a GitHub Actions job, the workflow commands on standard output. Each diagnostic has
its file, and its line and column wherever the input has a place for it, the same in all three
forms; the GitHub form is one GitHub attaches to the file (`file=` holds the path alone, never
`%3A`)."""
import json
import re

import pytest

from broken_sites import SITES

# Each kind of diagnostic the build makes (every `Diagnostic(` of Sources/), the site that makes
# it, and the words that find it. With a place: line and column are required in every form.
PLACED = [
    # Card files, at the card's "{" or at its field's key.
    ("card-site", r"^invalid JSON: "),
    ("card-site", r"^expected a card object, found a number; skipped$"),
    ("card-site", r"^missing; every card needs an id"),
    ("card-site", r'^unknown type "weird"'),
    ("card-site", r"^missing; the card is skipped$"),
    ("card-site", r"^missing \(required for (captioned_image|text_announcement) cards\)"),
    ("card-site", r"^expected text, found a number; used as text$"),
    ("card-site", r'^boolean written as text "yes"'),
    ("card-site", r'^unknown key \(did you mean "title"\?\)'),
    ("card-site", r"is not a CSS colour"),
    ("card-site", r"is not a template name"),
    ("card-site", r'^unknown category "nonsense"'),
    ("card-site", r'^"someday" is not a time'),
    ("card-site", r'^the scheme "javascript:" is not allowed'),
    ("card-site", r"^no file assets/images/none.png in the site; the placeholder image is shown$"),
    ("card-site", r"^HTML changed: "),
    ("card-site", r'^the link "ftp://x.example/a": '),
    ("card-site", r'^the image "images/nope.png": no file'),
    ("card-site", r"makes a Markdown table"),
    ("card-site", r"over Braze's 2 KB limit"),
    ("card-site", r"over the 64 KB a card may hold"),
    ("card-site", r"^has no title, description, link or image"),
    ("card-site", r"is outside 0 to 5"),
    ("card-site", r"^same id and update time as "),
    ("card-site", r"^removes card \"ok\", which no earlier sync sent"),
    ("card-site", r"after the build's time .* shown at the top"),
    ("card-site", r"^no template templates/cards/missing.mustache in the site"),
    ("card-site", r"^missing: a banner's image is all it shows"),
    # Envelopes: at the key, or at the value.
    ("card-site", r'^the file\'s cards are read from \{"feed"'),
    ("card-site", r"^a list of cards under a key that is no envelope"),
    ("card-site", r"^expected a list of cards, found a number$"),
    ("card-site", r"^expected a card, a list of cards or an envelope .*, found a number$"),
    ("card-site", r"^expected true or false, found text; read as an incremental sync$"),
    ("rules", r"^its anchor would be the same as that of card"),
    # cardfeed.yml: libyaml's place, or the key's.
    ("yaml-syntax", r"^invalid YAML: mapping values are not allowed.* must be quoted"),
    ("yaml-duplicate", r"^a key is given twice: title$"),
    ("yaml-bomb", r"an alias bomb"),
    ("held-back", r"^invalid YAML: "),
    ("config-keys", r'^unknown key \(did you mean "page_size"\?\)'),
    ("config-keys", r"^expected a whole number$"),
    ("config-keys", r'^unknown time zone "Mars/Olympus"'),
    ("config-keys", r'^"german" is not a language tag'),
    ("config-keys", r"^must be an http or https address"),
    ("config-keys", r'^"https://partner.example/offers" is not a host'),
    ("config-keys", r"^unknown key; known keys here: type, category, id, extras$"),
    ("config-keys", r"^unknown key; known keys here: aspect_ratio"),
    # Rules: at the rule.
    ("rules", r"^the rule matches no card$"),
    ("rules", r'^the scheme "javascript:" is not allowed.*\(for 1 card: "a"\)$'),
    ("rules", r"^no file assets/images/none.png in the site.*\(for 1 card: \"a\"\)$"),
    # Templates: at the tag; a card's rendering, at the card (its message names the tag); a
    # page's rendering, at the tag.
    ("template-syntax", r"^template syntax: "),
    ("template-lint", r'^\{\{titel\}\} names "titel"'),
    ("template-lint", r'^no template named "partials/nope"'),
    ("template-lint", r"names no block of \"builtin.page\""),
    ("template-lint", r"^\{\{#cards\}\} inside \{\{#cards\}\}"),
    ("template-lint", r"^this template includes itself whatever the data"),
    ("render-budget", r"^in render-budget/templates/cards/text_announcement\.mustache:1:\d+: the templates took more than 1000000 steps"),
    ("render-page", r"^templates include each other without end \(… > partials/footer > partials/footer"),
    # Strings: at the key, or at the value.
    ("strings-syntax", r"^invalid JSON: "),
    ("strings-shape", r'^expected an object of "key": "text" pairs, found a list$'),
    ("strings-site", r'^unknown string \(did you mean "emptyFeed"\?\)'),
    ("strings-site", r"^expected text, found a number; ignored$"),
    # The site's feeds and the descriptions' format: at the key or the value.
    ("feeds-config", r"^must be markdown \(descriptions are Markdown\) or text"),
    ("feeds-config", r'^"Summer Deals" is not a slug \(did you mean "summer-deals"\?\)'),
    ("feeds-config", r'^unknown key \(did you mean "title"\?\); known keys here: slug, title, category, extras$'),
    ("feeds-config", r"^has no title: "),
    ("feeds-config", r'^unknown category "newz" \(did you mean "news"\?\)'),
    ("feeds-config", r'^"offers" is also the slug of feeds\[2\] \(line 7\)'),
    ("feeds-and-text", r'^the feed "offers" matches no card: no card has feed: ofers \(did you mean "offers"\?\)'),
    # A card's language and format: at the value.
    ("feeds-and-text", r'^"html" is not a format: give markdown or text'),
    ("feeds-and-text", r'^"english" is not a language tag .*\(did you mean "en"\?\); ignored$'),
    ("feeds-and-text", r'^"pt_BR" is not a language tag .*\(did you mean "pt-BR"\?\); ignored$'),
]

# Kinds with no line by nature, and why.
UNPLACED = [
    ("no-cards", r"^no card files", "the site has no card file: there is no text to point into"),
    ("card-site", r"^the file is empty", "the file has no text"),
    ("card-site", r"^is a symbolic link to \"nowhere.json\"", "a folder entry, not text, is what is wrong"),
    ("assets-site", r"leads round in a loop", "a folder entry, not text, is what is wrong"),
    ("assets-site", r"^would be copied to index.html", "a file of static/ is copied as bytes; its path is what collides"),
    ("yaml-not-utf8", r"^cannot read the file as UTF-8 text$", "the file cannot be read as text, so it has no lines"),
    ("yaml-duplicate", r"card warnings? (is|are) held back", "about the whole file: its errors, with their lines, are what hold them back"),
    ("held-back", r"card warnings? (is|are) held back", "about the whole file: its errors, with their lines, are what hold them back"),
    ("template-syntax", r"^the template is not UTF-8 text$", "the file cannot be read as text, so it has no lines"),
    ("template-syntax", r'^names starting with "builtin" are reserved', "the file's name is what is wrong"),
    ("strings-site", r"^no translation for ", "about strings the file does not have"),
    ("strings-missing", r'^no strings for the locale "xx"', "the file it needs does not exist"),
    ("output", r"holds files that cardfeed did not write", "about a folder"),
    ("base-url", r'^"nope" must be an http or https address', "a command-line option, not a file"),
    ("missing-site", r"^no site folder: it does not exist", "the folder does not exist"),
    ("not-a-site", r"^not a site: it has no cardfeed.yml", "the folder is not a site; the file names it, the message does not again"),
]
# Not made here: failures of the system rather than of the input, which a test cannot bring
# about portably (a card file, template or strings file that cannot be read, a folder that
# cannot be listed, a write that fails), and the strings' "locale" error, which `--locale` and
# cardfeed.yml's `locale` check first. None of them has a place in a file's text either.


@pytest.fixture(scope="module")
def reports(cardfeed_bin, tmp_path_factory):
    """Each site's diagnostics in the three forms: JSON objects, text lines, workflow commands."""
    import os
    import subprocess
    root = tmp_path_factory.mktemp("broken")
    for name, (fill, _, _) in SITES.items():
        if fill:
            (root / name).mkdir()
            fill(root / name)
    without_github = {k: v for k, v in os.environ.items() if k != "GITHUB_ACTIONS"}
    results = {}
    for name, (_, arguments, command) in SITES.items():
        def run(*extra, github=False):
            env = dict(without_github, GITHUB_ACTIONS="true") if github else without_github
            return subprocess.run([str(cardfeed_bin), command, name, *arguments, *extra], cwd=root,
                                  capture_output=True, text=True, timeout=120, env=env)
        as_json = run("--diagnostics", "json")
        as_text = run("--diagnostics", "text")
        as_github = run("--diagnostics", "text", "-q", github=True)
        for result in (as_json, as_text, as_github):
            assert result.returncode in (0, 1), f"{name}: status {result.returncode}\n{result.stderr[-2000:]}"
        results[name] = (
            [json.loads(line) for line in as_json.stderr.splitlines()],
            as_text.stderr.splitlines(),
            [line for line in as_github.stdout.splitlines() if line.startswith("::")],
        )
    return results


def text_form(d):
    """The line `--diagnostics text` prints for the JSON object `d`."""
    line = f'{d["severity"]}: {d["file"]}'
    if d["line"] is not None:
        line += f':{d["line"]}' + (f':{d["column"]}' if d["column"] is not None else "")
    if d["card"] is not None:
        line += f': card {d["card"]}' + (f' (id "{d["id"]}")' if d["id"] is not None else "")
    if d["field"] is not None:
        line += f': field "{d["field"]}"'
    return line + ": " + d["message"]


def github_form(d):
    """The workflow command GitHub Actions reads for the JSON object `d`."""
    properties = [f'file={d["file"]}'] + ([f'line={d["line"]}'] if d["line"] is not None else []) \
        + ([f'col={d["column"]}'] if d["column"] is not None else []) + ["title=cardfeed"]
    text = ""
    if d["card"] is not None:
        text += f'card {d["card"]}' + (f' (id "{d["id"]}")' if d["id"] is not None else "") + ": "
    if d["field"] is not None:
        text += f'field "{d["field"]}": '
    text += d["message"].replace("%", "%25")
    return f'::{d["severity"]} {",".join(properties)}::{text}'


def find(reports, site, pattern):
    found = [d for d in reports[site][0] if re.search(pattern, d["message"])]
    assert found, f"{site}: no diagnostic matches {pattern!r}:\n" + "\n".join(d["message"] for d in reports[site][0])
    return found


@pytest.mark.parametrize("site, pattern", PLACED, ids=[p for _, p in PLACED])
def test_a_diagnostic_with_a_place_has_its_line_and_column_in_every_form(reports, site, pattern):
    for d in find(reports, site, pattern):
        assert d["line"] is not None and d["column"] is not None, d
        assert d["line"] >= 1 and d["column"] >= 1, d
        assert text_form(d) in reports[site][1], f"{text_form(d)}\nnot in\n" + "\n".join(reports[site][1])
        assert github_form(d) in reports[site][2], f"{github_form(d)}\nnot in\n" + "\n".join(reports[site][2])


@pytest.mark.parametrize("site, pattern, why", UNPLACED, ids=[p for _, p, _ in UNPLACED])
def test_a_diagnostic_without_a_place_names_its_file_in_every_form(reports, site, pattern, why):
    for d in find(reports, site, pattern):
        assert d["line"] is None and d["column"] is None, f"{d} has a place after all ({why})"
        assert d["file"], d
        if site in ("missing-site", "not-a-site"):
            # No site to work on: the text is a sentence of its own, which names the folder once
            # (and once more in the command it suggests), as the other forms do with their file.
            [text] = reports[site][1]
            assert text.startswith(f"error: no site folder {site} (") or text.startswith(f"error: {site} is not a site: "), text
            assert text.count(site) == 2 and d["message"].count(site) == 1, (text, d["message"])
        else:
            assert text_form(d) in reports[site][1]
        assert github_form(d) in reports[site][2]


def test_every_diagnostic_of_the_broken_sites_is_one_of_the_kinds_listed(reports):
    patterns = {}
    for site, pattern in PLACED:
        patterns.setdefault(site, []).append(pattern)
    for site, pattern, _ in UNPLACED:
        patterns.setdefault(site, []).append(pattern)
    unlisted = [f"{site}: {d['message']}" for site, (diagnostics, _, _) in reports.items()
                for d in diagnostics if not any(re.search(p, d["message"]) for p in patterns.get(site, []))]
    assert not unlisted, "\n".join(unlisted)


def test_github_can_attach_every_annotation(reports):
    for site, (diagnostics, _, commands) in reports.items():
        assert len(commands) == len(diagnostics), site
        for command in commands:
            match = re.match(r"^::(warning|error) file=([^,:]*)(,line=\d+)?(,col=\d+)?,title=cardfeed::", command)
            assert match, command
            assert "%3A" not in match.group(2) and "%2C" not in match.group(2), command
