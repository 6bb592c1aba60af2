#!/usr/bin/env bash
# The build step of the CardFeed GitHub Action (action.yml): runs `cardfeed build` with the
# action's inputs. Warnings and errors become annotations on the pull request by themselves:
# cardfeed prints them as workflow commands whenever GITHUB_ACTIONS=true.
#
# Environment (from action.yml's inputs): CARDFEED_SITE, CARDFEED_OUTPUT, CARDFEED_BASE_URL,
# CARDFEED_STRICT (true or false); and CARDFEED_CACHE_DIR, the folder the cache step restored the
# build cache into (cache-key.sh), empty with the cache input false.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=workflow-commands.sh
source "$(dirname "$0")/workflow-commands.sh"

single_line_input site "${CARDFEED_SITE:-}"
single_line_input output "${CARDFEED_OUTPUT:-}"
single_line_input base-url "${CARDFEED_BASE_URL:-}"
site=${CARDFEED_SITE:-.}
arguments=(build "$site")
output=${CARDFEED_OUTPUT:-}
if [ -n "$output" ]; then arguments+=(--output "$output"); else output=${site%/}/public; fi
if [ -n "${CARDFEED_BASE_URL:-}" ]; then arguments+=(--base-url "$CARDFEED_BASE_URL"); fi
case "${CARDFEED_STRICT:-false}" in
  true) arguments+=(--strict) ;;
  false) ;;
  *) fail "the strict input is \"$CARDFEED_STRICT\"; use true or false" ;;
esac
single_line_input cache-dir "${CARDFEED_CACHE_DIR:-}"
if [ -n "${CARDFEED_CACHE_DIR:-}" ]; then arguments+=(--cache-dir "$CARDFEED_CACHE_DIR"); else arguments+=(--no-cache); fi

# The command as a shell would take it, each argument quoted: one line, whatever the inputs.
echo "cardfeed$(printf ' %q' "${arguments[@]}")"
cardfeed "${arguments[@]}"
set_output output "$output"
