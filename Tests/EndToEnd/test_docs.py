"""The documentation runs: every relative link and #anchor of README.md and docs/*.md leads
somewhere, every option it names is one `cardfeed` has, and the README's first site (the `sh`
block after `<!-- first-site -->`), pasted whole into a shell, builds and serves with the real
binary."""
import html
import json
import os
import re
import shlex
import signal
import subprocess
import time
import urllib.request
from pathlib import Path
from urllib.parse import unquote

import pytest

from conftest import REPO

DOCUMENTS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
FENCE = re.compile(r"^ {0,12}(`{3,}|~{3,})")
# An inline code span; it may run over a line break (`--host\n  0.0.0.0`), never over a blank line.
SPAN = re.compile(r"(`+)((?:(?!\n[ \t]*\n).)+?)\1", re.S)
OPTION = re.compile(r"(?<![\w-])--[a-z][a-z-]*")


def name(path: Path) -> str:
    return str(path.relative_to(REPO))


def split_fences(text: str) -> tuple[str, list[tuple[int, str]]]:
    """The text with its fenced code blocks blanked out (newlines kept, so that offsets still give
    line numbers), and the lines of those blocks as (line number, text)."""
    lines, blocks, fence = [], [], None
    for number, line in enumerate(text.split("\n"), 1):
        match = FENCE.match(line)
        if fence:
            if match and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence):
                fence = None
            else:
                blocks.append((number, line))
            lines.append("")
        elif match:
            fence = match.group(1)
            lines.append("")
        else:
            lines.append(line)
    return "\n".join(lines), blocks


def prose(text: str) -> str:
    """The text without its code (fenced blocks and inline spans), line numbers kept."""
    return SPAN.sub(lambda m: "\n" * m.group(0).count("\n"), split_fences(text)[0])


