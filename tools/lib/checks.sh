# shellcheck shell=bash
# The "ok …" / "FAIL …" lines the test scripts print, counted (bash; sourced):
#
#   pass TEXT...     one passed check
#   fail TEXT...     one failed check (the script goes on, so every failure shows)
#   checks_summary   "N passed, M failed"; returns 0 only when nothing failed

passed=0
failed=0
pass() {
  echo "ok   $*"
  passed=$((passed + 1))
}
fail() {
  echo "FAIL $*"
  failed=$((failed + 1))
}
checks_summary() {
  echo "$passed passed, $failed failed"
  [ "$failed" = 0 ]
}
