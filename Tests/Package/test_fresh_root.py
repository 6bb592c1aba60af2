"""The packages as a user installs them: in a fresh Debian 12 root with no Swift toolchain and no
Python, the .deb installs with apt-get and builds a new site, with search by the Pagefind it
brings, and the archive's binary runs with nothing but the C and C++ runtime libraries that every
Debian system has, and searches with the Pagefind beside it."""
import signal
import socket
import subprocess
import tarfile
import time
import urllib.request
from pathlib import Path

from conftest import REPO, search_in_browser

# What the archive's binary may load: glibc, libstdc++ and libgcc (libc6, libstdc++6, libgcc-s1).
RUNTIME_LIBRARIES = {"libc.so.6", "libm.so.6", "libstdc++.so.6", "libgcc_s.so.1", "ld-linux-x86-64.so.2"}


def needed_libraries(binary) -> set:
    dynamic = subprocess.run(["readelf", "--dynamic", str(binary)], capture_output=True, text=True, check=True).stdout
    return {line.split("[")[1].split("]")[0] for line in dynamic.splitlines() if "(NEEDED)" in line}


def test_the_package_installs_and_builds_a_new_site_on_a_fresh_debian_12(dist, debian_root):
    root = debian_root
    assert root.run("test ! -e /opt/swift && ! ls /usr/lib/x86_64-linux-gnu/libswiftCore* 2>/dev/null", check=False).returncode == 0
    (root.path / "tmp" / dist["deb"].name).write_bytes(dist["deb"].read_bytes())
    root.run(f"apt-get update -qq && apt-get install -y -qq /tmp/{dist['deb'].name} >/dev/null")

    assert root.run("cardfeed --version").stdout.strip() == dist["version"]
    root.run("cd /root && cardfeed init site && cardfeed build site")
    page = (root.path / "root" / "site" / "public" / "index.html").read_text()
    assert f'<meta name="generator" content="CardFeed {dist["version"]}">' in page
    assert 'class="card' in page

    # Search, with nothing installed but the package: its Pagefind, off PATH, makes the index,
    # and a word typed into the built site (in a browser outside the root) finds its card.
    assert root.run("command -v python3 pip pip3 pagefind", check=False).stdout == ""
    root.run("cd /root && echo 'search: true' >> site/cardfeed.yml")
    built = root.run("cd /root && cardfeed build site").stdout
    assert "Index for search: 3 card pages in " in built and "(pagefind 1.5.2)" in built, built
    assert (root.path / "usr" / "lib" / "cardfeed" / "pagefind").is_file()
    assert (root.path / "root" / "site" / "public" / "pagefind" / "pagefind-entry.json").is_file()
    found = search_in_browser(root.path / "root" / "site" / "public", "welcome")
    assert [title for title, _ in found] == ["Welcome to your card feed"], found
    assert found[0][1].endswith(".html") and "/cards/card-" in found[0][1]

    for path in ["usr/share/man/man1/cardfeed.1.gz",
                 "usr/share/bash-completion/completions/cardfeed", "usr/share/zsh/vendor-completions/_cardfeed",
                 "usr/share/fish/vendor_completions.d/cardfeed.fish",
                 "usr/share/doc/cardfeed/copyright", "usr/share/doc/cardfeed/changelog.gz"]:
        assert (root.path / path).is_file(), f"/{path} is not installed"
    # The example Customising builds, where docs/customising.md says it is (the output elsewhere:
    # /usr/share/doc is not the user's to write in), and the man page's header names CardFeed.
    root.run("cardfeed build /usr/share/doc/cardfeed/examples/customised -o /tmp/customised -q")
    assert (root.path / "tmp" / "customised" / "index.html").is_file()
    manual = root.run("gunzip -c /usr/share/man/man1/cardfeed.1.gz").stdout
    assert ".ds doc-volume-operating-system CardFeed" in manual.split(".Dt ")[0], manual[:300]
    # Every library the binary loads comes from a package the .deb declared.
    depends = root.run("dpkg-query -W -f='${Depends}' cardfeed").stdout
    for package in ["libc6", "libstdc++6", "libgcc-s1", "libmimalloc2.0", "zlib1g"]:
        assert package in depends, f"Depends: {depends} lacks {package}"
    loaded = root.run("cat /proc/self/maps >/dev/null; LD_TRACE_LOADED_OBJECTS=1 /usr/bin/cardfeed").stdout
    assert "not found" not in loaded, loaded
    assert "libswift" not in loaded and "libcurl" not in loaded and "libcmark" not in loaded, loaded

    # The preview server, from the same static binary: the chroot shares the host's loopback.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(["chroot", str(root.path), "/usr/bin/cardfeed", "serve", "/root/site", "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        for _ in range(100):
            try:
                page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).read().decode()
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise AssertionError("cardfeed serve did not answer in 10 s")
        assert "/_cardfeed/live.js" in page, page[:500]
    finally:
        server.send_signal(signal.SIGINT)
        output = server.communicate(timeout=20)[0]
    assert "Stopped" in output, output

    root.run("apt-get remove -y -qq cardfeed >/dev/null")
    assert not (root.path / "usr" / "bin" / "cardfeed").exists()


