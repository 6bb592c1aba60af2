"""Links in descriptions (issue 31, item 6): a bare address becomes a link, as GitHub's autolink
extension makes one, and `links.new_tab` reaches every link of a card, its description's too."""
import json
import re

from conftest import write_cards

NOW = "1795000000"


def card(id, description, **fields):
    return {"id": id, "type": "text_announcement", "created": 1790000000, "description": description, **fields}


def card_html(page: str, id: str) -> str:
    match = re.search(rf'<article[^>]*data-card-id="{re.escape(id)}".*?</article>', page, re.S)
    assert match, f"no card {id} in the page"
    return match.group(0)


def test_a_bare_address_becomes_a_link_but_not_in_code_links_or_html(run, tmp_path):
    site = write_cards(tmp_path / "site", [
        card("bare", "Order at https://shop.example/order?id=7&size=m. Or visit www.shop.example (open daily)."),
        card("paren", "The menu (https://shop.example/menu_(autumn)) is new."),
        card("code", "Run `curl https://api.example/x` or\n\n```\nhttps://block.example\n```"),
        card("linked", "[https://label.example](https://target.example) and <a href=\"https://html.example\">https://inner.example</a>"),
        card("raw", "<div>https://raw.example</div>"),
        card("plain", "No address here: just a colon, and www without a dot."),
    ])
    result = run("build", site, "--now", NOW, "--base-url", "https://x.example/")
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr, result.stderr
    page = (site / "public" / "index.html").read_text()
    bare = card_html(page, "bare")
    assert '<a href="https://shop.example/order?id=7&amp;size=m">https://shop.example/order?id=7&amp;size=m</a>.' in bare, bare
    assert '<a href="http://www.shop.example">www.shop.example</a> (open daily)' in bare, bare
    assert '(<a href="https://shop.example/menu_(autumn)">https://shop.example/menu_(autumn)</a>) is new' in card_html(page, "paren")
    code = card_html(page, "code")
    assert "<code>curl https://api.example/x</code>" in code and "https://block.example\n</code>" in code
    assert "<a href" not in code.split('class="card__description"')[1].split("</div>")[0], code
    linked = card_html(page, "linked")
    assert '<a href="https://target.example">https://label.example</a>' in linked, linked
    assert '<a href="https://html.example">https://inner.example</a>' in linked, linked
    assert 'href="https://raw.example' not in card_html(page, "raw")
    assert "<a" not in card_html(page, "plain").split('class="card__description"')[1].split("</div>")[0]
    # The feeds carry the description as the page shows it.
    items = {item["id"].split("#card-")[1]: item for item in json.loads((site / "public" / "feed.json").read_text())["items"]}
    assert '<a href="http://www.shop.example">www.shop.example</a>' in items["bare"]["content_html"]


def test_new_tab_reaches_every_link_of_a_card(run, tmp_path):
    site = write_cards(tmp_path / "site", [
        card("mixed", "See [the offer](https://partner.example/offer \"Offer\"), https://partner.example/bare, "
                      "<a href=\"https://partner.example/html\">html</a> and [ours](https://own.example/x) or www.partner.example.",
             url="https://partner.example/card", domain="partner.example"),
    ])
    (site / "cardfeed.yml").write_text('links:\n  new_tab: ["partner.example", "www.partner.example"]\n')
    result = run("build", site, "--now", NOW, "-q")
    assert result.returncode == 0, result.stderr
    html = card_html((site / "public" / "index.html").read_text(), "mixed")
    new_tab = 'target="_blank" rel="noopener"'
    # The card's own link, as before.
    assert f'href="https://partner.example/card" {new_tab}' in html, html
    # Every link of its description to a host new_tab names: Markdown, bare and HTML.
    assert f'<a href="https://partner.example/offer" title="Offer" {new_tab}>the offer</a>' in html, html
    assert f'<a href="https://partner.example/bare" {new_tab}>https://partner.example/bare</a>' in html, html
    assert f'<a href="https://partner.example/html" {new_tab}>html</a>' in html, html
    assert f'<a href="http://www.partner.example" {new_tab}>www.partner.example</a>' in html, html
    # Other hosts open where they are.
    assert '<a href="https://own.example/x">ours</a>' in html, html
