"""Every command in a root without /proc (a plain chroot, some minimal containers): it works, or
ends with one `error:` line that names what is missing and what to do, and an exit code that is
not a signal's. Run in a mount namespace whose /proc is unmounted (needs root, as CI has).

Without /proc, Swift's runtime and Foundation lose what they read there: `CommandLine.arguments`
(Sources/CArguments), libdispatch's thread pool (`Parallel`), and `Bundle.main`, which stopped
every build, check and explain of a site with `search: true` with SIGILL before its first line
(issue 57)."""
import json
import os
import shutil
import subprocess

import pytest

from conftest import REPO

NOW = "2025-06-01T00:00:00Z"


@pytest.fixture(scope="module", autouse=True)
def unshare_allowed():
    if not shutil.which("unshare") or subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode != 0:
        pytest.skip("unshare -m is not allowed here (needs root)")


def without_proc(cardfeed, *args, cwd=None, env=None):
    """`cardfeed args` with /proc unmounted in a mount namespace of its own."""
    script = 'umount -l /proc && test ! -e /proc/self && exec "$@"'
    environment = {k: v for k, v in {**os.environ, **(env or {})}.items() if v is not None}
    return subprocess.run(["unshare", "-m", "sh", "-c", script, "sh", str(cardfeed), *map(str, args)],
                          capture_output=True, text=True, timeout=120, cwd=cwd, env=environment)


def ended_well(result, *, succeeded=True):
    """Exited (not stopped by a signal, which the shell's exec passes on as a negative code or
    128+N), and if it failed, saying why on a first line that starts with `error:`."""
    said = result.stdout + result.stderr
    assert 0 <= result.returncode < 128, f"exit {result.returncode}: {said}"
    assert "Illegal instruction" not in said and "Backtracing" not in said, said
    if succeeded:
        assert result.returncode == 0, said
    else:
        assert result.returncode != 0, said
        assert result.stderr.startswith("error: "), result.stderr
    return result


def cards(count, languages=("en",)):
    return [{"id": f"card-{n}", "type": "short_news", "created": 1_700_000_000 + n, "title": f"Card {n}",
             "description": f"Story number {n} about coffee", "categories": ["news" if n % 2 else "announcements"],
             "language": languages[n % len(languages)]} for n in range(count)]


SITES = {
    "plain": ("title: Plain\n", cards(3)),
    # Enough cards that loading and rendering run on threads of their own (`Parallel`).
    "large": ("title: Large\n", cards(3000)),
    "search": ("title: Search\nsearch: true\n", cards(40)),
    # Each language's index is a Pagefind run of its own, several at a time.
    "everything": ("title: Everything\nbase_url: https://example.com/\nsearch: true\nlanguages: [en, de, ar]\n"
                   "placements:\n  home-hero:\n    feed: all\n    limit: 2\n", cards(60, ("en", "de", "ar"))),
}


@pytest.mark.parametrize("name", SITES)
def test_build_check_and_explain_work_without_proc(cardfeed_bin, tmp_path, name):
    config, entries = SITES[name]
    site = tmp_path / "site"
    site.mkdir()
    (site / "cardfeed.yml").write_text(config)
    (site / "cards.json").write_text(json.dumps(entries))
    for _ in range(2):
        ended_well(without_proc(cardfeed_bin, "check", site, "--now", NOW, "--strict"))
        built = ended_well(without_proc(cardfeed_bin, "build", site, "-o", tmp_path / "out", "--now", NOW))
        assert (tmp_path / "out" / "index.html").is_file(), built.stdout
        assert ("Index for search:" in built.stdout) == ("search" in config), built.stdout
        if "placements" in config:
            assert (tmp_path / "out" / "embed" / "home-hero.html").is_file()
            assert (tmp_path / "out" / "de" / "index.html").is_file()
        explained = ended_well(without_proc(cardfeed_bin, "explain", "card-1", site, "--now", NOW))
        assert "card-1" in explained.stdout, explained.stdout
    # The same pages as with /proc.
    with_proc = subprocess.run([str(cardfeed_bin), "build", site, "-o", tmp_path / "with-proc", "--now", NOW],
                               capture_output=True, text=True, timeout=120)
    assert with_proc.returncode == 0, with_proc.stderr
    assert (tmp_path / "out" / "index.html").read_bytes() == (tmp_path / "with-proc" / "index.html").read_bytes()


