"""One `accent` in the theme recolours the whole page (chips, buttons, links, the unread bar), and
whatever accent a site picks, text stays readable: axe-core finds no violation, light or dark, for
accents drawn at random (and a few that are hard on purpose)."""
import random
import shutil
import subprocess

import pytest

from conftest import NOW, REPO, StaticServer, make_driver
from test_look import axe_source, axe_violations, load

# Hard on purpose: near-white, near-black, pure primaries, and colours whose lightness sits where
# black and white text contrast equally.
HARD = ["#ffff00", "#0000ff", "#00ff00", "#ff0000", "#ffffff", "#000000", "#777777", "#e66000", "#0f9b8e"]
SEED = 20261124


def accents():
    draw = random.Random(SEED)
    return HARD + ["#%06x" % draw.randrange(0x1000000) for _ in range(6)]


@pytest.fixture(scope="module")
def themed_sites(cardfeed_bin, tmp_path_factory):
    """{accent: url} of the example site built with each accent, for both schemes."""
    root = tmp_path_factory.mktemp("theme")
    servers = {}
    try:
        for index, accent in enumerate(accents()):
            site = root / f"site-{index}"
            shutil.copytree(REPO / "site", site)
            config = (site / "cardfeed.yml").read_text() if (site / "cardfeed.yml").exists() else ""
            (site / "cardfeed.yml").write_text(config + f'\ntheme:\n  accent: "{accent}"\n')
            built = subprocess.run([str(cardfeed_bin), "build", str(site), "--now", NOW, "-q"], capture_output=True, text=True, timeout=120)
            assert built.returncode == 0, built.stderr
            servers[accent] = StaticServer(site / "public")
        yield {accent: server.url for accent, server in servers.items()}
    finally:
        for server in servers.values():
            server.close()


COLOURS = """
const css = e => e ? getComputedStyle(e) : null;
const unread = document.querySelector(".card__unread");
return {
  link: css(document.querySelector(".card__link")).color,
  unread: unread ? css(unread).backgroundColor : null,
  chip: css(document.querySelector(".feed-nav__link[aria-current]")).backgroundColor,
  chipText: css(document.querySelector(".feed-nav__link[aria-current]")).color,
};
"""


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_every_accent_recolours_the_page_and_stays_readable(themed_sites, dark):
    source = axe_source()
    driver = make_driver(width=390, height=844, dark=dark)
    driver.set_script_timeout(60)
    found = []
    default_link = "rgb(165, 180, 252)" if dark else "rgb(67, 56, 202)"
    try:
        for accent, url in themed_sites.items():
            load(driver, url + "index.html")
            colours = driver.execute_script(COLOURS)
            if colours["link"] == default_link:
                found.append(f"{accent}: links keep the built-in indigo")
            if colours["unread"] in ("rgb(79, 70, 229)", "rgb(129, 140, 248)"):
                found.append(f"{accent}: the unread bar keeps the built-in indigo")
            found += [f"{accent}: {v} ({colours})" for v in axe_violations(driver, source)]
    finally:
        driver.quit()
    assert found == [], "\n".join(found)
