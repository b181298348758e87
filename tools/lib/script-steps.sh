# shellcheck shell=bash
# The prelude the tools/ scripts share (bash; sourced after the script sets SCRIPT_NAME):
#
#   say TEXT...      one line, prefixed with the script's name
#   die TEXT...      says it on stderr and exits 1
#   step NAME        starts a timed step ("--- NAME")
#   step_done        ends it with its time in whole seconds ("--- NAME: 12 s")
#
# Every step's time is printed so that a slow CI tier shows where its minutes went.

say() { echo "${SCRIPT_NAME:?set SCRIPT_NAME before sourcing script-steps.sh}: $*"; }
die() {
  say "$*" >&2
  exit 1
}

step_name=
step_start=0
step() {
  step_name=$1
  step_start=$(date +%s)
  say "--- $step_name"
}
step_done() { say "--- $step_name: $(($(date +%s) - step_start)) s"; }
