#!/usr/bin/env bash
# Assembles the tar.gz archive from a built binary and its generated man pages and completions.
# Called by scripts/package.sh: build-archive.sh VERSION BINARY EXTRAS_DIR PAGEFIND OUTPUT.tar.gz
set -euo pipefail
umask 022
: "${SOURCE_DATE_EPOCH:?set it to the release date (scripts/package.sh does)}"
version=$1 binary=$2 extras=$3 pagefind=$4
output=$(realpath -m "$5")
name=cardfeed-$version-linux-x86_64
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
folder=$stage/$name

install -d "$folder/man" "$folder/completions"
install -m 0755 "$binary" "$folder/cardfeed"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$folder/cardfeed"
# Pagefind beside cardfeed, where it looks first, and not in the folder a user puts on PATH.
install -D -m 0755 "$pagefind" "$folder/lib/cardfeed/pagefind"
install -m 0644 "$extras"/man/*.1 "$folder/man/"
install -m 0644 "$extras"/completions/* "$folder/completions/"
install -m 0644 README.md LICENSE CHANGELOG.md "$folder/"
# README's links lead into docs/, so the documentation travels with it.
install -d "$folder/docs/screenshots"
install -m 0644 docs/*.md "$folder/docs/"
install -m 0644 docs/screenshots/*.png "$folder/docs/screenshots/"
# The sites docs/customising.md builds (`cardfeed build examples/customised`).
cp -R examples "$folder/examples"
rm -rf "$folder"/examples/*/public  # an example built in the checkout
find "$folder/examples" -type f -exec chmod 0644 {} +
install -m 0644 packaging/copyright "$folder/COPYRIGHT"
# COPYRIGHT points Debian's readers at /usr/share/common-licenses; the archive carries the text.
install -D -m 0644 /usr/share/common-licenses/Apache-2.0 "$folder/licenses/Apache-2.0.txt"
install -m 0644 packaging/pagefind-LICENSE "$folder/licenses/Pagefind-MIT.txt"
install -m 0644 /usr/share/common-licenses/MPL-2.0 "$folder/licenses/MPL-2.0.txt"
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" \
  -C "$stage" -cf - "$name" | gzip -9n > "$output"
echo "package: wrote $5"