def code(text: str) -> list[tuple[int, str]]:
    """The code of the text as (line number, text): each line of a fenced block, each inline span."""
    blanked, blocks = split_fences(text)
    spans = [(blanked.count("\n", 0, m.start()) + 1, " ".join(m.group(2).split())) for m in SPAN.finditer(blanked)]
    return blocks + spans


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: its text without Markdown, lower-case, without punctuation
    but - and _, spaces as -."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links and images: their text
    text = re.sub(r"<[^>]+>", "", text)  # HTML tags
    text = text.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = path.read_text(encoding="utf-8")
    found, seen = set(), {}
    # Headings keep their inline code (`cardfeed serve` is for this machine); fenced blocks are no headings.
    for match in re.finditer(r"^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$", split_fences(text)[0], flags=re.M):
        base = slug(match.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    found.update(re.findall(r"""\b(?:id|name)\s*=\s*["']([^"']+)["']""", prose(text)))
    return found


def links(path: Path) -> list[tuple[int, str]]:
    """(line, target) of every Markdown link and image and every HTML href and src."""
    text = prose(path.read_text(encoding="utf-8"))
    found = []
    patterns = [r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)", r"""\b(?:href|src)\s*=\s*["']([^"']+)["']"""]
    for pattern in patterns:
        for match in re.finditer(pattern, text):
            found.append((text.count("\n", 0, match.start()) + 1, match.group(1)))
    return sorted(found)


def test_the_readme_is_short_and_links_the_docs():
    readme = REPO / "README.md"
    assert len(readme.read_text().splitlines()) <= 200, "README.md should fit on a screen: move detail to docs/"
    assert ("docs/README.md" in [target for _, target in links(readme)]), "README.md links docs/README.md"


def test_the_slugs_follow_github():
    assert slug("Feeds, sitemap and links to cards") == "feeds-sitemap-and-links-to-cards"
    assert slug("1. Replace one card type's look") == "1-replace-one-card-types-look"
    assert slug("cardfeed.yml") == "cardfeedyml"
    assert slug("`cardfeed serve` is for this machine") == "cardfeed-serve-is-for-this-machine"
    assert slug("Broken input is a message, not a crash or a hang") == "broken-input-is-a-message-not-a-crash-or-a-hang"


@pytest.mark.parametrize("path", DOCUMENTS, ids=name)
def test_every_relative_link_and_anchor_leads_somewhere(path):
    problems = []
    for line, target in links(path):
        if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target):
            continue  # http(s), mailto: not fetched
        file_part, _, anchor = target.partition("#")
        destination = (path.parent / unquote(file_part)).resolve() if file_part else path
        where = f"{name(path)}:{line}: link {target!r}"
        if REPO.resolve() not in [destination, *destination.parents]:
            problems.append(f"{where}: leads out of the repository")
        elif not destination.exists():
            problems.append(f"{where}: no file {destination.relative_to(REPO.resolve())}")
        elif anchor:
            if destination.suffix != ".md":
                problems.append(f"{where}: an anchor into a file that is not Markdown")
            elif unquote(anchor) not in anchors(destination):
                near = sorted(a for a in anchors(destination) if a[:4] == anchor[:4])
                problems.append(f"{where}: no heading or id \"{anchor}\" in {name(destination)}"
                                + (f" (there: {', '.join(near)})" if near else ""))
    assert not problems, "\n".join(problems)


def helps(cardfeed_bin) -> dict[str, str]:
    commands = ["build", "check", "explain", "config", "serve", "init", "templates", "eject"]
    texts = {command: subprocess.run([str(cardfeed_bin), command, "--help"], capture_output=True, text=True,
                                     timeout=30).stdout for command in commands}
    texts[""] = subprocess.run([str(cardfeed_bin), "--help"], capture_output=True, text=True, timeout=30).stdout
    # `cache` has commands of its own: its options are theirs.
    texts["cache"] = "".join(subprocess.run([str(cardfeed_bin), *words, "--help"], capture_output=True, text=True, timeout=30).stdout
                             for words in (["cache"], ["cache", "clean"]))
    return texts


# Options the docs name that are not in `--help`: other tools' options, and the deprecated spelling.
NOT_CARDFEEDS = {"--filter": "swift test", "--delete": "rsync", "--site": "templates and eject, deprecated",
                 # the command line the build runs Pagefind with (docs/search.md)
                 "--glob": "pagefind", "--output-path": "pagefind", "--force-language": "pagefind",
                 "--exclude-selectors": "pagefind",
                 # swift-argument-parser's, hidden from --help
                 "--generate-completion-script": "cardfeed, for scripts/package.sh"}
# Code that runs another program first: its options are that program's.
OTHER_PROGRAMS = ("swift ", "bash scripts/", "debootstrap ", "actionlint ", "lintian ", "rsync ", "apt-get ", "sudo ", "pip ", "curl ", "tar ", "pagefind ")


def test_every_option_the_docs_name_is_one_cardfeed_has(cardfeed_bin):
    texts = helps(cardfeed_bin)
    known = set(OPTION.findall(" ".join(texts.values())))
    # Each command's own options, long and short (-o, --output).
    options_of = {command: set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*|-[a-z])\b", text)) for command, text in texts.items()}
    problems = []
    for path in DOCUMENTS:
        for line, snippet in code(path.read_text(encoding="utf-8")):
            for option in [] if snippet.lstrip().startswith(OTHER_PROGRAMS) else OPTION.findall(snippet):
                if option not in known and option not in NOT_CARDFEEDS and not option.startswith(("--cf-", "--cardfeed-")):
                    problems.append(f"{name(path)}:{line}: {option} is no option of cardfeed ({snippet.strip()})")
            # A command written out: each of its options must be one of that command's.
            for command in re.finditer(r"(?:^|[\s`(;&|])cardfeed ([a-z]+)\b([^#;&|)]*)", snippet):
                sub, rest = command.group(1), command.group(2)
                if sub not in options_of:
                    continue  # cardfeed help, or a word after "cardfeed" in prose
                for option in re.findall(r"(?<![\w-])(--[a-z][a-z-]*|-[a-z])\b", rest):
                    deprecated = option == "--site" and sub in ("templates", "eject")
                    if option not in options_of[sub] and not deprecated:
                        problems.append(f"{name(path)}:{line}: `cardfeed {sub}` has no {option} ({snippet.strip()})")
    assert not problems, "\n".join(problems)


def test_the_references_synopsis_of_each_command_has_every_option_its_help_lists(cardfeed_bin):
    texts = helps(cardfeed_bin)
    reference = (REPO / "docs" / "reference.md").read_text(encoding="utf-8")
    synopsis = re.search(r"## Commands\s*\n```\n(.*?)\n```", reference, flags=re.S).group(1)
    problems = []
    for command in ("build", "check", "explain", "config", "serve", "init", "templates", "eject", "cache"):
        line = next(line for line in synopsis.splitlines() if line.startswith(f"cardfeed {command} "))
        usage = texts[command].split("OPTIONS:", 1)[-1]
        for option in sorted(set(re.findall(r"^\s+(?:-[a-z], )?(--[a-z][a-z-]*)", usage, flags=re.M)) - {"--help", "--version"}):
            if option not in line:
                problems.append(f"reference.md's `cardfeed {command}` lacks {option}")
    assert not problems, "\n".join(problems)


def first_site_block() -> str:
    """The README's first-site block: the `sh` block right after `<!-- first-site -->`."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    match = re.search(r"<!-- first-site -->\s*\n```(?:sh|bash)\n(.*?\n)```", text, flags=re.S)
    assert match, "README.md has no ```sh block right after <!-- first-site -->"
    return match.group(1)


def test_the_first_site_block_runs_as_pasted(cardfeed_bin, tmp_path):
    """The block, pasted whole into a shell, makes the site, builds it (feeds included, with no
    --base-url on the build: init wrote base_url) and ends serving it, until Ctrl-C: serve comes
    last, or a paste would stop at it. `cardfeed` on PATH is the built binary, its serve on a
    port the system chooses (4000 may be taken by another test)."""
    block = first_site_block()
    commands = [line.split()[1] for line in block.splitlines() if line.startswith("cardfeed ")]
    assert commands[0] == "init" and commands[-1] == "serve", f"init first, serve last: {commands}"
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    wrapper = bin_folder / "cardfeed"
    real = shlex.quote(str(Path(cardfeed_bin).resolve()))
    wrapper.write_text(f'#!/bin/sh\nif [ "$1" = serve ]; then exec {real} "$@" --port 0; fi\nexec {real} "$@"\n')
    wrapper.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_folder}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("GITHUB_ACTIONS", None)
    work = tmp_path / "work"
    work.mkdir()
    (tmp_path / "block.sh").write_text(block)
    # A shell of its own, with its own process group, to stop as Ctrl-C stops a terminal's.
    shell = subprocess.Popen(["bash", "-e", str(tmp_path / "block.sh")], cwd=work, env=env, text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    out, err = [], []
    import threading
    readers = [threading.Thread(target=lambda s=s, i=i: [i.append(line) for line in s], daemon=True)
               for s, i in [(shell.stdout, out), (shell.stderr, err)]]
    for reader in readers:
        reader.start()
    try:
        url = None
        deadline = time.monotonic() + 90
        while url is None and time.monotonic() < deadline and shell.poll() is None:
            url = next((m.group(1) for m in map(re.compile(r"Serving .* at (http://\S+/)").search, list(out)) if m), None)
            time.sleep(0.05)
        assert url, f"the first site does not end serving:\n{''.join(out)}\n{''.join(err)}"
        with urllib.request.urlopen(url, timeout=30) as response:
            served = response.read().decode()
    finally:
        if shell.poll() is None:
            os.killpg(shell.pid, signal.SIGINT)
        try:
            shell.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(shell.pid, signal.SIGKILL)
            shell.wait()
        for reader in readers:
            reader.join(5)
    assert shell.returncode == 0, f"{''.join(out)}\n{''.join(err)}"
    assert "warning" not in "".join(err), "".join(err)
    site = next(work.glob("*/cardfeed.yml")).parent
    added = json.loads(re.search(r"<<'EOF'\n(.*?)\nEOF", block, flags=re.S).group(1))
    title = html.escape(added["title"], quote=False)
    assert f">{title}<" in (site / "public" / "index.html").read_text(), "the added card is on the built front page"
    assert f">{title}<" in served, "and on the served one"
    for name in ("feed.xml", "rss.xml", "feed.json", "sitemap.xml", "news/rss.xml"):
        assert (site / "public" / name).is_file(), f"the build wrote no {name}: init --base-url wrote no base_url?"


def reference_table(heading: str) -> dict[str, str]:
    """docs/reference.md's table under `heading`, each row by its first cell's first word."""
    reference = (REPO / "docs" / "reference.md").read_text(encoding="utf-8")
    section = reference.split(f"\n{heading}\n", 1)[1]
    rows = {}
    for line in section.splitlines():
        if line.startswith("## "):
            break
        cells = [cell.strip() for cell in line.split(" | ")]
        if line.startswith("| `"):
            rows[cells[0].lstrip("| ").strip("`").split()[0].rstrip("`,")] = line
    return rows


def test_the_references_settings_tables_are_the_binarys_table_of_settings(cardfeed_bin):
    """Every setting of Sources/CardFeedLoad/Config/Setting.swift (through `cardfeed config --json`)
    has its row in docs/reference.md, which names its default; and the file's table has no key
    that cardfeed.yml does not take."""
    result = subprocess.run([str(cardfeed_bin), "config", str(REPO / "site"), "--json"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    settings = json.loads(result.stdout)["settings"]
    keys = reference_table("## cardfeed.yml")
    options = reference_table("The options of `build`, `check`, `explain`, `config` and `serve`:")
    problems = []
    in_file = [setting for setting in settings if setting["in_file"]]
    if set(keys) != {setting["key"] for setting in in_file}:
        problems.append(f"reference.md's cardfeed.yml table has {sorted(keys)}, the binary {sorted(s['key'] for s in in_file)}")
    for setting in settings:
        silent = setting["default"] in ("none", "off")
        if setting["in_file"] and setting["key"] in keys and not silent and setting["default"] not in keys[setting["key"]]:
            problems.append(f"reference.md's row of {setting['key']} does not name its default, {setting['default']}")
        if setting["option"]:
            row = options.get(setting["option"])
            if row is None:
                problems.append(f"reference.md's options table has no row of {setting['option']}")
            elif setting["in_file"] and f"`{setting['key']}`" not in row:
                problems.append(f"reference.md's row of {setting['option']} does not name the key it overrides, {setting['key']}")
            elif not silent and setting["default"] not in row:
                problems.append(f"reference.md's row of {setting['option']} does not name its default, {setting['default']}")
    assert not problems, "\n".join(problems)
