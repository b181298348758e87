/// The fleet console's page and script, carried in the binary. One page, `/fleet`, in one of
/// three states the server chooses (first admin, sign-in, the fleet); the script fills it from
/// the API. Nothing inline (the Content-Security-Policy allows 'self' only), every name shown
/// with `textContent`, never as markup.
enum FleetConsoleAssets {
    enum Page: String {
        case setup, login, fleet
    }

    static func html(_ page: Page, csrf: String?, account: String?, role: String?) -> String {
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\" />\n"
        out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\" />\n"
        out += "<meta name=\"referrer\" content=\"no-referrer\" />\n"
        if let csrf { out += "<meta name=\"csrf-token\" content=\"" + HTMLText.escape(csrf) + "\" />\n" }
        out += "<title>fpmod fleet console</title>\n<link rel=\"icon\" href=\"data:,\" />\n"
        out += "<link rel=\"stylesheet\" href=\"/assets/console.css\" />\n"
        out += "<script src=\"/fleet/assets/fleet.js\" defer=\"defer\"></script>\n</head>\n"
        out += "<body data-page=\"" + page.rawValue + "\"" + (role.map { " data-role=\"" + HTMLText.escape($0) + "\"" } ?? "") + ">\n"
        out += "<header class=\"top\">\n<span class=\"brand\">fpmod fleet console</span>\n"
        if let account {
            out += "<div class=\"who\"><span>Signed in as <strong id=\"account-name\">" + HTMLText.escape(account) + "</strong>"
            out += (role.map { " (" + HTMLText.escape($0) + ")" } ?? "") + "</span> <button type=\"button\" id=\"logout\">Log out</button></div>\n"
        }
        out += "</header>\n<main id=\"main\" tabindex=\"-1\">\n"
        out += "<div id=\"alert\" class=\"alert\" role=\"alert\" aria-live=\"assertive\"></div>\n"
        switch page {
        case .setup: out += setup
        case .login: out += login
        case .fleet: out += fleet
        }
        out += "</main>\n</body>\n</html>\n"
        return out
    }

