"""Small input cannot make big work. Template work is bounded: however the templates include
each other, `check` and `build` end quickly with an error naming the card (or page), the template
and the limit, never a crash of the stack or gigabytes of output (docs/security.md, "Template work
is bounded"). The pass that keeps a description's allowed HTML tags takes time in proportion to
the description."""
import json
import re
import subprocess
from pathlib import Path

import pytest

from conftest import write_cards

CARD = {"id": "amp", "type": "text_announcement", "created": 1790000000, "title": "T", "description": "d"}


def checked(run, site, *extra):
    result = run("check", site, "--now", "1795000000", *extra)
    assert result.returncode in (0, 1), f"crashed with status {result.returncode}:\n{result.stderr[-3000:]}"
    assert "Fatal error" not in result.stderr and "Stack dump" not in result.stderr, result.stderr[-3000:]
    return result


def site_with_templates(tmp_path, templates: dict) -> Path:
    site = write_cards(tmp_path / "site", [CARD])
    for name, text in templates.items():
        path = site / "templates" / f"{name}.mustache"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return site


def chain(count, end="end"):
    """partials/p0 includes p1, which includes p2 ... up to p<count>."""
    templates = {f"partials/p{i}": "{{>partials/p%d}}" % (i + 1) for i in range(count)}
    templates[f"partials/p{count}"] = end
    return templates


@pytest.mark.slow
def test_a_chain_of_20000_partials_is_an_error_not_a_crash(run, tmp_path):
    # Once a SIGSEGV: the linter searched the chain recursively, from every template in turn.
    site = site_with_templates(tmp_path, {**chain(20_000), "cards/text_announcement": "<article>{{>partials/p0}}</article>"})
    result = checked(run, site)
    assert result.returncode == 1
    # At the partial tag that went past the limit, in the template before the last.
    assert ('error: site/cards.json:1:2: card 1 (id "amp"): in site/templates/partials/p199.mustache:1:1: '
            "templates nest more than 200 deep (… > partials/p195 > partials/p196 > partials/p197 > partials/p198 > partials/p199 > partials/p200)") in result.stderr, result.stderr


@pytest.mark.slow
def test_a_cycle_of_20000_partials_is_one_error_at_its_first_template(run, tmp_path):
    templates = chain(19_999, end="{{>partials/p0}}")
    site = site_with_templates(tmp_path, {**templates, "cards/text_announcement": "<article>{{>partials/p0}}</article>"})
    result = checked(run, site)
    assert result.returncode == 1
    errors = [line for line in result.stderr.splitlines() if "includes itself whatever the data" in line]
    assert len(errors) == 1, result.stderr[-3000:]
    assert errors[0].startswith("error: site/templates/partials/p0.mustache:1:1: this template includes itself whatever the data "
                                "({{>partials/p1}} then {{>partials/p2}} then"), errors[0][:300]


def doubling(count, leaf):
    """partials/a<count> includes a<count-1> twice, which includes a<count-2> twice ... down to a0."""
    templates = {f"partials/a{i}": "{{>partials/a%d}}{{>partials/a%d}}" % (i - 1, i - 1) for i in range(1, count + 1)}
    templates["partials/a0"] = leaf
    return templates


def test_partials_that_double_at_each_step_stop_at_the_size_limit_of_a_card(run, tmp_path):
    # 31 partials of 35 bytes once wrote a gigabyte for one card.
    site = site_with_templates(tmp_path, {**doubling(31, "x" * 4096), "cards/text_announcement": "<article>{{>partials/a31}}</article>"})
    result = checked(run, site)
    assert result.returncode == 1
    # a0 is text alone: the error is at the tag that included it, the second of a1 (the 2048th
    # 4 KB goes past 8 MB).
    assert ('error: site/cards.json:1:2: card 1 (id "amp"): in site/templates/partials/a1.mustache:1:17: '
            "the templates wrote more than 8 MB (… > partials/a5 > partials/a4 > partials/a3 > partials/a2 > partials/a1 > partials/a0), the limit for a card") in result.stderr, result.stderr
    built = run("build", site, "--now", "1795000000")
    assert built.returncode == 1 and "the limit for a card" in built.stderr
    assert not (site / "public").exists()


def test_partials_that_write_nothing_stop_at_the_step_limit_of_a_card(run, tmp_path):
    site = site_with_templates(tmp_path, {
        **doubling(40, "{{#title}}{{/title}}"), "cards/text_announcement": "<article>{{>partials/a40}}</article>"})
    result = checked(run, site)
    assert result.returncode == 1
    assert re.search(r'card 1 \(id "amp"\): in site/templates/partials/a\d+\.mustache:1:(1|17): ', result.stderr), result.stderr
    assert "the templates took more than 1000000 steps (… > partials/a6 > partials/a5 > partials/a4 > partials/a3 > partials/a2 > partials/a1)" in result.stderr, result.stderr
    assert "the limit for a card" in result.stderr


def test_the_page_template_has_its_own_limit(run, tmp_path):
    site = site_with_templates(tmp_path, {**doubling(31, "x" * 4096), "page": "<html>{{>partials/a31}}{{#cards}}{{{.}}}{{/cards}}</html>"})
    result = checked(run, site)
    assert result.returncode == 1
    assert ("error: site/templates/partials/a1.mustache:1:17: the templates wrote more than 16 MB (… > partials/a5 > partials/a4 > partials/a3 > partials/a2 > partials/a1 > partials/a0), "
            "the limit for a page") in result.stderr, result.stderr


def test_what_the_page_template_writes_for_each_card_is_limited_too(run, tmp_path):
    site = site_with_templates(tmp_path, {**doubling(31, "x" * 4096), "page": "<html>{{#cards}}<li>{{>partials/a31}}</li>{{/cards}}</html>"})
    result = checked(run, site)
    assert result.returncode == 1
    assert ("error: site/templates/partials/a1.mustache:1:17: the templates wrote more than 16 MB (… > partials/a5 > partials/a4 > partials/a3 > partials/a2 > partials/a1 > partials/a0), "
            "the limit for a page") in result.stderr, result.stderr


@pytest.mark.slow
@pytest.mark.parametrize("description", [
    pytest.param("<b>" * 20_000, id="unclosed-inline"),  # unwound in quadratic time: 9.7 s of CPU for one card
    pytest.param("<div>" * 12_000, id="unclosed-block"),
    pytest.param("<i>" * 7_000 + "</b>" * 7_000, id="closing-nothing"),  # each closing tag searched for
    pytest.param("".join(f"<x{i}>" for i in range(8_000)), id="many-tag-names"),  # a note each, each looked up in a list
])
def test_allowed_html_costs_time_in_proportion_to_the_description(cardfeed_bin, tmp_path, description):
    """12 cards of 60 KB of HTML took two minutes; now seconds, even in a debug build. The
    timeout is only a guard against a hang."""
    cards = [{**CARD, "id": f"html-{n}", "description": description} for n in range(12)]
    site = write_cards(tmp_path / "site", cards)
    result = subprocess.run([str(cardfeed_bin), "build", site, "--now", "1795000000", "-q", "--diagnostics", "json"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr[-3000:]
    page = (site / "public" / "index.html").read_text()
    assert page.count('data-card-id="html-') == 12
    # What was shown as text is named, for every card (a terminal says it once for the 12).
    warned = {entry["id"] for entry in map(json.loads, result.stderr.splitlines()) if entry["field"] == "description"}
    assert warned == {f"html-{n}" for n in range(12)}, warned
