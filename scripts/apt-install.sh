#!/usr/bin/env bash
# Installs the Debian packages named that are not installed yet (through sudo when not root).
# Usage: bash scripts/apt-install.sh WHO PACKAGE...   (WHO prefixes the line saying what it installs)
# Used by scripts/setup.sh and scripts/package.sh.
set -euo pipefail
who=$1; shift
missing=()
for p in "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
((${#missing[@]})) || exit 0
echo "$who: installing ${missing[*]}"
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
"${sudo_cmd[@]}" apt-get update -qq
# env: sudo's env_reset would drop a DEBIAN_FRONTEND set before it.
"${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
