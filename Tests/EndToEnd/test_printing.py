"""Every line cardfeed prints goes through one printer: hostile card ids, file names and messages
cannot reach a terminal as control sequences, nor a GitHub Actions log as workflow commands, in
any mode (piped, on a terminal, --diagnostics json, GITHUB_ACTIONS=true, serve)."""
import json
import os
import re
import subprocess

from conftest import write_cards
from test_progress import ERASE, run_on_terminal

# A value that would end the line it is in, turn GitHub's commands off, add a fake annotation,
# retitle the terminal, ring its bell, reorder the rest of the line, and use GitHub's old form.
HOSTILE = "x\n::stop-commands::pwn\n::error file=evil.json::fake\r\x1b]0;t\x07\x9b31m\u202e\u2028\u2066##[error]old"
# The characters no printed line may hold (a line's own "\n" ends it).
FORBIDDEN = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
OURS = re.compile(r"::(warning|error) file=[^:\n]*(,line=\d+)?(,col=\d+)?,title=cardfeed::[^\n]*")


def hostile_site(folder):
    """A site that warns about a card with the hostile id, matches it with a rule (the rule-match
    step line names ids), and has hostile file names in cards/ (a warning) and static/ (removed
    by a rebuild, which the summary names)."""
    site = write_cards(folder, [
        {"id": HOSTILE, "type": "captioned_image", "created": 1, "title": "t", "description": "d"},
        {"id": "wrong-type-" + HOSTILE, "type": HOSTILE, "created": 2},
    ])
    (site / "cardfeed.yml").write_text('rules:\n  - name: pin them\n    match:\n      id: "x*"\n    pin: true\n')
    (site / "cards").mkdir()
    (site / "cards" / ("a\n::error::b\x1b[2J\u202e.json")).write_text('[{"id": "c", "type": "text_announcement", "created": 3, "description": "d", "extras": {"x": 1}, "bogus": 1}]')
    (site / "static").mkdir()
    (site / "static" / ("s\n::warning::t\x1b]0;u\x07")).write_text("x")
    return site


def check_lines(text, workflow_commands=False):
    """Every line of `text` is free of control characters and is no workflow command but, with
    `workflow_commands`, one of cardfeed's own annotations."""
    ours = 0
    for line in text.split("\n"):
        assert not FORBIDDEN.search(line), repr(line)
        assert "##[" not in line, repr(line)
        if line.lstrip(" \t").startswith("::"):
            # The properties hold no ":" (escaped %3A), so the data starts at cardfeed's "::".
            assert workflow_commands and OURS.fullmatch(line), repr(line)
            ours += 1
    return ours


def test_hostile_ids_file_names_and_messages_are_printed_inert_in_every_mode(cardfeed_bin, tmp_path):
    site = hostile_site(tmp_path / "s")
    plain_env = {k: v for k, v in os.environ.items() if k != "GITHUB_ACTIONS"}

    def run(*args, env=plain_env):
        # Bytes, decoded without turning a CR into a line break.
        result = subprocess.run([str(cardfeed_bin), *map(str, args)], cwd=tmp_path, env=env, capture_output=True, timeout=120)
        result.stdout, result.stderr = result.stdout.decode(), result.stderr.decode()
        return result

    first = run("build", site)
    assert first.returncode == 0, first.stderr
    (site / "static" / ("s\n::warning::t\x1b]0;u\x07")).unlink()
    rebuilt = run("build", site, "--stats")
    assert rebuilt.returncode == 0, rebuilt.stderr
    for result in [first, rebuilt]:
        check_lines(result.stdout)
        check_lines(result.stderr)
    # The values are shown, escaped, where a person looks for them.
    assert 'pin them (s/cardfeed.yml:2): 1 card: x\\u{a}::stop-commands::pwn\\u{a}::error file=evil.json::fake\\u{d}\\u{1b}]0;t\\u{7}\\u{9b}31m\\u{202e}\\u{2028}\\u{2066}##\\u{5b}error]old' in first.stdout, first.stdout
    assert 'card 1 (id "x\\u{a}::stop-commands::pwn\\u{a}::error file=evil.json::fake' in first.stderr, first.stderr
    assert "s/cards/a\\u{a}::error::b\\u{1b}[2J\\u{202e}.json" in first.stderr
    assert "no longer has: s\\u{a}::warning::t\\u{1b}]0;u\\u{7}." in rebuilt.stdout, rebuilt.stdout

    # Every warning also as a GitHub annotation: only cardfeed's own commands, one per warning.
    github = run("check", site, env=dict(os.environ, GITHUB_ACTIONS="true"))
    assert github.returncode == 0, github.stderr
    warnings = github.stderr.count("\nwarning: ") + github.stderr.startswith("warning: ")
    assert check_lines(github.stdout, workflow_commands=True) == warnings >= 3, github.stdout
    check_lines(github.stderr)

    # --diagnostics json: one object a line, the values exactly as they were.
    as_json = run("check", site, "--diagnostics", "json", "--strict")
    assert as_json.returncode == 1
    check_lines(as_json.stdout)
    check_lines(as_json.stderr)
    objects = [json.loads(line) for line in as_json.stderr.splitlines()]
    assert HOSTILE in [entry["id"] for entry in objects]
    assert any(entry["file"].endswith("a\n::error::b\x1b[2J\u202e.json") for entry in objects)

    # A hostile output folder name reaches the step lines and the progress line drawn on a terminal.
    out = tmp_path / "o\n::error::p\x1b[31m"
    for number in range(70):  # the write step reports its progress every 64 files
        (site / "static" / f"f{number}.txt").write_text("x")
    status, text = run_on_terminal([str(cardfeed_bin), "build", str(site), "-o", str(out)], cwd=tmp_path)
    assert status == 0, text
    assert ERASE + "[4/4] Write o\\u{a}::error::p\\u{1b}[31m" in text, text
    for line in text.replace(ERASE, "\n").split("\r\n"):
        check_lines(line)


def test_serve_prints_changed_file_names_escaped(running, tmp_path):
    site = write_cards(tmp_path / "s", [{"id": "a", "type": "text_announcement", "created": 1, "description": "d"}])
    serve = running("serve", site, "--port", "0")
    serve.wait_for(r"^Serving ")
    (site / "cards").mkdir()
    (site / "cards" / "n\n::error::q\x1b]0;t\x07.json").write_text('[{"id": "b", "type": "text_announcement", "created": 2, "description": "d"}]')
    changed = serve.wait_for(r"^Changed .*: rebuilt")
    assert "n\\u{a}::error::q\\u{1b}]0;t\\u{7}.json" in changed.string, changed.string
    for line in serve.lines + serve.errors:
        check_lines(line.rstrip("\n"))
