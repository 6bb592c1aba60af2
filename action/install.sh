#!/usr/bin/env bash
# The install step of the CardFeed GitHub Action (action.yml). Downloads the release archive,
# checks it against the release's SHA256SUMS, unpacks it into the runner's tool cache and puts
# cardfeed on PATH. The archive's binary needs only glibc 2.35+, libstdc++ (GCC 12's or newer) and
# libgcc, which every GitHub-hosted Ubuntu runner has, so there is no apt-get and no sudo.
#
# Environment (action.yml sets the first two from its inputs):
#   CARDFEED_VERSION       the release to install, e.g. 1.0.0 (default: this checkout's VERSION)
#   CARDFEED_REPOSITORY    owner/name whose releases to download (default: cardfeed/cardfeed)
#   CARDFEED_RELEASES_URL  where the releases are (default: https://github.com/OWNER/NAME/releases/download);
#                          the tests point it at a file:// folder holding a locally built release
set -euo pipefail
action_root=$(cd "$(dirname "$0")/.." && pwd)

# shellcheck source-path=SCRIPTDIR source=workflow-commands.sh
source "$action_root/action/workflow-commands.sh"

version=${CARDFEED_VERSION:-$(tr -d '[:space:]' < "$action_root/VERSION")}
version=${version#v}
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "version \"$version\" is not a release number such as 1.0.0"
[ "$(uname -s)-$(uname -m)" = Linux-x86_64 ] ||
  fail "cardfeed releases are built for x86_64 Linux; this runner is $(uname -s) $(uname -m) (use runs-on: ubuntu-latest)"

repository=${CARDFEED_REPOSITORY:-cardfeed/cardfeed}
releases=${CARDFEED_RELEASES_URL:-https://github.com/$repository/releases/download}
# curl is allowed https (and file, for the tests) only: say so, rather than let its refusal of
# another protocol read as a release that is not there.
[[ $releases =~ ^(https|file):// ]] ||
  fail "the releases URL $releases is not https:// (the action downloads only over https, so that no one on the way can change the archive)"
name=cardfeed-$version-linux-x86_64
# The layout of @actions/tool-cache: NAME/VERSION/ARCH, and ARCH.complete once it is whole. An
# unpack that fails or is stopped leaves no .complete, so the next run downloads again.
install_root=${RUNNER_TOOL_CACHE:-${RUNNER_TEMP:-${TMPDIR:-/tmp}}}/cardfeed/$version/x64

if [ ! -f "$install_root.complete" ] || [ ! -x "$install_root/$name/cardfeed" ]; then
  download=$(mktemp -d)
  trap 'rm -rf "$download" "$install_root.partial"' EXIT
  for file in "$name.tar.gz" SHA256SUMS; do
    curl --fail --silent --show-error --location --retry 3 --proto '=https,file' --proto-redir '=https' \
      --output "$download/$file" "$releases/v$version/$file" ||
      fail "could not download $releases/v$version/$file (is $version a release of $repository?)"
  done
  grep -q "  $name.tar.gz\$" "$download/SHA256SUMS" || fail "SHA256SUMS of release $version does not list $name.tar.gz"
  (cd "$download" && grep "  $name.tar.gz\$" SHA256SUMS | sha256sum --check --status) ||
    fail "$name.tar.gz does not match the checksum in the release's SHA256SUMS"
  rm -rf "$install_root" "$install_root.partial" "$install_root.complete"
  mkdir -p "$install_root.partial"
  tar -xzf "$download/$name.tar.gz" -C "$install_root.partial" || fail "could not unpack $name.tar.gz"
  mv "$install_root.partial" "$install_root"
  touch "$install_root.complete"
fi

installed=$("$install_root/$name/cardfeed" --version) || fail "the installed cardfeed does not run on this runner"
[ "$installed" = "$version" ] || fail "the release archive holds cardfeed $installed, not $version"
echo "Installed cardfeed $installed in $install_root/$name"
if [ -n "${GITHUB_PATH:-}" ]; then echo "$install_root/$name" >> "$GITHUB_PATH"; fi
set_output version "$installed"
