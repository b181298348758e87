#!/usr/bin/python3
"""The fleet console (`fpmod hub serve`, /fleet) in a real browser: headless Chromium through
Debian's python3-selenium, against a hub with one joined door ("front") and one user ("alice")
whose console still needs its first admin.

  first admin with the setup code -> the doors and users -> where alice's fingers work ->
  a user added, a card given, switched off, given an end and removed, the user given an end
  and a number of uses, a door set to lockdown ->
  a schedule added and given to a user, a holiday refused, added and removed ->
  the stolen door revoked with a click (confirmed) -> a join code for its replacement ->
  the audit log names the admin for each -> logout -> a wrong password refused -> sign in.

The hub's certificate is trusted by its key's pin (--spki), not by ignoring certificate errors.
Each step is printed; the first failure prints why, saves failure.png and exits 1.

  tools/fleet-console-browser-test.py --url https://127.0.0.1:8443 --spki SPKI_BASE64 --setup-code CODE
"""

import argparse
import os
import sys
import tempfile

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

PASSWORD = "fleet console 2026"


class StepFailed(Exception):
    pass


class Run:
    def __init__(self, args):
        self.args = args
        self.url = args.url.rstrip("/")
        os.makedirs(args.screenshots, exist_ok=True)
        options = webdriver.ChromeOptions()
        options.binary_location = args.chromium
        for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1000",
                     "--user-data-dir=" + tempfile.mkdtemp(prefix="fpmod-chromium-"), "--no-first-run",
                     "--disable-background-networking", "--disable-sync",
                     "--ignore-certificate-errors-spki-list=" + args.spki):
            options.add_argument(flag)
        self.driver = webdriver.Chrome(service=Service(args.chromedriver), options=options)
        self.number = 0

    def step(self, text):
        self.number += 1
        print("[%2d] %s" % (self.number, text), flush=True)

    def wait(self, condition, what):
        try:
            return WebDriverWait(self.driver, self.args.timeout, poll_frequency=0.1,
                                 ignored_exceptions=[StaleElementReferenceException]).until(lambda d: condition(d))
        except TimeoutException:
            raise StepFailed("timed out waiting for " + what) from None

    def page(self):
        return self.driver.execute_script("return document.body && document.body.dataset.page")

    def on_page(self, name):
        self.wait(lambda d: self.page() == name, "the %s page (now %s at %s)" % (name, self.page(), self.driver.current_url))

    def type_into(self, element_id, text):
        field = self.wait(lambda d: d.find_element(By.ID, element_id), "#" + element_id)
        field.clear()
        field.send_keys(text)

    def click(self, element_id):
        self.wait(lambda d: d.find_element(By.ID, element_id), "#" + element_id).click()

    def text(self, element_id):
        return self.driver.find_element(By.ID, element_id).text

    def row_text(self, table, attribute, name):
        rows = self.driver.find_elements(By.CSS_SELECTOR, "#%s tr[data-%s='%s']" % (table, attribute, name))
        return rows[0].text if rows else ""

    def run(self):
        d = self.driver
        self.step("no account yet: /fleet is the setup form")
        d.get(self.url + "/")
        self.on_page("setup")

        self.step("the first admin, with the code from fpmod hub console-setup-code")
        self.type_into("setup-code", self.args.setup_code.lower())
        self.type_into("setup-name", "admin")
        self.type_into("setup-password", PASSWORD)
        self.click("setup-submit")
        self.on_page("fleet")
        self.wait(lambda d: "joined" in self.row_text("doors", "door", "front"), "door front listed as joined")
        self.wait(lambda d: "alice" in self.row_text("users", "user", "alice"), "user alice listed")
        if "Alice A." not in self.row_text("users", "user", "alice"):
            raise StepFailed("alice's display name is not shown: " + self.row_text("users", "user", "alice"))
        d.save_screenshot(os.path.join(self.args.screenshots, "fleet.png"))

        self.step("where alice's fingers work")
        d.find_element(By.CSS_SELECTOR, "#users tr[data-user='alice'] button[data-name='alice']").click()
        self.wait(lambda d: "no finger enrolled" in self.text("reach"), "alice's fingers (none yet)")

        self.step("a user added, a card given (its number kept nowhere), a door set to lockdown")
        self.type_into("add-user-name", "bob")
        self.type_into("add-user-display", "Bob B.")
        d.find_element(By.CSS_SELECTOR, "#add-user-form button[type='submit']").click()
        self.wait(lambda d: "Bob B." in self.row_text("users", "user", "bob"), "user bob listed")
        self.type_into("add-card-user", "bob")
        self.type_into("add-card-number", "26:123:4567")
        self.type_into("add-card-label", "badge")
        d.find_element(By.CSS_SELECTOR, "#add-card-form button[type='submit']").click()
        self.wait(lambda d: "badge (wiegand)" in self.row_text("users", "user", "bob"), "bob's card listed")
        if d.find_element(By.ID, "add-card-number").get_attribute("value"):
            raise StepFailed("the card's number stays in the form after it was given")
        d.find_element(By.CSS_SELECTOR, "#doors tr[data-door='front'] select").send_keys("lockdown")
        buttons = [b for b in d.find_elements(By.CSS_SELECTOR, "#doors tr[data-door='front'] button") if b.text == "Set mode"]
        if len(buttons) != 1:
            raise StepFailed("door front has no Set mode button")
        buttons[0].click()
        self.wait(lambda d: "door front set to lockdown" in self.text("audit"), "the door mode in the audit log")
        if "4567" in self.text("audit"):
            raise StepFailed("a card's number is in the audit log")

        self.step("bob's card removed from where he is shown")
        d.find_element(By.CSS_SELECTOR, "#users tr[data-user='bob'] button[data-name='bob']").click()
        self.wait(lambda d: "badge (wiegand), on" in self.text("reach-cards"), "bob's cards")
        d.find_element(By.CSS_SELECTOR, "#reach-cards button[data-name='badge'][data-action='switch']").click()
        self.wait(lambda d: "card badge of bob switched off" in self.text("audit"), "the card switched off in the audit log")
        self.wait(lambda d: "badge (wiegand), off" in self.text("reach-cards"), "bob's card shown off")
        d.find_element(By.CSS_SELECTOR, "#reach-cards input[aria-label='badge valid until (UTC)']").send_keys("2026-12-26")
        d.find_element(By.CSS_SELECTOR, "#reach-cards button[data-name='badge'][data-action='dates']").click()
        self.wait(lambda d: "until 2026-12-27 00:00 UTC" in self.text("reach-cards"), "bob's card shown with its end")
        d.find_element(By.CSS_SELECTOR, "#reach-cards button[data-name='badge'][data-action='remove']").click()
        self.wait(lambda d: d.switch_to.alert, "the confirmation").accept()
        self.wait(lambda d: "card badge of bob removed" in self.text("audit"), "the card's removal in the audit log")
        self.wait(lambda d: "badge" not in self.row_text("users", "user", "bob"), "bob without the card")

        self.step("bob given an end and three uses beside where he is shown")
        self.wait(lambda d: "no limit on uses" in self.text("reach-validity"), "bob's validity shown")
        d.find_element(By.CSS_SELECTOR, "#reach-validity input[aria-label='bob valid until (UTC)']").send_keys("2026-12-26")
        d.find_element(By.CSS_SELECTOR, "#reach-validity input[aria-label='bob uses left at each door']").send_keys("3")
        d.find_element(By.CSS_SELECTOR, "#reach-validity button[data-name='bob'][data-action='validity']").click()
        self.wait(lambda d: "user bob: valid until 2026-12-27 00:00 UTC, 3 uses left at each door" in self.text("audit"), "bob's validity in the audit log")
        self.wait(lambda d: "until 2026-12-27 00:00 UTC, 3 uses left at each door" in self.text("reach-validity"), "bob shown with his end and uses")

        self.step("a schedule added and given to bob, from their forms")
        self.type_into("add-schedule-name", "office")
        self.type_into("add-schedule-text", "mon-fri 07:00-19:00; sat 09:00-12:00")
        d.find_element(By.CSS_SELECTOR, "#add-schedule-form button[type='submit']").click()
        self.wait(lambda d: "mon-fri 07:00-19:00; sat 09:00-12:00" in self.row_text("schedules", "schedule", "office"), "schedule office listed")
        self.type_into("user-schedule-user", "bob")
        self.type_into("user-schedule-name", "office")
        d.find_element(By.CSS_SELECTOR, "#user-schedule-form button[type='submit']").click()
        self.wait(lambda d: "bob" in self.row_text("schedules", "schedule", "office"), "bob listed under schedule office")
        self.wait(lambda d: "office" in self.row_text("users", "user", "bob"), "bob's schedule in the users")

        self.step("a holiday refused in the alert (its name shown as text, never markup), then added")
        self.type_into("add-holiday-name", "<b>x</b>")
        self.type_into("add-holiday-date", "2026-12-25")
        d.find_element(By.CSS_SELECTOR, "#add-holiday-form button[type='submit']").click()
        self.wait(lambda d: "<b>" in self.text("alert"), "the refusal of a name with markup")
        if d.find_elements(By.CSS_SELECTOR, "#alert b"):
            raise StepFailed("the alert took a typed name as markup")
        self.type_into("add-holiday-name", "christmas")
        self.type_into("add-holiday-date", "2026-02-30")
        d.find_element(By.CSS_SELECTOR, "#add-holiday-form button[type='submit']").click()
        self.wait(lambda d: "not a date" in self.text("alert"), "the refusal of a day that does not exist")
        self.type_into("add-holiday-date", "")
        self.type_into("add-holiday-from", "2026-12-24")
        self.type_into("add-holiday-until", "2026-12-26")
        self.click("add-holiday-yearly")
        d.find_element(By.CSS_SELECTOR, "#add-holiday-form button[type='submit']").click()
        self.wait(lambda d: "12-24 to 12-26, every year, closed" in self.row_text("holidays", "holiday", "christmas"), "holiday christmas listed")
        self.wait(lambda d: "holiday christmas set to" in self.text("audit") and "schedule office set to" in self.text("audit"),
                  "the schedule and the holiday in the audit log")
        d.save_screenshot(os.path.join(self.args.screenshots, "fleet-rules.png"))
        d.find_element(By.CSS_SELECTOR, "#holidays tr[data-holiday='christmas'] button").click()
        self.wait(lambda d: d.switch_to.alert, "the confirmation").accept()
        self.wait(lambda d: not self.row_text("holidays", "holiday", "christmas"), "holiday christmas gone")

        self.step("the stolen door revoked: a click, confirmed")
        buttons = [b for b in d.find_elements(By.CSS_SELECTOR, "#doors tr[data-door='front'] button") if b.text == "Revoke"]
        if len(buttons) != 1:
            raise StepFailed("door front has no Revoke button: %r" % [b.text for b in buttons])
        buttons[0].click()
        self.wait(lambda d: d.switch_to.alert, "the confirmation").accept()
        self.wait(lambda d: "revoked" in self.row_text("doors", "door", "front"), "door front listed as revoked")
        if d.find_elements(By.CSS_SELECTOR, "#doors tr[data-door='front'] button"):
            raise StepFailed("a revoked door still offers Revoke")

        self.step("a join code for its replacement, shown once")
        self.type_into("add-door-name", "front-2")
        d.find_element(By.CSS_SELECTOR, "#add-door-form button[type='submit']").click()
        self.wait(lambda d: d.find_element(By.ID, "join-code").is_displayed() and "front-2" in self.text("join-code"), "the join code")
        if "fpmod join " + self.url not in self.text("join-code") or "--authority-sha256 " not in self.text("join-code"):
            raise StepFailed("the join code does not say the door's command: " + self.text("join-code"))
        self.wait(lambda d: "waiting to join" in self.row_text("doors", "door", "front-2"), "door front-2 waiting to join")

        self.step("the audit log names the admin for each change")
        def audited(d):
            text = self.text("audit")
            return "door front revoked" in text and "join code made for door front-2" in text and "console account admin" in text
        self.wait(audited, "the revocation and the join code in the audit log")
        d.save_screenshot(os.path.join(self.args.screenshots, "fleet-after.png"))

        self.step("logout, then a wrong password is refused")
        self.click("logout")
        self.on_page("login")
        self.type_into("login-name", "admin")
        self.type_into("login-password", "not the password")
        self.click("login-submit")
        self.wait(lambda d: "wrong" in self.text("alert").lower(), "the refusal of a wrong password")
        if self.page() != "login":
            raise StepFailed("a wrong password left the login page")

        self.step("signed in again")
        self.type_into("login-password", PASSWORD)
        self.click("login-submit")
        self.on_page("fleet")
        self.wait(lambda d: "revoked" in self.row_text("doors", "door", "front"), "the doors after signing in")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True)
    parser.add_argument("--spki", required=True)
    parser.add_argument("--setup-code", required=True)
    parser.add_argument("--screenshots", default=tempfile.mkdtemp(prefix="fpmod-fleet-shots-"))
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    parser.add_argument("--timeout", type=float, default=20)
    run = Run(parser.parse_args())
    try:
        run.run()
        print("all steps passed")
        return 0
    except Exception as error:  # noqa: BLE001 -- every failure is reported the same way
        print("FAILED: %s" % error, flush=True)
        try:
            run.driver.save_screenshot(os.path.join(run.args.screenshots, "failure.png"))
        except Exception:  # noqa: BLE001
            pass
        return 1
    finally:
        run.driver.quit()


if __name__ == "__main__":
    sys.exit(main())
