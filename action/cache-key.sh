#!/usr/bin/env bash
# The cache step of the CardFeed GitHub Action (action.yml): where the build cache goes and what
# actions/cache keys it by, for the restore step before the build and the save step after it.
#
# The key is the cardfeed version (a cache of another version is of no use to it), the site
# folder, a hash of the site's cardfeed.yml (other settings make other pages) and the run, so
# that each successful build saves the cache it leaves. The restore keys drop the run, then the
# settings: a run restores the newest cache of its version and site, of the same settings if
# there is one. cardfeed itself checks what it restores and ignores a cache that does not fit
# (with a note): a restored cache can make a build faster, never different.
#
# Environment: CARDFEED_SITE (the site input), CARDFEED_CACHE (the cache input: true or false),
# CARDFEED_INSTALLED (the version the install step installed); RUNNER_OS, GITHUB_RUN_ID and
# GITHUB_RUN_ATTEMPT from the runner.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=workflow-commands.sh
source "$(dirname "$0")/workflow-commands.sh"

case "${CARDFEED_CACHE:-true}" in
  true) ;;
  false) exit 0 ;;
  *) fail "the cache input is \"$CARDFEED_CACHE\"; use true or false" ;;
esac
single_line_input site "${CARDFEED_SITE:-}"
site=${CARDFEED_SITE:-.}
site=${site%/}
version=${CARDFEED_INSTALLED:?the install step gave no version}

# Short hashes: a key holds no comma and at most 512 characters, whatever the site's path.
digest() { sha256sum | cut -c1-16; }
folder=$(printf '%s' "$site" | digest)
if [ -f "$site/cardfeed.yml" ]; then settings=$(digest < "$site/cardfeed.yml"); else settings=none; fi
prefix="cardfeed-$version-${RUNNER_OS:-Linux}-$folder-"

# Beside the site's folders, where cardfeed keeps it by default (SITE/.cardfeed-cache): never in
# the output, which is what gets published.
set_output path "$site/.cardfeed-cache"
# What actions/cache saves: the cache without the output before last that a build keeps in it
# (previous-output), which only a build into the same output folder, on the same machine, uses.
set_output saved "$site/.cardfeed-cache
!$site/.cardfeed-cache/previous-output"
set_output key "$prefix$settings-${GITHUB_RUN_ID:-0}-${GITHUB_RUN_ATTEMPT:-1}"
set_output restore-keys "$prefix$settings-
$prefix"
