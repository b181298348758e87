#!/usr/bin/python3
"""The web console and the kiosk lock screen in a real browser (issue 26).

Drives headless Chromium through Debian's python3-selenium against a running `fpmod run` with the
console enabled (a fresh store: the console must still need its setup) and a simulated sensor:

  first-run setup -> dashboard, logout, login, a live enrollment (the simulated sensor touched once
  per prompt), a grant arriving in the dashboard's event list, the audit log and its CSV export,
  settings saved and a broken config refused with its line and column, users (a card added, switched
  off and given dates in the editor), plots, accounts,
  then the lock screen: the PIN pad, cancel, wrong PINs until the lockout counts down.
  Every page is photographed at phone (390x844) and desktop (1280x900) size into --screenshots.

The self-signed certificate is trusted by its public key's pin (--spki, as Chromium's
--ignore-certificate-errors-spki-list takes it), not by ignoring certificate errors.

Example:
  tools/console-browser-test.py --url https://127.0.0.1:8443 --lock-url http://127.0.0.1:8080 \\
      --spki SPKI_BASE64 --setup-code CODE --sim-control 'TOUCH COMMAND {finger}' \\
      --screenshots /tmp/console-shots

  SPKI_BASE64 for a PEM certificate:
  openssl x509 -in cert.pem -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64

Each step is printed; the first failure prints why, saves failure.png and exits 1.
"""

import argparse
import json
import os
import re
import shlex
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

PHONE = (390, 844)
DESKTOP = (1280, 900)
CONSOLE_PAGES = [("dashboard", "/"), ("users", "/users"), ("enroll", "/enroll"), ("log", "/log"),
                 ("plots", "/plots"), ("settings", "/settings"), ("accounts", "/accounts")]
GRANT_EVENTS = ("granted", "match", "unlocked", "pin-ok")


class StepFailed(Exception):
    pass


