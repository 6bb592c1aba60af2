#!/usr/bin/env bash
# Installs the Pagefind CardFeed is tested with (packaging/pagefind.lock) as FOLDER/pagefind,
# from the PyPI wheel pagefind_bin, refusing any bytes but those the lock file names. No pip:
# the wheel is a zip file, unpacked with python3 (or unzip).
#
# Usage: bash scripts/get-pagefind.sh [FOLDER]
#   FOLDER defaults to /usr/local/bin, on PATH, where a cardfeed built from source finds it (run it
#   with sudo there); in any other folder, set PAGEFIND=FOLDER/pagefind.
# The wheel is kept in ${CARDFEED_CACHE:-~/.cache/cardfeed} and downloaded once. Used by
# scripts/setup.sh (for the tests) and scripts/package.sh (for the packages).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
folder=${1:-/usr/local/bin}

lock=$here/packaging/pagefind.lock
value() { sed -n "s/^$1=//p" "$lock"; }
version=$(value version) wheel=$(value wheel) url=$(value url)
wheel_sha256=$(value wheel_sha256) binary_sha256=$(value binary_sha256)

fail() { echo "get-pagefind: $*" >&2; exit 1; }
matches() { [ -f "$1" ] && [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$2" ]; }

# The lock file names the Linux x86_64 binary, the one the packages carry.
[ "$(uname -s)-$(uname -m)" = Linux-x86_64 ] ||
  fail "packaging/pagefind.lock names Pagefind for Linux x86_64; this is $(uname -s) $(uname -m): install Pagefind another way and set PAGEFIND"
command -v sha256sum >/dev/null || fail "needs sha256sum (coreutils) to check what it downloads"

if matches "$folder/pagefind" "$binary_sha256"; then
  echo "get-pagefind: $folder/pagefind is Pagefind $version already"
  exit 0
fi
if [ -e "$folder/pagefind" ] || [ -L "$folder/pagefind" ]; then
  echo "get-pagefind: replacing $folder/pagefind ($("$folder/pagefind" --version 2>/dev/null || echo 'not Pagefind '"$version"))"
fi
{ mkdir -p "$folder" 2>/dev/null && [ -w "$folder" ]; } ||
  fail "cannot write to $folder; run it as root (sudo bash scripts/get-pagefind.sh), or name a folder of yours: bash scripts/get-pagefind.sh ~/.local/lib/cardfeed, then export PAGEFIND=~/.local/lib/cardfeed/pagefind"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Without a home (or a cache named), the download is kept only for this run.
cache=${CARDFEED_CACHE:-${HOME:+$HOME/.cache/cardfeed}}
cache=${cache:-$work}
mkdir -p "$cache"
if ! matches "$cache/$wheel" "$wheel_sha256"; then
  echo "get-pagefind: downloading Pagefind $version ($wheel)"
  partial=$work/$wheel.partial
  if command -v curl >/dev/null; then
    curl --fail --silent --show-error --location --retry 3 --proto '=https' --output "$partial" "$url" ||
      fail "could not download $url"
  elif command -v python3 >/dev/null; then
    python3 -c 'import sys, urllib.request; urllib.request.urlretrieve(sys.argv[1], sys.argv[2])' "$url" "$partial" ||
      fail "could not download $url"
  else
    fail "needs curl (sudo apt-get install curl) or python3 to download $url"
  fi
  matches "$partial" "$wheel_sha256" || fail "$url does not have the sha256 packaging/pagefind.lock gives ($wheel_sha256): refused"
  mv -f "$partial" "$cache/$wheel"
fi
if command -v python3 >/dev/null; then
  python3 -c 'import sys, zipfile; open(sys.argv[2], "wb").write(zipfile.ZipFile(sys.argv[1]).read("pagefind_bin/pagefind"))' \
    "$cache/$wheel" "$work/pagefind"
elif command -v unzip >/dev/null; then
  unzip -p "$cache/$wheel" pagefind_bin/pagefind > "$work/pagefind"
else
  fail "needs unzip (sudo apt-get install unzip) or python3 to unpack $wheel"
fi
matches "$work/pagefind" "$binary_sha256" || fail "the binary in $wheel does not have the sha256 packaging/pagefind.lock gives: refused"
chmod 0755 "$work/pagefind"
mv "$work/pagefind" "$folder/pagefind.partial"
mv "$folder/pagefind.partial" "$folder/pagefind"
echo "get-pagefind: installed Pagefind $version as $folder/pagefind"