def test_the_other_commands_work_or_say_what_is_missing_without_proc(cardfeed_bin, tmp_path):
    ended_well(without_proc(cardfeed_bin, "init", tmp_path / "new"))
    ended_well(without_proc(cardfeed_bin, "build", tmp_path / "new", "--now", NOW))
    ended_well(without_proc(cardfeed_bin, "templates", tmp_path / "new"))
    ended_well(without_proc(cardfeed_bin, "eject", "cards/short_news", tmp_path / "new"))
    ended_well(without_proc(cardfeed_bin, "--help"))
    ended_well(without_proc(cardfeed_bin, "--version"))
    ended_well(without_proc(cardfeed_bin, "build", "--no-such-option"), succeeded=False)
    # An id no card has: explain's answer, on standard output, and exit 1 (as with /proc).
    unknown = without_proc(cardfeed_bin, "explain", "nobody", tmp_path / "new")
    assert unknown.returncode == 1 and unknown.stdout.startswith('No card "nobody" in the site'), unknown.stdout + unknown.stderr
    # The preview server runs on Swift's concurrency, whose thread pool needs /proc.
    served = ended_well(without_proc(cardfeed_bin, "serve", tmp_path / "new"), succeeded=False)
    assert "serve needs /proc" in served.stderr and "mount -t proc proc /proc" in served.stderr, served.stderr


def test_the_pagefind_beside_the_binary_is_found_without_proc(cardfeed_bin, tmp_path):
    """The packages put Pagefind beside cardfeed (bin/../lib/cardfeed/pagefind): finding it needs
    the binary's own path, which /proc/self/exe gives; without /proc, the path it was started by."""
    installed = tmp_path / "usr"
    (installed / "bin").mkdir(parents=True)
    (installed / "lib" / "cardfeed").mkdir(parents=True)
    shutil.copy(cardfeed_bin, installed / "bin" / "cardfeed")
    log = tmp_path / "pagefind.log"
    pagefind = installed / "lib" / "cardfeed" / "pagefind"
    pagefind.write_text(f"#!/bin/sh\necho \"$@\" >> {log}\nif [ \"$1\" = --version ]; then echo 'pagefind 1.5.2'; exit 0; fi\n"
                        "echo 'not today' >&2; exit 3\n")
    pagefind.chmod(0o755)
    site = tmp_path / "site"
    site.mkdir()
    (site / "cardfeed.yml").write_text("search: true\n")
    (site / "cards.json").write_text(json.dumps(cards(2)))
    path = "/usr/bin:/bin"  # no other Pagefind
    for how, program, cwd in [("by its path", installed / "bin" / "cardfeed", None),
                              ("relative", "./cardfeed", installed / "bin"),
                              ("on PATH", "cardfeed", None)]:
        env = {"PATH": f"{installed / 'bin'}:{path}" if how == "on PATH" else path, "PAGEFIND": None}
        script = 'umount -l /proc && test ! -e /proc/self && exec "$@"'
        result = subprocess.run(["unshare", "-m", "sh", "-c", script, "sh", str(program), "build", site, "-o", tmp_path / "out"],
                                capture_output=True, text=True, timeout=120, cwd=cwd,
                                env={k: v for k, v in {**os.environ, **env}.items() if v is not None})
        ended_well(result, succeeded=False)
        assert f"error: pagefind/: Pagefind ({pagefind})" in result.stderr, (how, result.stderr)
