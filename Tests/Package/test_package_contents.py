"""What lintian and a reader of the package see: no lintian error, every lintian warning explained
in docs/packaging.md, reproducible bytes, and one version everywhere."""
import re
import subprocess

from conftest import REPO, unavailable


def test_lintian_reports_no_error_and_docs_explain_every_warning(dist):
    import shutil
    if not shutil.which("lintian"):
        unavailable("lintian is missing (scripts/setup.sh installs it)")
    report = subprocess.run(["lintian", "-I", "--show-overrides", "--no-tag-display-limit", str(dist["deb"])],
                            capture_output=True, text=True)
    tags = re.findall(r"^([EWIO]): cardfeed[^:]*: (\S+)", report.stdout, re.MULTILINE)
    assert not [tag for kind, tag in tags if kind == "E"], report.stdout
    explained = (REPO / "docs" / "packaging.md").read_text()
    # Warnings, information and overridden tags alike.
    unexplained = sorted({tag for kind, tag in tags if kind in "WIO" and f"`{tag}`" not in explained})
    assert not unexplained, f"docs/packaging.md does not say why these lintian tags stay: {unexplained}\n{report.stdout}"


def test_the_package_is_byte_identical_when_assembled_again(dist, tmp_path):
    """build-deb.sh and build-archive.sh over the same inputs give the same bytes (file times
    come from the release date, owners are root, gzip stores no name or time)."""
    version = dist["version"]
    extras = REPO / ".build-package" / "extras"
    for script, binary_folder, output in [
        ("packaging/build-deb.sh", "mimalloc", tmp_path / "again.deb"),
        ("packaging/build-archive.sh", "system-malloc", tmp_path / "again.tar.gz"),
    ]:
        binary = REPO / ".build-package" / "bin" / binary_folder / "cardfeed"
        epoch = subprocess.run(["bash", "-c", f"date -u -d \"$(sed -n 's/^## {version} - //p' CHANGELOG.md) 00:00:00\" +%s"],
                               cwd=REPO, capture_output=True, text=True, check=True).stdout.strip()
        pagefind = REPO / ".build-package" / "pagefind" / "pagefind"
        subprocess.run(["bash", script, version, str(binary), str(extras), str(pagefind), str(output)], cwd=REPO, check=True,
                       capture_output=True, env={"PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "SOURCE_DATE_EPOCH": epoch})
        original = dist["deb"] if script.endswith("deb.sh") else dist["archive"]
        assert output.read_bytes() == original.read_bytes(), f"{script} gave other bytes the second time"


def test_one_version_names_everything(dist):
    version = dist["version"]
    assert (REPO / "CHANGELOG.md").read_text().count(f"\n## {version} - ") == 1
    info = subprocess.run(["dpkg-deb", "--field", str(dist["deb"]), "Version"], capture_output=True, text=True, check=True)
    assert info.stdout.strip() == version
    changelog = subprocess.run(["bash", "-c", f"dpkg-deb --fsys-tarfile {dist['deb']} | tar -xOf - ./usr/share/doc/cardfeed/changelog.gz | gunzip"],
                               capture_output=True, text=True, check=True).stdout
    assert changelog.startswith(f"cardfeed ({version}) ")
    # The install commands in the docs name the current release.
    for doc in [REPO / "README.md", *(REPO / "docs").glob("*.md")]:
        for named in re.findall(r"cardfeed[_-](\d+\.\d+\.\d+)[_-]|releases/download/v(\d+\.\d+\.\d+)/", doc.read_text()):
            assert version in named, f"{doc.relative_to(REPO)} names release {named}, VERSION says {version}"
