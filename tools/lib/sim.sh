# shellcheck shell=bash
# A host-side `fpmod sim` for the VM tests (bash; sourced; needs die and REPO, and
# SIM_CONTROL set to the simulator's control socket):
#
#   sim_wait_started PID OUT ERR   waits until the simulator started as PID (stdout to OUT,
#                                  stderr to ERR) has its socket and has printed its pty;
#                                  sets SIM_TTY; dies with its stderr if it never does
#   simctl LINE                    one line to its control socket, the reply line on stdout

sim_wait_started() { # PID OUT ERR
  local n=0
  until [ -S "$SIM_CONTROL" ] && [ -s "$2" ]; do
    n=$((n + 1))
    if [ $n -gt 300 ] || ! kill -0 "$1" 2>/dev/null; then
      cat "$3" >&2
      die "fpmod sim did not start (no control socket after 30 s)"
    fi
    sleep 0.1
  done
  # shellcheck disable=SC2034 # for the caller
  SIM_TTY=$(head -n 1 "$2")
}

simctl() { python3 "$REPO/tools/lib/simctl.py" "$SIM_CONTROL" "$*"; }
