#!/usr/bin/env bash
# Writes cardfeed's man page, cardfeed.1, into the folder $1, as the packages ship it
# (scripts/package.sh calls it; Tests/EndToEnd/test_manual.py renders it with man-db).
# Usage: bash scripts/man-page.sh FOLDER [DATE]   (DATE: YYYY-MM-DD, default today, UTC)
#
# swift-argument-parser's generate-manual plugin makes the page from the command's own
# definition, the same arguments and help text as `cardfeed --help`. It runs the command from a
# debug build in .build (the one `swift build` makes, so scripts/test.sh has it already); the
# pages come from the command's definition, the same in both.
set -euo pipefail
cd "$(dirname "$0")/.."
folder=${1:?usage: bash scripts/man-page.sh FOLDER [DATE]}
date=${2:-$(date -u +%Y-%m-%d)}
mkdir -p "$folder"
rm -rf .build/plugins/GenerateManual/outputs/CardFeedCLI
swift package plugin generate-manual --configuration debug \
  --date "$date" --authors "The CardFeed authors" >&2
# mdoc takes a blank line for a paragraph break only with a warning (lintian's groff-message):
# the help text's blank lines become .Pp. groff's mdoc heads a section 1 page "BSD General
# Commands Manual" (its operating system's name, BSD unless a page says otherwise, which it reads
# once .Dd has loaded the macros): the page names CardFeed instead. mandoc ignores the line.
# The plugin quotes the one-line description (.Nd "…"), which mdoc shows without the quotes but
# lexgrog keeps, so whatis and apropos showed them: the line goes unquoted.
for page in .build/plugins/GenerateManual/outputs/CardFeedCLI/*.1; do
  sed -e 's/^$/.Pp/' -e '/^\.Dt /i .ds doc-volume-operating-system CardFeed' \
    -e '/^\.Nd "/{s/^\.Nd "/.Nd /;s/"$//}' "$page" > "$folder/$(basename "$page")"
done
