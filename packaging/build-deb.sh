#!/usr/bin/env bash
# Assembles the Debian package from a built binary and its generated man pages and completions.
# Called by scripts/package.sh: build-deb.sh VERSION BINARY EXTRAS_DIR PAGEFIND OUTPUT.deb
# Depends: is worked out by dpkg-shlibdeps from the libraries the binary loads.
set -euo pipefail
umask 022
: "${SOURCE_DATE_EPOCH:?set it to the release date (scripts/package.sh does)}"
version=$1 binary=$2 extras=$3 pagefind=$4
output=$(realpath -m "$5")
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
package=$stage/cardfeed
doc=$package/usr/share/doc/cardfeed

install -d "$package/DEBIAN" "$package/usr/bin" "$package/usr/share/man/man1" "$doc" \
  "$package/usr/share/bash-completion/completions" "$package/usr/share/zsh/vendor-completions" \
  "$package/usr/share/fish/vendor_completions.d"
install -m 0755 "$binary" "$package/usr/bin/cardfeed"
# Pagefind (a static binary, as its wheel has it: stripping it would change the bytes the lock
# file checks) where cardfeed looks first, off PATH: it stands in for no other Pagefind.
install -D -m 0755 "$pagefind" "$package/usr/lib/cardfeed/pagefind"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$package/usr/bin/cardfeed"
for page in "$extras"/man/*.1; do
  name=$(basename "$page")
  gzip -9n < "$page" > "$package/usr/share/man/man1/$name.gz"
done
install -m 0644 "$extras/completions/cardfeed.bash" "$package/usr/share/bash-completion/completions/cardfeed"
install -m 0644 "$extras/completions/_cardfeed" "$package/usr/share/zsh/vendor-completions/_cardfeed"
install -m 0644 "$extras/completions/cardfeed.fish" "$package/usr/share/fish/vendor_completions.d/cardfeed.fish"
install -m 0644 packaging/copyright "$doc/copyright"
# The sites docs/customising.md builds (`cardfeed build /usr/share/doc/cardfeed/examples/customised -o …`).
cp -R examples "$doc/examples"
rm -rf "$doc"/examples/*/public  # an example built in the checkout
find "$doc/examples" -type f -exec chmod 0644 {} +
install -D -m 0644 packaging/lintian-overrides "$package/usr/share/lintian/overrides/cardfeed"
python3 packaging/debian_changelog.py "$version" CHANGELOG.md | gzip -9n > "$doc/changelog.gz"

# dpkg-shlibdeps reads debian/control and writes nothing else here. sensible-utils is added by
# hand: `cardfeed serve --open` runs sensible-browser when xdg-open is missing.
mkdir -p "$stage/debian"
printf 'Source: cardfeed\n\nPackage: cardfeed\nArchitecture: amd64\n' > "$stage/debian/control"
# (Pagefind is linked statically and loads nothing.)
depends=$(cd "$stage" && dpkg-shlibdeps -O -e cardfeed/usr/bin/cardfeed | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "package: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

# Counted as dpkg-gencontrol does (each file's size in KiB rounded up, 1 for each folder), not
# with du, whose figure depends on the filesystem the package is staged on.
installed_size=$(cd "$package" && find usr \( -type f -printf '%s\n' \) -o \( -type d -printf '1024\n' \) |
  awk '{ total += int(($1 + 1023) / 1024) } END { print total }')
cat > "$package/DEBIAN/control" <<CONTROL
Package: cardfeed
Version: $version
Architecture: amd64
Maintainer: The CardFeed authors <cardfeed@users.noreply.github.com>
Installed-Size: $installed_size
Depends: $depends, sensible-utils
Suggests: xdg-utils
Section: web
Priority: optional
Homepage: https://github.com/cardfeed/cardfeed
Description: static site generator for Braze News Feed and Content Cards
 cardfeed turns card JSON in the shape of Braze's News Feed and Content Cards
 (banner, captioned image, classic, text announcement, cross promotion) into a
 static website: a feed page per category and an "all" feed, each card type
 rendered through a Mustache template the site can override, Markdown
 descriptions converted with cmark, Atom, RSS 2.0 and JSON feeds and a sitemap.
 .
 It also previews a site while it is edited (cardfeed serve, with live reload)
 and checks a site for CI (cardfeed check --strict). Search (search: true) is
 made by Pagefind, which the package carries in /usr/lib/cardfeed. Placements
 put a feed's newest cards inside other sites' pages, and one site can have a
 tree of pages per language.
CONTROL
(cd "$package" && find usr -type f -print0 | sort -z | xargs -0 md5sum) > "$package/DEBIAN/md5sums"
chmod 0644 "$package/DEBIAN/control" "$package/DEBIAN/md5sums"
find "$package" -type d -exec chmod 0755 {} +
# Every file's time is the release date (SOURCE_DATE_EPOCH), so the package is reproducible.
find "$package" -exec touch --no-dereference --date="@$SOURCE_DATE_EPOCH" {} +
dpkg-deb --root-owner-group -Zxz --build "$package" "$output" >/dev/null
echo "package: wrote $5 (Depends: $depends)"
