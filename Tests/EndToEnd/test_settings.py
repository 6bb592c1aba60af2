"""Each setting with a command-line option (Sources/CardFeedLoad/Config/Setting.swift, read through
`cardfeed config --json`) is that option in every command that reads a site: named, described and
with its default in `--help` as its entry says, and applied when given. The command's property for
the option (Sources/CardFeedCLI/SiteOptions.swift) is found by its name, so a property named or
typed otherwise than its entry fails here."""
import json
import subprocess

import pytest

from conftest import REPO, write_cards

COMMANDS = ("build", "check", "explain", "config", "serve")

# A value to give an option whose default (as its entry says it) is not one it takes.
VALUES = {"--base-url": "https://example.com/news/", "--now": "2026-11-20"}


@pytest.fixture(scope="module")
def settings(cardfeed_bin) -> list[dict]:
    result = subprocess.run([str(cardfeed_bin), "config", str(REPO / "site"), "--json"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return [setting for setting in json.loads(result.stdout)["settings"] if setting["option"]]


def arguments(cardfeed_bin, command) -> dict[str, dict]:
    """The command's options as swift-argument-parser declares them, by long name."""
    dump = subprocess.run([str(cardfeed_bin), command, "--experimental-dump-help"], capture_output=True, text=True, timeout=30)
    assert dump.returncode == 0, dump.stderr
    return {"--" + name["name"]: argument for argument in json.loads(dump.stdout)["command"]["arguments"]
            for name in argument.get("names") or [] if name["kind"] == "long"}


def option_help(setting) -> str:
    """`Setting.optionHelp`: the help line with the default at its end."""
    default = (f"{setting['key']} in cardfeed.yml, else " if setting["in_file"] else "") + setting["default"]
    return setting["help"].removesuffix(".") + f" (default: {default})."


@pytest.mark.parametrize("command", COMMANDS)
def test_each_settings_option_has_its_entrys_help_and_default(cardfeed_bin, settings, command):
    declared = arguments(cardfeed_bin, command)
    problems = []
    for setting in settings:
        argument = declared.get(setting["option"])
        if argument is None:
            problems.append(f"`cardfeed {command}` has no {setting['option']}: the property in SiteOptions is named otherwise")
        elif argument["abstract"] != option_help(setting):
            problems.append(f"{setting['option']}'s help is {argument['abstract']!r}, its entry's {option_help(setting)!r}")
    assert settings and not problems, "\n".join(problems)


def test_each_settings_option_given_replaces_the_files_value(run, settings, cardfeed_bin, tmp_path):
    site = write_cards(tmp_path / "s", [{"id": "a", "type": "text_announcement", "created": 1, "description": "Hi"}])
    (site / "cardfeed.yml").write_text("page_size: 7\nlocale: fr\nbase_url: https://a.example/\n")
    declared = arguments(cardfeed_bin, "config")
    given = []
    for setting in settings:
        option = setting["option"]
        given.append(option)
        if declared[option]["kind"] != "flag":
            given.append(VALUES.get(option, setting["default"]))
    result = run("config", site, "--json", *given)
    assert result.returncode == 0, result.stderr
    sources = {s["key"]: s["source"] for s in json.loads(result.stdout)["settings"]}
    assert {s["key"]: sources[s["key"]] for s in settings} == {s["key"]: s["option"] for s in settings}
    left = run("config", site, "--json")
    sources = {s["key"]: s["source"] for s in json.loads(left.stdout)["settings"]}
    assert not any(source.startswith("--") for source in sources.values()), sources
