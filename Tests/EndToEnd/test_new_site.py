"""A site that `cardfeed init` makes is ready for what the docs add to it: each YAML block of
README.md and docs/*.md marked `<!-- adds to a new site -->` (languages, placements, search, a
rule) is appended, as printed, to a fresh site's cardfeed.yml, which then builds with --strict:
no error and no warning. The blocks are read from the docs, so the docs and the scaffold cannot
drift apart."""
import re
import shutil

import pytest

from conftest import REPO

MARK = "<!-- adds to a new site -->"
# What the docs must show can be added to a new site; a block whose marker is lost fails here.
EXPECTED_KEYS = {"languages", "placements", "search", "rules"}


def blocks() -> list[tuple[str, int, str]]:
    """(file, line, YAML) of each marked block."""
    found = []
    for path in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        marks = re.findall("^" + re.escape(MARK) + "$", text, flags=re.M)
        blocks_here = list(re.finditer("^" + re.escape(MARK) + r"\n```yaml\n(.*?)\n```", text, flags=re.S | re.M))
        assert len(marks) == len(blocks_here), f"{path.name}: a {MARK} line not right before a ```yaml block"
        for match in blocks_here:
            found.append((str(path.relative_to(REPO)), text.count("\n", 0, match.start()) + 1, match.group(1)))
    return found


def test_the_docs_mark_an_example_of_each_capability():
    keys = {key for _, _, block in blocks() for key in re.findall(r"^([a-z_]+):", block, flags=re.M)}
    assert EXPECTED_KEYS <= keys, f"no marked example of {sorted(EXPECTED_KEYS - keys)}"


@pytest.fixture(scope="module")
def fresh_site(tmp_path_factory, cardfeed_bin):
    import subprocess
    folder = tmp_path_factory.mktemp("init") / "my-site"
    made = subprocess.run([str(cardfeed_bin), "init", str(folder)], capture_output=True, text=True, timeout=60)
    assert made.returncode == 0, made.stderr
    return folder


def test_a_new_site_builds_strictly_as_it_is(run, fresh_site, tmp_path):
    site = shutil.copytree(fresh_site, tmp_path / "site")
    result = run("build", site, "--strict", "--now", "1795000000")
    assert result.returncode == 0 and "warning" not in result.stderr, result.stderr


@pytest.mark.parametrize("block", blocks(), ids=lambda b: f"{b[0]}:{b[1]}")
def test_each_marked_example_adds_to_a_new_site(run, fresh_site, tmp_path, block):
    where, line, yaml = block
    site = shutil.copytree(fresh_site, tmp_path / "site")
    with open(site / "cardfeed.yml", "a", encoding="utf-8") as settings:
        settings.write("\n" + yaml + "\n")
    result = run("build", site, "--strict", "--now", "1795000000")
    assert result.returncode == 0, f"{where}:{line}'s example on a new site:\n{result.stderr}"
    assert "warning" not in result.stderr, f"{where}:{line}'s example on a new site warns:\n{result.stderr}"
    assert (site / "public" / "index.html").is_file()


def test_init_writes_the_base_url_it_is_given_and_refuses_one_that_is_none(run, tmp_path):
    made = run("init", tmp_path / "with", "--base-url", "https://example.org/news/")
    assert made.returncode == 0, made.stderr
    assert "\nbase_url: https://example.org/news/\n" in (tmp_path / "with" / "cardfeed.yml").read_text()
    assert "set base_url" not in made.stdout
    built = run("build", tmp_path / "with", "-q")
    assert built.returncode == 0 and (tmp_path / "with" / "public" / "rss.xml").is_file(), built.stderr
    without = run("init", tmp_path / "without")
    assert "# base_url: " in (tmp_path / "without" / "cardfeed.yml").read_text()
    assert "Then set base_url in " in without.stdout, without.stdout
    refused = run("init", tmp_path / "refused", "--base-url", "example.org")
    assert refused.returncode == 1 and "--base-url" in refused.stderr and '"https://example.org"' in refused.stderr, refused.stderr
    assert not (tmp_path / "refused").exists(), "nothing is written for a refused base URL"
