# shellcheck shell=bash
# The browser the console tests drive: Debian's chromium, chromedriver and python3-selenium
# (bash; sourced after script-steps.sh). Only the browser tests need them: installed here when
# run as root (as CI runs), not by install-deps.sh.
#
#   need_browser [EXTRA-PACKAGE...]   installs what is missing (root) or dies naming it
need_browser() {
  local missing=() pkg tool
  for pkg in chromium chromium-driver python3-selenium "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" || missing+=("$pkg")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    [ "$(id -u)" -eq 0 ] || die "missing: ${missing[*]} (sudo apt-get install ${missing[*]})"
    say "installing ${missing[*]}"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
  for tool in /usr/bin/chromium /usr/bin/chromedriver; do
    [ -x "$tool" ] || die "$tool is missing: apt-get install chromium chromium-driver python3-selenium"
  done
  /usr/bin/python3 -c "import selenium" 2>/dev/null || die "python3-selenium is missing: apt-get install python3-selenium"
}