class Run:
    def __init__(self, args):
        self.args = args
        self.url = args.url.rstrip("/")
        self.lock_url = args.lock_url.rstrip("/")
        self.shots = args.screenshots
        os.makedirs(self.shots, exist_ok=True)
        self.profile = tempfile.mkdtemp(prefix="fpmod-chromium-")
        options = webdriver.ChromeOptions()
        options.binary_location = args.chromium
        for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=%d,%d" % DESKTOP, "--user-data-dir=" + self.profile,
                     "--no-first-run", "--disable-background-networking", "--disable-sync"):
            options.add_argument(flag)
        # Trust the console's self-signed certificate by its key (needs --user-data-dir to be honoured).
        options.add_argument("--ignore-certificate-errors-spki-list=" + args.spki)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(service=Service(args.chromedriver), options=options)
        self.driver.set_script_timeout(args.timeout)
        self.step_number = 0

    # ---- helpers ----

    def step(self, text):
        self.step_number += 1
        print("[%2d] %s" % (self.step_number, text), flush=True)

    def wait(self, condition, what, timeout=None):
        try:
            # A page that is navigating away replaces its elements: a stale one means "not yet".
            return WebDriverWait(self.driver, timeout or self.args.timeout, poll_frequency=0.1,
                                 ignored_exceptions=[StaleElementReferenceException]).until(lambda driver: condition(driver))
        except TimeoutException:
            raise StepFailed("timed out waiting for " + what) from None

    def by_id(self, element_id):
        return self.driver.find_element(By.ID, element_id)

    def present(self, element_id, timeout=None):
        return self.wait(lambda d: d.find_elements(By.ID, element_id) and d.find_element(By.ID, element_id),
                         "#" + element_id, timeout)

    def visible(self, element_id, timeout=None):
        return self.wait(lambda d: d.find_elements(By.ID, element_id) and d.find_element(By.ID, element_id).is_displayed()
                         and d.find_element(By.ID, element_id), "#%s to show" % element_id, timeout)

    def text_of(self, element_id):
        found = self.driver.find_elements(By.ID, element_id)
        return found[0].text.strip() if found else ""

    def type_into(self, element_id, text):
        self.type_retrying(lambda: self.present(element_id), text)

    def type_into_css(self, selector, text):
        self.type_retrying(lambda: self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, selector), selector)[0], text)

    def type_retrying(self, find, text):
        for attempt in range(3):
            try:
                field = find()
                field.clear()
                field.send_keys(text)
                return
            except StaleElementReferenceException:
                # The page re-rendered the field between finding and typing: find it again.
                if attempt == 2:
                    raise

    def open_page(self, path, page):
        self.driver.get(self.url + path)
        self.wait(lambda d: d.execute_script("return document.readyState") == "complete"
                  and d.execute_script("return document.body && document.body.dataset.page") == page,
                  "the %s page at %s (now at %s)" % (page, path, self.driver.current_url))

    def on_page(self, page, what):
        self.wait(lambda d: d.execute_script("return document.body && document.body.dataset.page") == page, what)

    def alert_text(self):
        return self.text_of("alert")

    def set_size(self, size):
        """A phone's viewport through DevTools emulation (a headless window is no narrower than
        about 500 px); the desktop size as the window itself."""
        if size == PHONE:
            self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": size[0], "height": size[1], "deviceScaleFactor": 2, "mobile": True})
        else:
            self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
            self.driver.set_window_size(*size)

    def screenshot(self, name):
        path = os.path.join(self.shots, name + ".png")
        self.driver.save_screenshot(path)
        return path

    def both_sizes(self, name, path=None, page=None, url=None):
        """Screenshots at phone and desktop size; the page reloaded at each size when a path is given."""
        for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
            self.set_size(size)
            if url:
                self.driver.get(url)
                self.wait(lambda d: d.execute_script("return document.readyState") == "complete", url)
            elif path:
                self.open_page(path, page)
            self.settle()
            if label == "phone":
                overflow = self.driver.execute_script(
                    "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
                if overflow > 1:
                    raise StepFailed("%s is %d px wider than a phone's screen" % (name, overflow))
            self.screenshot("%s-%s" % (name, label))
        self.set_size(DESKTOP)

    def settle(self):
        """Lets the page's own requests land before a picture (no fixed waits beyond this one)."""
        time.sleep(0.3)

    def touch(self, why):
        command = self.args.sim_control.replace("{finger}", shlex.quote(self.args.finger))
        print("     touch (%s): %s" % (why, command), flush=True)
        result = subprocess.run(command, shell=True, capture_output=True, text=True, timeout=60)
        if result.returncode != 0:
            raise StepFailed("the touch command failed (exit %d): %s" % (result.returncode,
                             (result.stderr or result.stdout).strip()))

    def csp_violations(self):
        try:
            logs = self.driver.get_log("browser")
        except WebDriverException:
            return []
        return [entry["message"] for entry in logs if "Content Security Policy" in entry.get("message", "")
                or "Refused to" in entry.get("message", "")]

    def check_csp(self, where):
        violations = self.csp_violations()
        if violations:
            raise StepFailed("CSP violations on %s: %s" % (where, violations[:3]))

    # ---- the flow ----

    def setup(self):
        self.step("setup page: the code, the admin's name and password twice")
        self.both_sizes("setup", "/setup", "setup")
        self.type_into("setup-code", self.args.setup_code)
        self.type_into("setup-name", self.args.admin)
        self.type_into("setup-password", self.args.password)
        self.type_into("setup-repeat", self.args.password)
        self.by_id("setup-submit").click()
        self.wait(lambda d: d.execute_script("return document.body.dataset.page") == "dashboard" or self.alert_text(),
                  "the dashboard after setup")
        if self.driver.execute_script("return document.body.dataset.page") != "dashboard":
            raise StepFailed("setup refused: " + self.alert_text())
        self.present("door-state")
        self.check_csp("the setup and dashboard pages")

    def logout_login(self):
        self.step("log out")
        self.by_id("logout").click()
        self.on_page("login", "the login page after logging out")
        self.both_sizes("login", "/login", "login")
        self.step("log in")
        self.type_into("login-name", self.args.admin)
        self.type_into("login-password", self.args.password)
        self.by_id("login-submit").click()
        self.wait(lambda d: d.execute_script("return document.body.dataset.page") == "dashboard"
                  or self.text_of("login-status").startswith(("Wrong", "Too many")) or self.alert_text(),
                  "the dashboard after login")
        if self.driver.execute_script("return document.body.dataset.page") != "dashboard":
            raise StepFailed("login refused: %s %s" % (self.text_of("login-status"), self.alert_text()))

    def enroll(self):
        self.step("enroll %s live, touching the simulated sensor at each prompt" % self.args.user)
        self.open_page("/enroll", "enroll")
        self.type_into("enroll-name", self.args.user)
        self.type_into("enroll-label", self.args.label)
        self.by_id("enroll-submit").click()
        touched = set()
        deadline = time.monotonic() + self.args.timeout * 6
        last_prompt, last_change = "", time.monotonic()
        while time.monotonic() < deadline:
            result = self.text_of("enroll-result")
            if result:
                if not result.startswith("Enrolled"):
                    raise StepFailed("the enrollment failed: " + result)
                print("     " + result, flush=True)
                return
            if self.alert_text():
                raise StepFailed("the enrollment did not start: " + self.alert_text())
            prompt = self.text_of("enroll-prompt")
            if prompt != last_prompt:
                last_prompt, last_change = prompt, time.monotonic()
                quality = self.text_of("enroll-quality")
                print("     prompt: %s %s" % (prompt, ("(" + quality + ")") if quality else ""), flush=True)
            match = re.match(r"Touch (\d+) of (\d+)", prompt)
            if match and match.group(1) not in touched:
                touched.add(match.group(1))
                self.touch("touch %s of %s" % match.groups())
            elif match and time.monotonic() - last_change > 15:
                last_change = time.monotonic()
                self.touch("the prompt stayed: " + prompt)
            time.sleep(0.1)
        raise StepFailed("no enrollment result (last prompt: %r)" % last_prompt)

    def grant_event(self):
        self.step("a touch: a granted event arrives in the dashboard's live list")
        self.open_page("/", "dashboard")
        self.wait(lambda d: self.text_of("events-state").startswith("Live"), "the event stream to connect")
        before = len(self.driver.find_elements(By.CSS_SELECTOR, '#event-list li[data-verdict="granted"]'))
        self.touch("an enrolled finger at the door")
        self.wait(lambda d: len(d.find_elements(By.CSS_SELECTOR, '#event-list li[data-verdict="granted"]')) > before,
                  "a granted event in #event-list")
        print("     event: " + self.driver.find_element(By.CSS_SELECTOR, '#event-list li[data-verdict="granted"]').text,
              flush=True)

    def audit_log(self):
        self.step("audit log: the grant is listed, and the CSV export answers with text/csv")
        self.open_page("/log", "log")
        selector = " , ".join('#log-table tbody tr[data-kind="%s"]' % kind for kind in GRANT_EVENTS)
        self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, selector), "a grant in #log-table")
        self.type_into("log-user", self.args.user)
        href = self.by_id("log-csv").get_attribute("href")
        if "user=" + self.args.user not in href:
            raise StepFailed("the CSV link does not carry the filter: " + href)
        reply = self.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            fetch(arguments[0], {credentials: 'same-origin'})
              .then(async (r) => done({status: r.status, type: r.headers.get('content-type') || '', body: (await r.text()).slice(0, 400)}))
              .catch((e) => done({status: 0, type: '', body: String(e)}));
        """, href)
        if reply["status"] != 200 or "text/csv" not in reply["type"]:
            raise StepFailed("the CSV export answered %s %s: %s" % (reply["status"], reply["type"], reply["body"]))
        print("     CSV: " + reply["body"].splitlines()[0] if reply["body"] else "     CSV: (empty)", flush=True)
        if self.args.cacert:
            cookie = self.driver.get_cookie("fpmod_session")
            if not cookie:
                raise StepFailed("no fpmod_session cookie in the browser")
            context = ssl.create_default_context(cafile=self.args.cacert)
            context.check_hostname = False  # the certificate names the lock's host, the test speaks to 127.0.0.1
            request = urllib.request.Request(href, headers={"Cookie": "fpmod_session=" + cookie["value"]})
            with urllib.request.urlopen(request, context=context, timeout=self.args.timeout) as answer:
                kind = answer.headers.get("Content-Type", "")
                if answer.status != 200 or "text/csv" not in kind:
                    raise StepFailed("urllib: the CSV export answered %s %s" % (answer.status, kind))
                print("     CSV through urllib: %d bytes" % len(answer.read()), flush=True)

    def settings(self):
        self.step("settings: change a value and save")
        self.open_page("/settings", "settings")
        area = self.present("settings-text")
        self.wait(lambda d: area.get_attribute("value").strip(), "the config in #settings-text")
        original = area.get_attribute("value")
        try:
            config = json.loads(original)
        except ValueError as error:
            raise StepFailed("the config the console shows is not JSON: %s" % error)
        policy = config.setdefault("policy", {})
        policy["relayPulseSeconds"] = 4 if policy.get("relayPulseSeconds", 3) != 4 else 5
        self.save_settings(json.dumps(config, indent=2) + "\n", expect_saved=True)
        self.step("settings: broken JSON shows a problem with its line and column")
        broken = original.replace("{", "{\n  \"broken\": ,", 1)
        self.save_settings(broken, expect_saved=False)
        problem = self.driver.find_element(By.CSS_SELECTOR, "#settings-problems li").text
        if not re.search(r"Line \d+, column \d+", problem):
            raise StepFailed("the problem names no line and column: " + problem)
        print("     problem: " + problem, flush=True)
        self.step("settings: the original config saved back")
        self.save_settings(original, expect_saved=True)

    def save_settings(self, text, expect_saved):
        area = self.present("settings-text")
        self.driver.execute_script("arguments[0].value = arguments[1];", area, text)
        self.driver.execute_script("document.getElementById('settings-status').textContent = '';")
        self.by_id("settings-save").click()
        self.wait(lambda d: self.text_of("settings-status").startswith(("Saved", "Not saved")), "the save's answer")
        status = self.text_of("settings-status")
        if expect_saved and not status.startswith("Saved"):
            raise StepFailed("not saved: %s %s %s" % (status, self.text_of("settings-problems"), self.alert_text()))
        if not expect_saved:
            if status.startswith("Saved"):
                raise StepFailed("a broken config was saved")
            self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "#settings-problems li"), "a problem in #settings-problems")
        print("     " + status, flush=True)

    def other_pages(self):
        self.step("users: %s is listed, and found by search" % self.args.user)
        self.open_page("/users", "users")
        row = '#user-table tbody tr[data-user="%s"]' % self.args.user
        self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, row), "%s in #user-table" % self.args.user)
        self.type_into("user-search", self.args.user[:3])
        self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, row) and "matching" in self.text_of("user-count"),
                  "the search's answer")
        self.step("users: a user without a finger, then a PIN and a card in the editor")
        self.type_into("user-search", "")
        self.type_into("user-add-name", "visitor")
        self.present("user-add-submit").click()
        self.wait(lambda d: not d.find_element(By.ID, "user-editor").get_attribute("hidden")
                  and "visitor" in self.text_of("editor-heading"), "the editor open on visitor")
        self.type_into("pin-value", "482913")
        self.present("pin-save").click()
        self.wait(lambda d: "Set the PIN of visitor" in self.text_of("user-count"), "the PIN saved")
        self.type_into("card-number", "26:42:1234")
        self.present("card-add").click()
        self.wait(lambda d: "Card card" in self.text_of("credential-list"), "the card in the credential list")
        visitor = '#user-table tbody tr[data-user="visitor"]'
        self.wait(lambda d: "1 card" in (d.find_elements(By.CSS_SELECTOR, visitor) or [None])[0].text
                  if d.find_elements(By.CSS_SELECTOR, visitor) else False, "visitor's card in #user-table")
        self.step("users: the card switched off by its switch, given dates, and a date the door cannot read refused")
        card = '#credential-list li[data-card="card"] '
        switch = self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, card + "input.card-switch"), "the card's switch")[0]
        if not switch.is_selected():
            raise StepFailed("a new card's switch shows it off")
        switch.click()
        self.wait(lambda d: "card card off." in self.text_of("user-count"), "the switch's answer in #user-count")
        self.wait(lambda d: "switched off" in self.text_of("credential-list")
                  and not d.find_element(By.CSS_SELECTOR, card + "input.card-switch").is_selected(), "the card listed as switched off")
        self.wait(lambda d: "card (off)" in d.find_element(By.CSS_SELECTOR, visitor).text, "the card off in #user-table")
        self.type_into_css(card + "input.card-until", "2099-12-31")
        self.driver.find_element(By.CSS_SELECTOR, card + "button.card-dates-save").click()
        self.wait(lambda d: "valid until 2100-01-01 00:00" in self.text_of("credential-list"), "the card's end, through 2099-12-31")
        self.type_into_css(card + "input.card-from", "next week")
        self.driver.find_element(By.CSS_SELECTOR, card + "button.card-dates-save").click()
        self.wait(lambda d: "is not a day or time" in self.alert_text(), "the bad date refused in #alert")
        print("     " + self.text_of("credential-list").splitlines()[0], flush=True)
        for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
            self.set_size(size)
            self.driver.execute_script("document.getElementById('credential-list').scrollIntoView();")
            self.settle()
            overflow = self.driver.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
            if overflow > 1:
                raise StepFailed("the editor's cards are %d px wider than a %s's screen" % (overflow, label))
            self.screenshot("users-card-" + label)
        self.step("plots: three pictures with summaries")
        self.open_page("/plots", "plots")
        for name in ("latency", "identify", "hourly"):
            self.wait(lambda d: d.execute_script(
                "const i = document.getElementById(arguments[0]); return i.complete && i.naturalWidth > 0;", "plot-" + name),
                "the %s plot to load" % name)
            self.wait(lambda d: self.text_of("plot-%s-summary" % name), "the %s plot's summary" % name)
        self.step("accounts: the admin is listed")
        self.open_page("/accounts", "accounts")
        self.wait(lambda d: self.args.admin in self.text_of("account-table"), "the admin in #account-table")
        self.check_csp("the console's pages")
        self.step("screenshots of every page at phone and desktop size")
        for name, path in CONSOLE_PAGES:
            self.both_sizes(name, path, name)
        self.check_csp("the console's pages")

    def lock_screen(self):
        self.step("lock screen: touch screen, PIN pad, cancel")
        self.driver.get(self.lock_url + "/lock")
        self.visible("screen-touch")
        self.both_sizes("lock-touch")
        self.visible("screen-touch")
        self.by_id("use-pin").click()
        self.visible("screen-pin")
        self.by_id("key-1").click()
        self.by_id("key-2").click()
        dots = self.text_of("pin-dots")
        if re.search(r"\d", dots) or len(dots) != 2:
            raise StepFailed("the PIN shows as %r, not as two dots" % dots)
        for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
            self.set_size(size)
            self.screenshot("lock-pin-" + label)
        self.by_id("pin-cancel").click()
        self.visible("screen-touch")
        idle = self.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            fetch('/lock/api/state').then((r) => r.json()).then((s) => done(s.idleRelockSeconds || 0)).catch(() => done(0));
        """)
        if 0 < idle <= self.args.max_idle_wait:
            self.step("lock screen: the PIN pad re-locks to the touch screen after %s s idle" % idle)
            self.by_id("use-pin").click()
            self.visible("screen-pin")
            self.wait(lambda d: self.by_id("screen-touch").is_displayed(), "the re-lock after %s s" % idle,
                      timeout=max(idle, 5) + 10)
        else:
            print("     (idleRelockSeconds is %s: the re-lock is not waited for; --max-idle-wait %s)"
                  % (idle, self.args.max_idle_wait), flush=True)
        self.step("lock screen: a finger's grant shows Welcome, then the touch screen again")
        self.touch("an enrolled finger at the kiosk")
        self.visible("screen-open")
        if not self.text_of("open-title").startswith("Welcome"):
            raise StepFailed("the open screen says %r" % self.text_of("open-title"))
        self.set_size(PHONE)
        self.screenshot("lock-open-phone")
        self.set_size(DESKTOP)
        self.screenshot("lock-open-desktop")
        self.wait(lambda d: self.by_id("screen-touch").is_displayed(), "the touch screen after Welcome")
        self.step("lock screen: wrong PINs until the lockout counts down")
        for attempt in range(1, self.args.wrong_pins + 1):
            if self.by_id("screen-lockout").is_displayed():
                break
            if not self.by_id("screen-pin").is_displayed():
                self.by_id("use-pin").click()
                self.visible("screen-pin")
            for digit in self.args.wrong_pin:
                self.by_id("key-" + digit).click()
            self.driver.execute_script("document.getElementById('lock-message').textContent = '';")
            self.by_id("pin-ok").click()
            self.wait(lambda d: self.by_id("screen-lockout").is_displayed()
                      or (self.text_of("lock-message") and self.text_of("lock-message") != "Checking…"),
                      "the answer to wrong PIN %d" % attempt)
            print("     wrong PIN %d: %s" % (attempt, self.text_of("lock-message") or "locked out"), flush=True)
        self.visible("screen-lockout")
        first = self.text_of("lockout-text")
        match = re.fullmatch(r"Try again in (\d+) s", first)
        if not match:
            raise StepFailed("the lockout says %r, not 'Try again in N s'" % first)
        self.wait(lambda d: self.text_of("lockout-text") != first, "the countdown to move", timeout=5)
        print("     %s, then %s" % (first, self.text_of("lockout-text")), flush=True)
        for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
            self.set_size(size)
            self.screenshot("lock-lockout-" + label)
        self.check_csp("the lock screen")

    def run(self):
        try:
            self.setup()
            self.logout_login()
            self.enroll()
            self.grant_event()
            self.audit_log()
            self.settings()
            self.other_pages()
            self.lock_screen()
        except (StepFailed, WebDriverException, subprocess.TimeoutExpired, OSError) as error:
            print("FAILED at step %d: %s" % (self.step_number, error), file=sys.stderr, flush=True)
            try:
                print("     at %s; alert: %r" % (self.driver.current_url, self.alert_text()), file=sys.stderr)
                print("     screenshot: " + self.screenshot("failure"), file=sys.stderr)
            except WebDriverException:
                pass
            return 1
        finally:
            self.driver.quit()
        print("PASSED: %d steps; screenshots in %s" % (self.step_number, self.shots), flush=True)
        return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True, help="the console, https://127.0.0.1:PORT")
    parser.add_argument("--lock-url", required=True, help="the lock screen's listener, http://127.0.0.1:PORT2")
    parser.add_argument("--spki", required=True, help="base64 SHA-256 of the certificate's public key")
    parser.add_argument("--setup-code", required=True, help="from fpmod console setup-code")
    parser.add_argument("--sim-control", required=True,
                        help="shell command that touches the simulated sensor, run once per touch; {finger} is replaced")
    parser.add_argument("--screenshots", required=True, help="folder for the PNG screenshots")
    parser.add_argument("--cacert", help="the console's certificate (PEM): also fetch the CSV with urllib")
    parser.add_argument("--admin", default="admin", help="the admin account setup makes (default admin)")
    parser.add_argument("--password", default="correct horse battery staple", help="its password")
    parser.add_argument("--user", default="alice", help="the user to enroll (default alice)")
    parser.add_argument("--label", default="right-index", help="the finger's label")
    parser.add_argument("--finger", default="alice", help="the simulated finger's name, for {finger}")
    parser.add_argument("--wrong-pin", default="90210437", help="a PIN nobody has (digits)")
    parser.add_argument("--wrong-pins", type=int, default=12, help="at most this many wrong PINs before the lockout")
    parser.add_argument("--max-idle-wait", type=float, default=40,
                        help="wait for the lock screen's idle re-lock when idleRelockSeconds is at most this (default 40)")
    parser.add_argument("--timeout", type=float, default=20, help="seconds to wait for each thing (default 20)")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    args = parser.parse_args()
    if not args.wrong_pin.isdigit():
        parser.error("--wrong-pin takes digits only")
    try:
        run = Run(args)
    except WebDriverException as error:
        print("FAILED: cannot start Chromium: %s" % error, file=sys.stderr)
        return 1
    return run.run()


if __name__ == "__main__":
    sys.exit(main())