def test_the_archive_runs_with_only_the_c_and_cpp_runtimes(dist, debian_root, tmp_path):
    root = debian_root
    installed = root.run("dpkg-query -W -f='${Package}\\n'").stdout.split()
    assert "libmimalloc2.0" not in installed and "libcmark0.30" not in installed and "libcurl4" not in installed

    with tarfile.open(dist["archive"]) as archive:
        names = archive.getnames()
        archive.extractall(root.path / "opt")
    folder = f"cardfeed-{dist['version']}-linux-x86_64"
    for name in ["cardfeed", "README.md", "LICENSE", "CHANGELOG.md", "COPYRIGHT", "man/cardfeed.1",
                 "docs/README.md", "docs/screenshots/phone.png",
                 "completions/cardfeed.bash", "completions/_cardfeed", "completions/cardfeed.fish",
                 "lib/cardfeed/pagefind", "licenses/Pagefind-MIT.txt",
                 "examples/customised/cardfeed.yml", "examples/content-cards/cards.json"]:
        assert f"{folder}/{name}" in names, f"the archive has no {name}"
    assert needed_libraries(root.path / "opt" / folder / "cardfeed") <= RUNTIME_LIBRARIES

    binary = f"/opt/{folder}/cardfeed"
    assert root.run(f"{binary} --version").stdout.strip() == dist["version"]
    root.run(f"cd /root && {binary} init site && {binary} build site")
    assert (root.path / "root" / "site" / "public" / "index.html").is_file()
    stats = root.run(f"cd /root && {binary} build site --stats 2>&1").stdout
    assert "memory allocator: the system's" in stats, stats

    # Search with the Pagefind beside the binary, which is not on PATH.
    root.run("cd /root && echo 'search: true' >> site/cardfeed.yml")
    built = root.run(f"cd /root && {binary} build site").stdout
    assert "Index for search: 3 card pages in " in built and "(pagefind 1.5.2)" in built, built
    found = search_in_browser(root.path / "root" / "site" / "public", "welcome")
    assert [title for title, _ in found] == ["Welcome to your card feed"], found


def test_get_pagefind_installs_the_pinned_pagefind_on_a_fresh_debian_12_without_pip(debian_root):
    """docs/search.md's command for a cardfeed built from source, as written, on Debian 12: no
    pip, no Python: curl and unzip are all it needs (scripts/setup.sh installs them)."""
    root = debian_root
    for path in ["scripts/get-pagefind.sh", "packaging/pagefind.lock"]:
        target = root.path / "tmp" / "cardfeed" / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((REPO / path).read_bytes())
    root.run("apt-get update -qq && apt-get install -y -qq --no-install-recommends curl unzip ca-certificates >/dev/null")
    # The certificates this machine trusts (a network may reach PyPI through a proxy of its own),
    # as resolv.conf is taken from it.
    (root.path / "etc" / "ssl" / "certs" / "ca-certificates.crt").write_bytes(Path("/etc/ssl/certs/ca-certificates.crt").read_bytes())
    assert root.run("command -v python3 pip pip3", check=False).stdout == ""
    installed = root.run("cd /tmp/cardfeed && bash scripts/get-pagefind.sh").stdout
    assert "installed Pagefind 1.5.2 as /usr/local/bin/pagefind" in installed, installed
    assert root.run("pagefind --version").stdout.strip() == "pagefind 1.5.2"
    # A wheel whose bytes are not the recorded ones is refused, and nothing is installed.
    root.run("sed -i 's/^wheel_sha256=.*/wheel_sha256=" + "0" * 64 + "/' /tmp/cardfeed/packaging/pagefind.lock && rm -rf /root/.cache")
    refused = root.run("cd /tmp/cardfeed && bash scripts/get-pagefind.sh /opt/pf", check=False)
    assert refused.returncode == 1 and "refused" in refused.stderr, refused.stderr
    assert not (root.path / "opt" / "pf" / "pagefind").exists()


def test_the_archive_reads_its_arguments_and_builds_in_a_root_without_proc(dist, debian_root):
    """A chroot or container without /proc: Swift reads CommandLine.arguments from
    /proc/self/cmdline, so every command once printed the help and exited 0 (build wrote
    nothing, check --strict of a missing folder passed), and libdispatch's thread pool monitor,
    which reads /proc/<thread>/stat, stopped a build with "Illegal instruction" (2 runs of 5)."""
    root = debian_root
    subprocess.run(["umount", "--lazy", str(root.path / "proc")], check=True)
    with tarfile.open(dist["archive"]) as archive:
        archive.extractall(root.path / "opt")
    binary = f"/opt/cardfeed-{dist['version']}-linux-x86_64/cardfeed"
    assert not (root.path / "proc" / "self").exists()
    assert root.run(f"{binary} --version").stdout.strip() == dist["version"]
    root.run(f"cd /root && {binary} init site")
    # Cards enough that the build's threads are busy for more than the monitor's second.
    cards = ",".join(f'{{"id": "c{n}", "type": "text_announcement", "created": {1_700_000_000 + n}, "description": "Card **{n}**"}}'
                     for n in range(20_000))
    (root.path / "root" / "site" / "cards.json").write_text(f"[{cards}]")
    for run in range(5):
        built = root.run(f"cd /root && {binary} build site --now 1800000000 2>&1", check=False)
        assert built.returncode == 0, f"run {run + 1}: {built.returncode}\n{built.stdout[-2000:]}"
        assert "USAGE" not in built.stdout.upper() and "Wrote " in built.stdout, built.stdout
        assert (root.path / "root" / "site" / "public" / "index.html").is_file()
        checked = root.run(f"cd /root && {binary} check /root/missing --strict", check=False)
        assert checked.returncode == 1 and "no site folder missing" in checked.stderr, checked.stdout + checked.stderr
