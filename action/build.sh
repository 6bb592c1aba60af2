#!/usr/bin/env bash
# The build step of the CardFeed GitHub Action (action.yml): runs `cardfeed build` with the
# action's inputs. Warnings and errors become annotations on the pull request by themselves:
# cardfeed prints them as workflow commands whenever GITHUB_ACTIONS=true.
#
# Environment (from action.yml's inputs): CARDFEED_SITE, CARDFEED_OUTPUT, CARDFEED_BASE_URL,
# CARDFEED_STRICT (true or false).
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

# The command as a shell would take it, each argument quoted: one line, whatever the inputs.
echo "cardfeed$(printf ' %q' "${arguments[@]}")"
cardfeed "${arguments[@]}"
set_output output "$output"