    static let setup = #"""
<h1>Set up the fleet console</h1>
<form id="setup-form" class="card narrow">
<p>Create the first admin account. The setup code comes from <code>fpmod hub console-setup-code</code> on the hub's own machine; it works once.</p>
<div class="field"><label for="setup-code">Setup code</label>
<input id="setup-code" type="text" autocomplete="one-time-code" autocapitalize="none" spellcheck="false" required="required" /></div>
<div class="field"><label for="setup-name">Admin name</label>
<input id="setup-name" type="text" autocomplete="username" autocapitalize="none" spellcheck="false" required="required" /></div>
<div class="field"><label for="setup-password">Password (10 characters or more)</label>
<input id="setup-password" type="password" autocomplete="new-password" required="required" /></div>
<button id="setup-submit" type="submit" class="primary">Create the admin account</button>
</form>

"""#

    static let login = #"""
<h1>Sign in</h1>
<form id="login-form" class="card narrow">
<div class="field"><label for="login-name">Account name</label>
<input id="login-name" type="text" autocomplete="username" autocapitalize="none" spellcheck="false" required="required" /></div>
<div class="field"><label for="login-password">Password</label>
<input id="login-password" type="password" autocomplete="current-password" required="required" /></div>
<button id="login-submit" type="submit" class="primary">Sign in</button>
</form>

"""#

    static let fleet = #"""
<h1>The fleet</h1>
<section class="card" aria-labelledby="doors-title">
<h2 id="doors-title">Doors</h2>
<table class="table"><thead><tr><th scope="col">Door</th><th scope="col">State</th><th scope="col">Last seen</th><th scope="col">Revision</th><th scope="col">Reader</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
<tbody id="doors"></tbody></table>
<form id="add-door-form" class="row admin-only">
<div class="field"><label for="add-door-name">New door</label><input id="add-door-name" type="text" spellcheck="false" required="required" /></div>
<button type="submit">Make a join code</button>
</form>
<p id="join-code" class="notice" hidden="hidden"></p>
</section>
<section class="card" aria-labelledby="users-title">
<h2 id="users-title">Users</h2>
<form id="user-search" class="row"><div class="field"><label for="user-query">Search</label><input id="user-query" type="search" spellcheck="false" /></div></form>
<form id="add-user-form" class="row admin-only">
<div class="field"><label for="add-user-name">New user</label><input id="add-user-name" type="text" spellcheck="false" required="required" /></div>
<div class="field"><label for="add-user-display">Display name</label><input id="add-user-display" type="text" /></div>
<div class="check"><input id="add-user-admin" type="checkbox" /><label for="add-user-admin">Admin</label></div>
<button type="submit">Add the user</button>
</form>
<form id="add-card-form" class="row admin-only">
<div class="field"><label for="add-card-user">Card for</label><input id="add-card-user" type="text" spellcheck="false" required="required" /></div>
<div class="field"><label for="add-card-number">Number (26:F:N, 34:F:N, uid:HEX)</label><input id="add-card-number" type="text" spellcheck="false" autocomplete="off" required="required" /></div>
<div class="field"><label for="add-card-label">Label</label><input id="add-card-label" type="text" spellcheck="false" /></div>
<button type="submit">Give the card</button>
</form>
<p id="users-count" class="status"></p>
<table class="table"><thead><tr><th scope="col">User</th><th scope="col">Fingers</th><th scope="col">Cards</th><th scope="col">Schedule</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
<tbody id="users"></tbody></table>
<div id="reach" class="notice" hidden="hidden"></div>
</section>
<section class="card" aria-labelledby="schedules-title">
<h2 id="schedules-title">Schedules</h2>
<p class="status">When a user with a schedule may come in, on each door's clock; a user without one comes in any time.</p>
<table class="table"><thead><tr><th scope="col">Schedule</th><th scope="col">When</th><th scope="col">Users</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
<tbody id="schedules"></tbody></table>
<form id="add-schedule-form" class="row admin-only">
<div class="field"><label for="add-schedule-name">Schedule</label><input id="add-schedule-name" type="text" spellcheck="false" required="required" /></div>
<div class="field"><label for="add-schedule-text">When (mon-fri 07:00-19:00; sat 09:00-12:00)</label><input id="add-schedule-text" type="text" spellcheck="false" required="required" /></div>
<button type="submit">Add or replace the schedule</button>
</form>
<form id="user-schedule-form" class="row admin-only">
<div class="field"><label for="user-schedule-user">User</label><input id="user-schedule-user" type="text" spellcheck="false" required="required" /></div>
<div class="field"><label for="user-schedule-name">Their schedule (empty: none)</label><input id="user-schedule-name" type="text" spellcheck="false" /></div>
<button type="submit">Set their schedule</button>
</form>
</section>
<section class="card" aria-labelledby="holidays-title">
<h2 id="holidays-title">Holidays</h2>
<p class="status">Days when the doors are closed to users with a schedule, or open by other hours.</p>
<table class="table"><thead><tr><th scope="col">Holiday</th><th scope="col">Days</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
<tbody id="holidays"></tbody></table>
<form id="add-holiday-form" class="row admin-only">
<div class="field"><label for="add-holiday-name">Holiday</label><input id="add-holiday-name" type="text" spellcheck="false" required="required" /></div>
<div class="field"><label for="add-holiday-date">One day (YYYY-MM-DD)</label><input id="add-holiday-date" type="text" spellcheck="false" /></div>
<div class="field"><label for="add-holiday-from">Or from</label><input id="add-holiday-from" type="text" spellcheck="false" /></div>
<div class="field"><label for="add-holiday-until">until</label><input id="add-holiday-until" type="text" spellcheck="false" /></div>
<div class="check"><input id="add-holiday-yearly" type="checkbox" /><label for="add-holiday-yearly">Every year</label></div>
<div class="field"><label for="add-holiday-hours">Hours instead (empty: closed)</label><input id="add-holiday-hours" type="text" spellcheck="false" /></div>
<button type="submit">Add or replace the holiday</button>
</form>
</section>
<section class="card" aria-labelledby="audit-title">
<h2 id="audit-title">Audit log</h2>
<table class="table"><thead><tr><th scope="col">Time</th><th scope="col">Event</th><th scope="col">Account</th><th scope="col">Detail</th></tr></thead>
<tbody id="audit"></tbody></table>
</section>

"""#

    static let js = #"""
'use strict';
(() => {
  const page = document.body.dataset.page;
  const admin = document.body.dataset.role === 'admin';
  const byId = (id) => document.getElementById(id);

  function showAlert(message, fix) {
    const box = byId('alert');
    box.textContent = message + (fix ? ' ' + fix : '');
  }

  async function api(method, path, body) {
    const headers = { 'Accept': 'application/json' };
    const init = { method, headers, credentials: 'same-origin', cache: 'no-store' };
    if (body !== undefined) { headers['Content-Type'] = 'application/json'; init.body = JSON.stringify(body); }
    const meta = document.querySelector('meta[name="csrf-token"]');
    if (method !== 'GET' && meta) headers['X-CSRF-Token'] = meta.content;
    const response = await fetch('/fleet/api' + path, init);
    if (response.status === 401 && page === 'fleet') { location.assign('/fleet'); throw new Error('signed out'); }
    const text = response.status === 204 ? '' : await response.text();
    let data = {};
    if (text) { try { data = JSON.parse(text); } catch (_) { data = { error: text.slice(0, 300) }; } }
    if (!response.ok) { showAlert(data.error || ('HTTP ' + response.status), data.fix); throw new Error(data.error || String(response.status)); }
    byId('alert').textContent = '';
    return data;
  }

  function cell(row, text) {
    const td = document.createElement('td');
    td.textContent = text === null || text === undefined ? '' : String(text);
    row.appendChild(td);
    return td;
  }

  function time(seconds) { return seconds ? new Date(seconds * 1000).toLocaleString() : 'never'; }

  function button(label, name, onClick) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    b.dataset.name = name;
    b.addEventListener('click', onClick);
    return b;
  }

  async function loadDoors() {
    const data = await api('GET', '/doors');
    const body = byId('doors');
    body.replaceChildren();
    for (const door of data.doors) {
      const row = document.createElement('tr');
      row.dataset.door = door.name;
      cell(row, door.name); cell(row, door.state); cell(row, time(door.lastSeen)); cell(row, door.lastRevision);
      cell(row, door.reader || 'not known yet');
      const actions = cell(row, '');
      if (admin && !door.revoked && door.joined) {
        const select = document.createElement('select');
        select.setAttribute('aria-label', 'Mode of ' + door.name);
        select.dataset.name = door.name;
        for (const mode of ['normal', 'passage', 'lockdown', 'first-person-in']) {
          const option = document.createElement('option');
          option.value = mode;
          option.textContent = mode;
          select.appendChild(option);
        }
        actions.appendChild(select);
        actions.appendChild(button('Set mode', door.name, async () => {
          await api('POST', '/doors/mode', { name: door.name, mode: select.value });
          await loadAudit();
        }));
        actions.appendChild(button('Revoke', door.name, async () => {
          if (!confirm('Revoke door ' + door.name + '? Its certificate is refused from its next request on; it must join again under a new name.')) return;
          await api('POST', '/doors/revoke', { name: door.name });
          await Promise.all([loadDoors(), loadAudit()]);
        }));
      }
      body.appendChild(row);
    }
  }

  async function loadUsers() {
    const query = byId('user-query').value.trim();
    const data = await api('GET', '/users' + (query ? '?q=' + encodeURIComponent(query) : ''));
    byId('users-count').textContent = data.matching + ' of ' + data.total + ' users' + (data.matching > data.users.length ? ' (the first ' + data.users.length + ' shown)' : '');
    const body = byId('users');
    body.replaceChildren();
    for (const user of data.users) {
      const row = document.createElement('tr');
      row.dataset.user = user.name;
      cell(row, user.name + (user.displayName && user.displayName !== user.name ? ' (' + user.displayName + ')' : '') + (user.role === 'admin' ? ', admin' : ''));
      cell(row, user.fingers.join(', ') || 'none');
      cell(row, user.cards.join(', ') || 'none');
      cell(row, user.schedule || 'any time');
      const actions = cell(row, '');
      actions.appendChild(button('Where', user.name, () => showReach(user.name)));
      if (admin) {
        actions.appendChild(button('Remove', user.name, async () => {
          if (!confirm('Remove ' + user.name + ' and their fingers and cards from every door?')) return;
          await api('POST', '/users/remove', { name: user.name });
          await Promise.all([loadUsers(), loadAudit()]);
        }));
      }
      body.appendChild(row);
    }
  }

  async function showReach(name) {
    const data = await api('GET', '/user?name=' + encodeURIComponent(name));
    const box = byId('reach');
    box.replaceChildren();
    const title = document.createElement('strong');
    title.textContent = name + "'s fingers";
    box.appendChild(title);
    box.appendChild(validityLine(name, data.user));
    const list = document.createElement('ul');
    for (const finger of data.user.fingerReach) {
      const item = document.createElement('li');
      const usable = finger.usableAt.length ? 'usable at ' + finger.usableAt.join(', ') : 'usable at no door yet';
      const not = finger.notUsableAt.map((n) => 'not at ' + n.door + ': ' + n.why).join('; ');
      item.textContent = finger.label + ' (' + finger.family + '): ' + usable + (not ? '; ' + not : '');
      list.appendChild(item);
    }
    if (!data.user.fingerReach.length) { const item = document.createElement('li'); item.textContent = 'no finger enrolled'; list.appendChild(item); }
    box.appendChild(list);
    const cards = document.createElement('ul');
    cards.id = 'reach-cards';
    for (const card of data.user.cardStates) {
      const item = document.createElement('li');
      const label = card.label;
      const dates = [card.validFrom ? 'from ' + card.validFrom : '', card.validUntil ? 'until ' + card.validUntil : ''].filter(Boolean).join(' ');
      item.textContent = 'card ' + label + ' (' + card.kind + '), ' + (card.enabled ? 'on' : 'off') + (dates ? ', ' + dates + ' UTC' : '') + ' ';
      if (admin) {
        const after = () => Promise.all([loadUsers(), loadAudit(), showReach(name)]);
        const switcher = button(card.enabled ? 'Switch off' : 'Switch on', label, async () => {
          await api('POST', '/cards/switch', { user: name, label, enabled: !card.enabled });
          await after();
        });
        switcher.dataset.action = 'switch';
        item.appendChild(switcher);
        // Dates in UTC (the hub has no door clock), as fpmod hub card-validity reads them by default.
        const from = document.createElement('input'), until = document.createElement('input');
        from.placeholder = 'from YYYY-MM-DD'; until.placeholder = 'until YYYY-MM-DD';
        from.value = card.validFrom || ''; until.value = card.validUntil || '';
        from.setAttribute('aria-label', label + ' valid from (UTC)'); until.setAttribute('aria-label', label + ' valid until (UTC)');
        item.append(from, until);
        const dater = button('Set dates', label, async () => {
          await api('POST', '/cards/validity', { user: name, label, validFrom: from.value.trim() || null, validUntil: until.value.trim() || null });
          await after();
        });
        dater.dataset.action = 'dates';
        const remover = button('Remove card', label, async () => {
          if (!confirm('Remove ' + name + "'s card " + label + ' from every door?')) return;
          await api('POST', '/cards/remove', { user: name, label });
          await after();
        });
        remover.dataset.action = 'remove';
        item.append(dater, remover);
      }
      cards.appendChild(item);
    }
    box.appendChild(cards);
    box.hidden = false;
  }

  // The user's validity (dates in UTC, uses left at each door) and, for an admin, its inputs:
  // all three are sent, as fpmod hub user-validity would set each, an empty one meaning none.
  function validityLine(name, user) {
    const line = document.createElement('p');
    line.id = 'reach-validity';
    const dates = [user.validFrom ? 'from ' + user.validFrom : '', user.validUntil ? 'until ' + user.validUntil : ''].filter(Boolean).join(' ');
    const uses = user.usesLeft === null || user.usesLeft === undefined ? 'no limit on uses' : user.usesLeft + ' uses left at each door';
    line.textContent = 'valid ' + (dates ? dates + ' UTC' : 'at any date') + ', ' + uses + ' ';
    if (!admin) return line;
    const from = document.createElement('input'), until = document.createElement('input'), count = document.createElement('input');
    from.placeholder = 'from YYYY-MM-DD'; until.placeholder = 'until YYYY-MM-DD'; count.placeholder = 'uses (none: no limit)';
    count.type = 'number'; count.min = '0'; count.step = '1';
    from.value = user.validFrom || ''; until.value = user.validUntil || '';
    count.value = user.usesLeft === null || user.usesLeft === undefined ? '' : String(user.usesLeft);
    from.setAttribute('aria-label', name + ' valid from (UTC)'); until.setAttribute('aria-label', name + ' valid until (UTC)');
    count.setAttribute('aria-label', name + ' uses left at each door');
    const setter = button('Set validity', name, async () => {
      const text = count.value.trim();
      await api('POST', '/users/validity', { user: name, validFrom: from.value.trim() || null, validUntil: until.value.trim() || null,
                                             uses: text === '' ? null : Number(text) });
      await Promise.all([loadUsers(), loadAudit(), showReach(name)]);
    });
    setter.dataset.action = 'validity';
    line.append(from, until, count, setter);
    return line;
  }

  async function loadSchedules() {
    const data = await api('GET', '/schedules');
    const body = byId('schedules');
    body.replaceChildren();
    for (const schedule of data.schedules) {
      const row = document.createElement('tr');
      row.dataset.schedule = schedule.name;
      cell(row, schedule.name); cell(row, schedule.text); cell(row, schedule.users.join(', ') || 'nobody');
      const actions = cell(row, '');
      if (admin) {
        actions.appendChild(removeButton('schedule', schedule.name, loadSchedules));
      }
      body.appendChild(row);
    }
  }

  // Remove a schedule or holiday from every door, after asking; then the list and the audit again.
  function removeButton(kind, name, reload) {
    return button('Remove', name, async () => {
      if (!confirm('Remove ' + kind + ' ' + name + ' from every door?')) return;
      await api('POST', '/' + kind + 's/remove', { name });
      await Promise.all([reload(), loadAudit()]);
    });
  }

  async function loadHolidays() {
    const data = await api('GET', '/holidays');
    const body = byId('holidays');
    body.replaceChildren();
    for (const holiday of data.holidays) {
      const row = document.createElement('tr');
      row.dataset.holiday = holiday.name;
      cell(row, holiday.name); cell(row, holiday.description);
      const actions = cell(row, '');
      if (admin) {
        actions.appendChild(removeButton('holiday', holiday.name, loadHolidays));
      }
      body.appendChild(row);
    }
  }

  async function loadAudit() {
    const data = await api('GET', '/audit');
    const body = byId('audit');
    body.replaceChildren();
    for (const entry of data.entries) {
      const row = document.createElement('tr');
      cell(row, time(entry.time)); cell(row, entry.event); cell(row, entry.account); cell(row, entry.detail);
      body.appendChild(row);
    }
  }

  async function signIn(path, body) {
    try { await api('POST', path, body); location.assign('/fleet'); } catch (_) { /* the alert says why */ }
  }

  if (page === 'setup') {
    byId('setup-form').addEventListener('submit', (event) => {
      event.preventDefault();
      signIn('/setup', { code: byId('setup-code').value.trim(), name: byId('setup-name').value.trim(), password: byId('setup-password').value });
    });
  } else if (page === 'login') {
    byId('login-form').addEventListener('submit', (event) => {
      event.preventDefault();
      signIn('/login', { name: byId('login-name').value.trim(), password: byId('login-password').value });
      byId('login-password').value = '';
    });
  } else {
    for (const element of document.querySelectorAll('.admin-only')) element.hidden = !admin;
    byId('logout').addEventListener('click', async () => {
      try { await api('POST', '/logout'); } catch (_) { /* signed out either way */ }
      location.assign('/fleet');
    });
    byId('add-door-form').addEventListener('submit', async (event) => {
      event.preventDefault();
      const name = byId('add-door-name').value.trim();
      const data = await api('POST', '/doors/add', { name });
      const notice = byId('join-code');
      notice.textContent = 'Join code for ' + data.door + ' (works once, for ' + data.validHours + ' hours; shown only now): ' + data.code
        + '. On the door: fpmod join ' + location.origin + ' ' + data.code + ' --authority-sha256 ' + data.authoritySHA256;
      notice.hidden = false;
      await Promise.all([loadDoors(), loadAudit()]);
    });
    byId('add-user-form').addEventListener('submit', async (event) => {
      event.preventDefault();
      await api('POST', '/users', { name: byId('add-user-name').value.trim(), displayName: byId('add-user-display').value.trim(),
                                   admin: byId('add-user-admin').checked });
      byId('add-user-name').value = ''; byId('add-user-display').value = ''; byId('add-user-admin').checked = false;
      await Promise.all([loadUsers(), loadAudit()]);
    });
    byId('add-card-form').addEventListener('submit', async (event) => {
      event.preventDefault();
      const user = byId('add-card-user').value.trim();
      const label = byId('add-card-label').value.trim();
      try {
        await api('POST', '/cards', { user, number: byId('add-card-number').value.trim(), label: label || null });
      } finally {
        byId('add-card-number').value = '';
      }
      await Promise.all([loadUsers(), loadAudit()]);
    });
    byId('add-schedule-form').addEventListener('submit', async (event) => {
      event.preventDefault();
      await api('POST', '/schedules', { name: byId('add-schedule-name').value.trim(), text: byId('add-schedule-text').value.trim() });
      byId('add-schedule-name').value = ''; byId('add-schedule-text').value = '';
      await Promise.all([loadSchedules(), loadAudit()]);
    });
    byId('user-schedule-form').addEventListener('submit', async (event) => {
      event.preventDefault();
      const schedule = byId('user-schedule-name').value.trim();
      await api('POST', '/users/schedule', { user: byId('user-schedule-user').value.trim(), schedule: schedule || null });
      byId('user-schedule-user').value = ''; byId('user-schedule-name').value = '';
      await Promise.all([loadUsers(), loadSchedules(), loadAudit()]);
    });
    byId('add-holiday-form').addEventListener('submit', async (event) => {
      event.preventDefault();
      const field = (id) => byId('add-holiday-' + id).value.trim();
      const hours = field('hours');
      await api('POST', '/holidays', { name: field('name'), date: field('date'), from: field('from'), until: field('until'),
                                      yearly: byId('add-holiday-yearly').checked, closed: hours === '', hours });
      for (const id of ['name', 'date', 'from', 'until', 'hours']) byId('add-holiday-' + id).value = '';
      byId('add-holiday-yearly').checked = false;
      await Promise.all([loadHolidays(), loadAudit()]);
    });
    let searchTimer = null;
    byId('user-query').addEventListener('input', () => { clearTimeout(searchTimer); searchTimer = setTimeout(loadUsers, 250); });
    byId('user-search').addEventListener('submit', (event) => { event.preventDefault(); loadUsers(); });
    Promise.all([loadDoors(), loadUsers(), loadSchedules(), loadHolidays(), loadAudit()]).catch(() => {});
    setInterval(() => { loadDoors().catch(() => {}); }, 15000);
  }
})();

"""#
}
