"""A template that fails while it renders (a partial that includes itself without end, templates
nested too deep, a budget of bytes or steps passed) names the template's file and the line and
column of the tag it failed at, as the user knows the file (SITE/templates/..., or the built-in's
name), in the text and the JSON forms. A card's failure stays at the card and names the tag in
its message; a page's is at the tag."""
import json

import pytest

from conftest import write_cards

CARD = {"id": "amp", "type": "text_announcement", "created": 1790000000, "title": "T", "description": "d",
        "categories": ["news", "advertising", "announcements", "social"]}
IMAGE_CARD = {"id": "pic", "type": "captioned_image", "created": 1790000000, "title": "T", "description": "d",
              "image": "https://x.example/a.png", "image_alt": "a"}
SIX = lambda name: " > ".join([name] * 6)  # noqa: E731 (the end of a trail of one template)

# name: (cards, config, templates, the error's JSON object, the message)
CASES = {
    # The partial tag that recursed (line 2, after "  {{#title}}"), not the section around it.
    "recursion": ([CARD], "", {
        "partials/loop": "<b>\n  {{#title}}{{>partials/loop}}{{/title}}\n</b>\n",
        "cards/text_announcement": "<article>\n{{>partials/loop}}\n</article>\n",
    }, {"file": "site/cards.json", "line": 1, "column": 2, "card": 1, "id": "amp"},
        f"in site/templates/partials/loop.mustache:2:13: templates include each other without end (… > {SIX('partials/loop')}) (deeper than 200)"),
    # No template twice: the partial tag of p199 that would enter p200 past the limit.
    "depth": ([CARD], "", {
        **{f"partials/p{i}": "p%d {{>partials/p%d}}" % (i, i + 1) for i in range(200)}, "partials/p200": "end",
        "cards/text_announcement": "<article>{{>partials/p0}}</article>",
    }, {"file": "site/cards.json", "line": 1, "column": 2, "card": 1, "id": "amp"},
        "in site/templates/partials/p199.mustache:1:6: templates nest more than 200 deep "
        "(… > partials/p195 > partials/p196 > partials/p197 > partials/p198 > partials/p199 > partials/p200)"),
    # The site's image partial is text alone: the tag that included it, in the built-in card.
    "bytes": ([IMAGE_CARD], "", {"partials/image": "0123456789abcdef" * ((8 << 20) // 16 + 1)},
              {"file": "site/cards.json", "line": 1, "column": 2, "card": 1, "id": "pic"},
              "in (built-in) templates/cards/captioned_image.mustache:4:26: the templates wrote more than 8 MB "
              "(cards/captioned_image > card > partials/image), the limit for a card"),
    # 4^10 passes through "x": the millionth step is that text, in the tenth section.
    "steps": ([CARD], "", {
        "cards/text_announcement": "<article>" + "{{#categories}}" * 10 + "x" + "{{/categories}}" * 10 + "</article>\n",
    }, {"file": "site/cards.json", "line": 1, "column": 2, "card": 1, "id": "amp"},
        "in site/templates/cards/text_announcement.mustache:1:145: the templates took more than 1000000 steps "
        "(cards/text_announcement), the limit for a card"),
    # A page's partial: the diagnostic is at the tag.
    "page": ([CARD], "title: Pages\ncard_pages: false\n", {
        "partials/footer": "<footer>\n  {{#title}}{{>partials/footer}}{{/title}}\n</footer>\n",
    }, {"file": "site/templates/partials/footer.mustache", "line": 2, "column": 13, "card": None, "id": None},
        f"templates include each other without end (… > {SIX('partials/footer')}) (deeper than 200)"),
}


def site(tmp_path, cards, config, templates):
    folder = write_cards(tmp_path / "site", cards)
    if config:
        (folder / "cardfeed.yml").write_text(config)
    for name, text in templates.items():
        path = folder / "templates" / f"{name}.mustache"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return folder


def text_line(place, message):
    line = f'error: {place["file"]}:{place["line"]}:{place["column"]}'
    if place["card"] is not None:
        line += f': card {place["card"]} (id "{place["id"]}")'
    return f"{line}: {message}"


@pytest.mark.parametrize("name", list(CASES))
def test_a_render_error_names_the_tag_in_text_and_json(run, tmp_path, name):
    cards, config, templates, place, message = CASES[name]
    folder = site(tmp_path, cards, config, templates)
    out = tmp_path / "out"
    as_text = run("build", folder, "--output", out, "--now", "1800000000", "--diagnostics", "text")
    as_json = run("build", folder, "--output", out, "--now", "1800000000", "--diagnostics", "json")
    assert as_text.returncode == 1 and as_json.returncode == 1, as_text.stderr[-2000:]
    errors = [line for line in as_text.stderr.splitlines() if line.startswith("error: site/")]
    assert errors == [text_line(place, message)], as_text.stderr[-2000:]
    objects = [json.loads(line) for line in as_json.stderr.splitlines() if line.startswith("{")]
    assert [o for o in objects if o["severity"] == "error"] == [
        {"severity": "error", **place, "field": None, "message": message}], as_json.stderr[-2000:]
    assert not out.exists()


def test_a_page_error_is_a_github_annotation_at_the_tag(run, tmp_path):
    cards, config, templates, place, message = CASES["page"]
    folder = site(tmp_path, cards, config, templates)
    result = run("check", folder, "-q", env={"GITHUB_ACTIONS": "true"})
    assert result.returncode == 1
    assert (f"::error file=site/templates/partials/footer.mustache,line=2,col=13,title=cardfeed::{message}"
            in result.stdout.splitlines()), result.stdout
