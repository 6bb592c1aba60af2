#!/usr/bin/env bash
# Builds CardFeed's release files into dist/ (docs/packaging.md says what is in them and why):
#   dist/cardfeed_<version>_amd64.deb            Debian 12 or newer, Ubuntu: apt-get install ./…deb
#   dist/cardfeed-<version>-linux-x86_64.tar.gz  any x86_64 Linux with glibc 2.35 or newer
#   dist/SHA256SUMS                              their checksums
# Both carry Pagefind (the search index's program, scripts/get-pagefind.sh), beside cardfeed.
# Both binaries carry the Swift runtime, Foundation (with ICU) and cmark, linked statically. The
# package's binary also loads mimalloc and zlib, declared dependencies (lintian refuses a package
# whose binary embeds zlib: Debian patches its security fixes in one place); the archive's binary
# needs only libc6, libstdc++6 and libgcc-s1, so it has zlib linked in and keeps glibc's allocator.
#
# Usage: bash scripts/package.sh      (the version is the one in VERSION)
# Installs the Debian tools it needs (dpkg-dev, lintian, libcmark-dev, libmimalloc-dev, zlib1g-dev, libxxhash-dev, python3) if
# missing; the C stand-in is compiled with the clang of the Swift toolchain.
# The same input gives byte-identical files: times come from the release's CHANGELOG.md date.
set -euo pipefail
shopt -s inherit_errexit
umask 022  # the files' modes go into the package as they are
cd "$(dirname "$0")/.."
root=$(pwd)

version=$(tr -d '[:space:]' < VERSION)
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "package: VERSION holds \"$version\", not MAJOR.MINOR.PATCH" >&2; exit 1; }
# The release's date, from its CHANGELOG.md heading ("## 1.0.0 - 2026-11-23").
release_date=$(sed -n "s/^## \[\?$version\]\? - \([0-9-]\{10\}\)\$/\1/p" CHANGELOG.md | head -1)
[ -n "$release_date" ] || { echo "package: CHANGELOG.md has no \"## $version - YYYY-MM-DD\" heading" >&2; exit 1; }
SOURCE_DATE_EPOCH=$(date -u -d "$release_date 00:00:00" +%s)
export SOURCE_DATE_EPOCH

packages=(dpkg-dev lintian libcmark-dev libmimalloc-dev zlib1g-dev libxxhash-dev pkg-config gzip xz-utils python3)
bash scripts/apt-install.sh package "${packages[@]}"

work=$root/.build-package
mkdir -p "$work/link/pkgconfig" dist
# Libraries the linker finds before the system's: cmark as Debian's static archive (so the binary
# does not load libcmark; the archive's binary takes zlib the same way, below), and the no-network
# stand-in for libcurl (packaging/no-network-curl.c).
# SwiftPM asks pkg-config where libcmark is, so a libcmark.pc of our own points it at the folder
# that holds only libcmark.a.
ln -sf /usr/lib/x86_64-linux-gnu/libcmark.a "$work/link/libcmark.a"
rm -f "$work/link/libz.a"
# (It names no folder: the -L of build_flags gives that, and a path holding a space would break it.)
sed "s|^Libs: .*|Libs: -lcmark|" /usr/lib/x86_64-linux-gnu/pkgconfig/libcmark.pc > "$work/link/pkgconfig/libcmark.pc"
export PKG_CONFIG_PATH=$work/link/pkgconfig
clang -O2 -c packaging/no-network-curl.c -o "$work/link/no-network-curl.o"
rm -f "$work/link/libcurl.a"
ar rcD "$work/link/libcurl.a" "$work/link/no-network-curl.o"

# Besides the static runtime: no RUNPATH of $ORIGIN (a library put beside the binary is not
# loaded), symbols bound at start (-z now, with the RELRO Swift already asks for), and no path of
# this checkout in the binary (the same sources built elsewhere give the same bytes).
build_flags=(-c release --static-swift-stdlib --disable-local-rpath -Xlinker -L"$work/link" -Xlinker -z -Xlinker now
  -Xswiftc -file-prefix-map -Xswiftc "$root/=" -Xcc -ffile-prefix-map="$root/=")

# $1: the allocator's name, for the folder the binary is copied to; the rest: environment for
# Package.swift. Prints the copied binary's path. Both builds share one scratch folder: the
# second recompiles only the command's own target (20 s rather than 3 minutes).
build() {
  local flavour=$1; shift
  env "$@" swift build "${build_flags[@]}" --scratch-path "$work/build" --product cardfeed >&2
  mkdir -p "$work/bin/$flavour"
  cp "$(env "$@" swift build "${build_flags[@]}" --scratch-path "$work/build" --show-bin-path)/cardfeed" "$work/bin/$flavour/cardfeed"
  echo "$work/bin/$flavour/cardfeed"
}

echo "package: building cardfeed $version with the mimalloc allocator (for the Debian package)"
deb_binary=$(build mimalloc -u CARDFEED_SYSTEM_MALLOC)
echo "package: building cardfeed $version with the system allocator and zlib linked in (for the archive)"
ln -sf /usr/lib/x86_64-linux-gnu/libz.a "$work/link/libz.a"
archive_binary=$(build system-malloc CARDFEED_SYSTEM_MALLOC=1)

for binary in "$deb_binary" "$archive_binary"; do
  reported=$("$binary" --version)
  [ "$reported" = "$version" ] || { echo "package: $binary says version $reported, VERSION says $version" >&2; exit 1; }
done

# The man pages and completions are generated from the command's own definition: the same
# arguments and help text as `cardfeed --help`.
extras=$work/extras
rm -rf "$extras"
mkdir -p "$extras/man" "$extras/completions"
echo "package: generating the man pages (swift-argument-parser's generate-manual plugin)"
bash scripts/man-page.sh "$extras/man" "$release_date"
# bash-completion sources the script: it has no use for the #! line.
"$deb_binary" --generate-completion-script bash | sed '1{/^#!/d}' > "$extras/completions/cardfeed.bash"
"$deb_binary" --generate-completion-script zsh > "$extras/completions/_cardfeed"
"$deb_binary" --generate-completion-script fish > "$extras/completions/cardfeed.fish"

# Pagefind, for search: the binary of the wheel packaging/pagefind.lock names, and no other bytes.
rm -rf "$work/pagefind"
bash scripts/get-pagefind.sh "$work/pagefind" >&2
pagefind=$work/pagefind/pagefind

bash packaging/build-deb.sh "$version" "$deb_binary" "$extras" "$pagefind" "dist/cardfeed_${version}_amd64.deb"
bash packaging/build-archive.sh "$version" "$archive_binary" "$extras" "$pagefind" "dist/cardfeed-${version}-linux-x86_64.tar.gz"

(cd dist && sha256sum "cardfeed_${version}_amd64.deb" "cardfeed-${version}-linux-x86_64.tar.gz" > SHA256SUMS)

echo "package: lintian"
lintian --fail-on error,warning --info "dist/cardfeed_${version}_amd64.deb"
ls -l "dist/cardfeed_${version}_amd64.deb" "dist/cardfeed-${version}-linux-x86_64.tar.gz" dist/SHA256SUMS
