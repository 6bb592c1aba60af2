"""Shared helpers for the end-to-end tests: they run the real `cardfeed` binary."""
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def cardfeed_bin() -> Path:
    path = os.environ.get("CARDFEED_BIN")
    if not path:
        pytest.fail("set CARDFEED_BIN to the built binary (scripts/test.sh does)")
    return Path(path)


@pytest.fixture()
def run(cardfeed_bin, tmp_path):
    """Runs cardfeed with the given arguments in a working directory outside the checkout."""

    def runner(*args, cwd=None):
        return subprocess.run(
            [str(cardfeed_bin), *map(str, args)],
            cwd=cwd or tmp_path, capture_output=True, text=True, timeout=120,
        )

    return runner


@pytest.fixture()
def example_site(tmp_path) -> Path:
    """A copy of the repository's example site."""
    target = tmp_path / "site"
    shutil.copytree(REPO / "site", target, ignore=shutil.ignore_patterns("public"))
    return target


def write_cards(folder: Path, cards) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "cards.json").write_text(json.dumps(cards))
    return folder
