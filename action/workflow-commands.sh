# shellcheck shell=bash
# What both steps of the Action (install.sh, build.sh) print to the runner, which reads every
# line of a step's output for workflow commands (`::error …`, `::stop-commands::…`) and every
# line of GITHUB_OUTPUT as an output. The Action's inputs are data: each value printed goes
# through the escaping CardFeed's own workflow commands use, and outputs are written in the
# delimiter form that holds any value, so no input can start a line of its own.
# Sourced by the steps, not run.

# The value with %, CR and LF escaped as a workflow command's message (%25, %0D, %0A), so that
# it is one line and nothing in it ends the command early.
workflow_escape() {
  local value=${1//'%'/%25}
  value=${value//$'\r'/%0D}
  printf '%s' "${value//$'\n'/%0A}"
}

# Prints an error annotation (and the same line to stderr), then stops the step.
fail() {
  local message
  message=$(workflow_escape "$1")
  echo "::error title=cardfeed::$message"
  echo "cardfeed action: $message" >&2
  exit 1
}

# Refuses an input holding a line break: a folder or address never has one, and the step would
# have to print it.
single_line_input() {
  local name=$1 value=$2
  case "$value" in
    *$'\n'* | *$'\r'*) fail "the $name input \"$value\" holds a line break; give it on one line" ;;
  esac
}

# Sets the step output NAME to VALUE in GITHUB_OUTPUT's delimiter form (NAME<<DELIMITER, the
# value, DELIMITER), with a delimiter the value does not hold, as GitHub's own toolkit does.
set_output() {
  local name=$1 value=$2 delimiter
  [ -n "${GITHUB_OUTPUT:-}" ] || return 0
  delimiter="cardfeed_$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
  case "$value" in *"$delimiter"*) fail "the $name output holds its own delimiter" ;; esac
  printf '%s<<%s\n%s\n%s\n' "$name" "$delimiter" "$value" "$delimiter" >> "$GITHUB_OUTPUT"
}
