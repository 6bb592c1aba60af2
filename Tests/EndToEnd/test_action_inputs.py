"""The GitHub Action's inputs are data (docs/security.md): action/build.sh and install.sh, run
as the runner runs them with a stand-in `cardfeed`, print no workflow command and write no step
output that an input chose, whatever it holds (a line break and `::error …`, `::stop-commands::`,
`output=/etc`). Tests/Package/test_action.py runs the same steps against the packaged binary."""
import os
import re
import subprocess

import pytest

from conftest import REPO

PAYLOADS = [
    "x\n::error file=README.md,line=1::injected",
    "x\n::stop-commands::token",
    "x\noutput=/etc",
    "x\nversion<<EOF\n9.9.9\nEOF",
    "x\r::warning::injected",
    "::error::at the start",
]
OURS = re.compile(r"^::error title=cardfeed::[^\r\n]*$")


def outputs(text):
    """GITHUB_OUTPUT as the runner reads it: NAME=VALUE lines and NAME<<DELIMITER blocks."""
    values, lines = {}, text.split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            end = lines.index(delimiter, index)
            values[name] = "\n".join(lines[index:end])
            index = end + 1
        elif "=" in line:
            name, value = line.split("=", 1)
            values[name] = value
    return values


@pytest.fixture()
def runner(tmp_path):
    """Runs an action script with a stand-in cardfeed on PATH that records its arguments."""
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    stand_in = bin_folder / "cardfeed"
    stand_in.write_text('#!/bin/sh\nprintf "%s\\0" "$@" > "$CARDFEED_ARGUMENTS"\necho "Wrote 3 files."\n')
    stand_in.chmod(0o755)

    def run(script, **inputs):
        github_output = tmp_path / "GITHUB_OUTPUT"
        github_output.write_text("")
        env = {"PATH": f"{bin_folder}:/usr/bin:/bin", "HOME": str(tmp_path), "GITHUB_ACTIONS": "true",
               "GITHUB_OUTPUT": str(github_output), "CARDFEED_ARGUMENTS": str(tmp_path / "arguments"), **inputs}
        result = subprocess.run(["bash", str(REPO / "action" / script)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
        return result, outputs(github_output.read_text())

    return run


def commands(result):
    """The lines of the step's output the runner would read as workflow commands (both streams;
    the runner splits lines at LF and takes a CR as the end of one too)."""
    lines = re.split(r"\r\n|\r|\n", result.stdout + "\n" + result.stderr)
    return [line for line in lines if line.strip().startswith(("::", "##["))]


@pytest.mark.parametrize("payload", PAYLOADS)
@pytest.mark.parametrize("name", ["CARDFEED_SITE", "CARDFEED_OUTPUT", "CARDFEED_BASE_URL", "CARDFEED_STRICT", "CARDFEED_CACHE_DIR"])
def test_no_input_of_the_build_step_adds_a_workflow_command_or_an_output(runner, name, payload):
    result, written = runner("build.sh", **{name: payload})
    for line in commands(result):
        assert OURS.match(line), f"{name}={payload!r} printed the command {line!r}:\n{result.stdout}{result.stderr}"
    assert set(written) <= {"output"}, written
    assert "version" not in written and written.get("output") != "/etc", written
    if "\n" in payload or "\r" in payload or name == "CARDFEED_STRICT":
        # Refused with one annotation of its own, naming the input.
        assert result.returncode == 1 and written == {}, (result.stdout, result.stderr)
        assert len(commands(result)) == 1 and "input" in commands(result)[0], result.stdout
    else:
        assert result.returncode == 0, result.stderr


def test_the_build_step_passes_ordinary_inputs_as_they_are(runner, tmp_path):
    site = "my site/100% cards"
    result, written = runner("build.sh", CARDFEED_SITE=site, CARDFEED_OUTPUT="", CARDFEED_BASE_URL="https://x.example/a b", CARDFEED_STRICT="true")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "arguments").read_text().split("\0")[:-1] == ["build", site, "--base-url", "https://x.example/a b", "--strict", "--no-cache"]
    assert written == {"output": f"{site}/public"}
    assert result.stdout.splitlines()[0] == "cardfeed build my\\ site/100%\\ cards --base-url https://x.example/a\\ b --strict --no-cache"
    result, written = runner("build.sh", CARDFEED_SITE="s", CARDFEED_OUTPUT="out/site", CARDFEED_CACHE_DIR="s/.cardfeed-cache")
    assert written == {"output": "out/site"}
    assert (tmp_path / "arguments").read_text().split("\0")[:-1] == ["build", "s", "--output", "out/site", "--cache-dir", "s/.cardfeed-cache"]


def test_the_cache_step_keys_the_cache_by_version_site_and_settings(runner, tmp_path):
    """The key holds the version, the site and its cardfeed.yml's hash, and the run (each build
    saves its cache); the restore keys drop the run, then the settings. A key has no comma and
    fits actions/cache's 512 characters whatever the site's path."""
    site = tmp_path / "my site, 100%"
    site.mkdir()
    (site / "cardfeed.yml").write_text("title: A\n")
    env = {"CARDFEED_SITE": site.name, "CARDFEED_CACHE": "true", "CARDFEED_INSTALLED": "1.2.3",
           "RUNNER_OS": "Linux", "GITHUB_RUN_ID": "77", "GITHUB_RUN_ATTEMPT": "2"}
    result, first = runner("cache-key.sh", **env)
    assert result.returncode == 0, result.stderr
    assert first["path"] == f"{site.name}/.cardfeed-cache"
    # What is saved leaves out the output before last, which a fresh runner has no use for.
    assert first["saved"] == f"{site.name}/.cardfeed-cache\n!{site.name}/.cardfeed-cache/previous-output", first["saved"]
    key, restore = first["key"], first["restore-keys"].split("\n")
    assert key.startswith("cardfeed-1.2.3-Linux-") and key.endswith("-77-2") and "," not in key and len(key) <= 512, key
    assert len(restore) == 2 and key.startswith(restore[0]) and restore[0].startswith(restore[1]) and restore[1] != restore[0], restore
    assert "," not in first["restore-keys"]
    (site / "cardfeed.yml").write_text("title: B\n")
    _, changed = runner("cache-key.sh", **env)
    assert changed["key"] != key and changed["restore-keys"].split("\n")[1] == restore[1], "other settings: another key, the same last restore key"
    _, other_version = runner("cache-key.sh", **{**env, "CARDFEED_INSTALLED": "1.2.4"})
    assert not other_version["key"].startswith(restore[1]), "another version restores nothing of this one's"
    _, other_site = runner("cache-key.sh", **{**env, "CARDFEED_SITE": "elsewhere"})
    assert not other_site["key"].startswith(restore[1]), "another site restores nothing of this one's"
    off, written = runner("cache-key.sh", **{**env, "CARDFEED_CACHE": "false"})
    assert off.returncode == 0 and written == {}, "cache: false: no key, so neither restore nor save runs"


@pytest.mark.parametrize("payload", PAYLOADS)
@pytest.mark.parametrize("name", ["CARDFEED_SITE", "CARDFEED_CACHE"])
def test_no_input_of_the_cache_step_adds_a_workflow_command_or_an_output(runner, name, payload):
    inputs = {"CARDFEED_SITE": "site", "CARDFEED_CACHE": "true", "CARDFEED_INSTALLED": "1.0.0", name: payload}
    result, written = runner("cache-key.sh", **inputs)
    for line in commands(result):
        assert OURS.match(line), f"{name}={payload!r} printed the command {line!r}:\n{result.stdout}{result.stderr}"
    assert set(written) <= {"path", "saved", "key", "restore-keys"}, written
    if "\n" in payload or "\r" in payload or name == "CARDFEED_CACHE":
        assert result.returncode == 1 and written == {}, (result.stdout, result.stderr)
        assert len(commands(result)) == 1 and "input" in commands(result)[0], result.stdout
    else:
        assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("payload", PAYLOADS)
def test_the_install_steps_version_input_adds_no_workflow_command_or_output(runner, payload):
    result, written = runner("install.sh", CARDFEED_VERSION=payload)
    assert result.returncode == 1
    assert [OURS.match(line) is not None for line in commands(result)] == [True], commands(result)
    assert written == {}


def test_the_cache_steps_path_is_one_the_real_build_takes(cardfeed_bin, tmp_path):
    """cache-key.sh, then build.sh with the folder it named, as action.yml chains them, with the
    real cardfeed: the cache goes beside the site's folders, out of the output that is uploaded,
    and the build takes it; with cache: false the build runs with --no-cache."""
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    (bin_folder / "cardfeed").symlink_to(cardfeed_bin)
    site = tmp_path / "site"
    site.mkdir()
    (site / "cards.json").write_text('[{"id": "a", "type": "text_announcement", "created": 1, "description": "d"}]')
    github_output = tmp_path / "GITHUB_OUTPUT"

    def step(script, **env):
        github_output.write_text("")
        result = subprocess.run(["bash", str(REPO / "action" / script)], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                                env={"PATH": f"{bin_folder}:/usr/bin:/bin", "HOME": str(tmp_path), "GITHUB_OUTPUT": str(github_output), **env})
        assert result.returncode == 0, result.stdout + result.stderr
        return result, outputs(github_output.read_text())

    _, named = step("cache-key.sh", CARDFEED_SITE="site", CARDFEED_CACHE="true", CARDFEED_INSTALLED="1.0.0")
    built, written = step("build.sh", CARDFEED_SITE="site", CARDFEED_CACHE_DIR=named["path"])
    assert built.stdout.splitlines()[0] == "cardfeed build site --cache-dir site/.cardfeed-cache", built.stdout
    assert not (tmp_path / written["output"]).joinpath(".cardfeed-cache").exists()
    (site / "cardfeed.yml").write_text("cache_dir: public/cache\n")  # the action's folder wins over the file's
    step("build.sh", CARDFEED_SITE="site", CARDFEED_CACHE_DIR=named["path"])
    _, none = step("cache-key.sh", CARDFEED_SITE="site", CARDFEED_CACHE="false", CARDFEED_INSTALLED="1.0.0")
    without, _ = step("build.sh", CARDFEED_SITE="site", CARDFEED_CACHE_DIR=none.get("path", ""))
    assert without.stdout.splitlines()[0] == "cardfeed build site --no-cache", without.stdout
