"""Prints the Debian changelog entry of one release, from CHANGELOG.md's section for it.

Usage: python3 packaging/debian_changelog.py VERSION CHANGELOG.md
Debian's format (https://www.debian.org/doc/debian-policy/ch-source.html#debian-changelog-debian-changelog)
wants bullets as "  * ", lines under 80 columns and an RFC 2822 date; CHANGELOG.md's heading for the
release ("## 1.0.0 - 2026-11-23") gives the date.
"""
import re
import sys
import textwrap
from datetime import datetime, timezone

version, path = sys.argv[1], sys.argv[2]
lines = open(path, encoding="utf-8").read().splitlines()
heading = re.compile(r"^## \[?" + re.escape(version) + r"\]? - (\d{4}-\d{2}-\d{2})$")
start = next((i for i, line in enumerate(lines) if heading.match(line)), None)
if start is None:
    sys.exit(f"debian_changelog: {path} has no heading '## {version} - YYYY-MM-DD'")
date = datetime.strptime(heading.match(lines[start]).group(1), "%Y-%m-%d").replace(tzinfo=timezone.utc)
section = []
for line in lines[start + 1:]:
    if line.startswith("## "):
        break
    section.append(line)

# Paragraphs and bullets of the section, each joined into one line, then wrapped.
items, current = [], None
for line in section:
    if not line.strip():
        current = None
    elif line.startswith("- "):
        current = ["bullet", line[2:].strip()]
        items.append(current)
    elif current is not None:
        current[1] += " " + line.strip()
    else:
        current = ["text", line.strip()]
        items.append(current)

print(f"cardfeed ({version}) stable; urgency=medium\n")
for kind, text in items:
    text = text.replace("`", "")
    if kind == "bullet":
        print(textwrap.fill(text, 78, initial_indent="    - ", subsequent_indent="      "))
    else:
        print(textwrap.fill(text, 78, initial_indent="  * ", subsequent_indent="    "))
print(f"\n -- The CardFeed authors <cardfeed@users.noreply.github.com>  {date.strftime('%a, %d %b %Y %H:%M:%S +0000')}")
