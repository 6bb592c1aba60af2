"""Prints CardFeed's changelog in Debian's format, from CHANGELOG.md: an entry for the release
being packaged and one for each release before it, newest first.

Usage: python3 packaging/debian_changelog.py VERSION CHANGELOG.md
Debian's format (https://www.debian.org/doc/debian-policy/ch-source.html#debian-changelog-debian-changelog)
wants bullets as "  * ", lines under 80 columns and an RFC 2822 date; each release's heading in
CHANGELOG.md ("## 1.0.0 - 2026-11-23") gives its version and date.
"""
import re
import sys
import textwrap
from datetime import datetime, timezone

HEADING = re.compile(r"^## \[?(\d+\.\d+\.\d+)\]? - (\d{4}-\d{2}-\d{2})$")
MAINTAINER = "The CardFeed authors <cardfeed@users.noreply.github.com>"


def sections(lines):
    """(version, date, lines of its section) for each release heading, in the file's order."""
    found = []
    for line in lines:
        match = HEADING.match(line)
        if match:
            found.append((match.group(1), match.group(2), []))
        elif line.startswith("## "):
            found.append((None, None, []))
        elif found:
            found[-1][2].append(line)
    return [section for section in found if section[0]]


def items(section):
    """The paragraphs and bullets of a section, each joined into one line."""
    result, current = [], None
    for line in section:
        if not line.strip():
            current = None
        elif line.startswith("- "):
            current = ["bullet", line[2:].strip()]
            result.append(current)
        elif current is not None:
            current[1] += " " + line.strip()
        else:
            current = ["text", line.strip()]
            result.append(current)
    return result


def entry(version, date, section):
    when = datetime.strptime(date, "%Y-%m-%d").replace(tzinfo=timezone.utc)
    out = [f"cardfeed ({version}) stable; urgency=medium", ""]
    for kind, text in items(section):
        text = text.replace("`", "")
        if kind == "bullet":
            out.append(textwrap.fill(text, 78, initial_indent="    - ", subsequent_indent="      "))
        else:
            out.append(textwrap.fill(text, 78, initial_indent="  * ", subsequent_indent="    "))
    out += ["", f" -- {MAINTAINER}  {when.strftime('%a, %d %b %Y %H:%M:%S +0000')}"]
    return "\n".join(out)


version, path = sys.argv[1], sys.argv[2]
releases = sections(open(path, encoding="utf-8").read().splitlines())
versions = [release[0] for release in releases]
if version not in versions:
    sys.exit(f"debian_changelog: {path} has no heading '## {version} - YYYY-MM-DD'")
print("\n\n".join(entry(*release) for release in releases[versions.index(version):]))
