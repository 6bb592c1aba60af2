#!/usr/bin/env bash
# The build step of the CardFeed GitHub Action (action.yml): runs `cardfeed build` with the
# action's inputs. Warnings and errors become annotations on the pull request by themselves:
# cardfeed prints them as workflow commands whenever GITHUB_ACTIONS=true.
#
# Environment (from action.yml's inputs): CARDFEED_SITE, CARDFEED_OUTPUT, CARDFEED_BASE_URL,
# CARDFEED_STRICT (true or false).
set -euo pipefail

site=${CARDFEED_SITE:-.}
arguments=(build "$site")
output=${CARDFEED_OUTPUT:-}
if [ -n "$output" ]; then arguments+=(--output "$output"); else output=${site%/}/public; fi
if [ -n "${CARDFEED_BASE_URL:-}" ]; then arguments+=(--base-url "$CARDFEED_BASE_URL"); fi
case "${CARDFEED_STRICT:-false}" in
  true) arguments+=(--strict) ;;
  false) ;;
  *)
    echo "::error title=cardfeed::the strict input is \"$CARDFEED_STRICT\"; use true or false"
    exit 1
    ;;
esac

echo "cardfeed ${arguments[*]}"
cardfeed "${arguments[@]}"
if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "output=$output" >> "$GITHUB_OUTPUT"; fi
