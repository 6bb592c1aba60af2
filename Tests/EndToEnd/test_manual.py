"""`cardfeed --help` and `man cardfeed` match the product: each names every command in one line
and the three newest capabilities (search, placements, languages), and the man page, made by
swift-argument-parser's generate-manual plugin from the same help text (scripts/man-page.sh, as
scripts/package.sh ships it), has no Markdown left in it, read as `man` renders it (man-db)."""
import json
import os
import re
import shutil
import subprocess

import pytest

from conftest import REPO

COMMANDS = ["build", "check", "explain", "serve", "init", "templates", "eject", "cache"]
CAPABILITIES = {"search": r"search: true\s+a search box", "placements": r"placements:\s+a feed's newest cards",
                "languages": r"languages: \[[a-z, ]+\]\s+a tree of pages per language"}
# Markdown a plain-text reader would see as punctuation: code spans, strong and emphasis, links,
# headings. (A glob such as cards/**/*.json is no emphasis.)
MARKDOWN = re.compile(r"`|\*\*\w|\w\*\*|(?<![\w/*])\*\w[^*\n]*\w\*(?![\w*/])|\]\(|^\s*#{1,6} ", re.M)


def help_texts(value, where="command"):
    """Every text of `--experimental-dump-help`, the description generate-manual reads, with where it is."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from help_texts(item, f"{where}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from help_texts(item, f"{where}[{index}]")
    elif isinstance(value, str):
        yield where, value


def test_the_help_text_has_no_markdown(run):
    dump = json.loads(run("--experimental-dump-help").stdout)
    found = [f"{where}: …{text[max(0, m.start() - 30):m.end() + 30]}…"
             for where, text in help_texts(dump) for m in MARKDOWN.finditer(text)]
    assert found == [], "\n".join(found)


def test_help_names_every_command_and_the_newest_capabilities_in_a_line_each(run):
    top = run("--help", env={"COLUMNS": "80"}).stdout
    listed = top[top.index("SUBCOMMANDS:"):].splitlines()[1:]
    for command in COMMANDS:
        line = next((i for i, text in enumerate(listed) if re.match(rf"  {command}\s+\S", text)), None)
        assert line is not None, f"--help lists no {command}:\n{top}"
        assert not listed[line + 1].startswith(" " * 10), f"{command}'s line in --help runs over two:\n{top}"
    for name, pattern in CAPABILITIES.items():
        assert len(re.findall(rf"^  {pattern}[^\n]*$", top, flags=re.M)) == 1, f"--help names no {name} in a line:\n{top}"


@pytest.mark.slow
def test_the_man_page_reads_as_plain_text(tmp_path):
    """The plugin's run takes some 20 s (its tool is built once); man-db renders the page."""
    for tool in ("man", "lexgrog"):
        assert shutil.which(tool), f"{tool} is missing: scripts/setup.sh installs man-db"
    made = subprocess.run(["bash", str(REPO / "scripts" / "man-page.sh"), str(tmp_path), "2026-11-23"],
                          capture_output=True, text=True, timeout=600)
    assert made.returncode == 0, made.stderr[-3000:]
    page = tmp_path / "cardfeed.1"
    rendered = subprocess.run(["man", "-l", str(page)], capture_output=True, text=True, timeout=60,
                              env={**os.environ, "MANWIDTH": "80", "MAN_KEEP_FORMATTING": "", "MANPAGER": "cat", "PAGER": "cat"})
    assert rendered.returncode == 0 and rendered.stderr == "", rendered.stderr
    text = re.sub(r".\x08", "", rendered.stdout)  # bold and underline, as a terminal shows them
    found = [f"…{text[max(0, m.start() - 40):m.end() + 40]}…" for m in MARKDOWN.finditer(text)]
    assert found == [], "Markdown left in man cardfeed:\n" + "\n".join(found)
    # Each command's entry starts with its name and its one-line summary, then a blank line.
    for command in COMMANDS:
        entry = re.search(rf"^ {{5}}{command}(?: +(\S[^\n]*)\n(\n| {{5}}\S)|\n {{13}}(\S[^\n]*)\n\n)", text, flags=re.M)
        assert entry, f"man cardfeed has no one-line entry for {command}"
    for name, pattern in CAPABILITIES.items():
        assert len(re.findall(rf"^ +{pattern}[^\n]*$", text, flags=re.M)) == 1, f"man cardfeed names no {name} in a line"
    whatis = subprocess.run(["lexgrog", str(page)], capture_output=True, text=True, timeout=60)
    assert whatis.returncode == 0 and '"cardfeed - Turn Braze card JSON' in whatis.stdout, whatis.stdout + whatis.stderr
