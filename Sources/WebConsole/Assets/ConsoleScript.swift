// /assets/console.js: every console page's behaviour, dispatched on <body data-page>. Plain ES2020,
// no modules, no framework. Data from the server is only ever set as text (textContent,
// createElement), never parsed as HTML: user and account names are anybody's text.
enum ConsoleScript {
    static let js = #"""
'use strict';
(() => {
  const page = document.body.dataset.page || '';
  const role = document.body.dataset.role || '';
  const isAdmin = role === 'admin';
  const byId = (id) => document.getElementById(id);

  // Element helper: el('td', {className: 'x'}, 'text', child, …). Strings become text nodes.
  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    if (props) {
      for (const [key, value] of Object.entries(props)) {
        if (value === undefined || value === null) continue;
        if (key === 'dataset') Object.assign(node.dataset, value);
        else if (key in node && typeof value !== 'string') node[key] = value;
        else if (key === 'className' || key === 'textContent' || key === 'type' || key === 'value' || key === 'href') node[key] = value;
        else node.setAttribute(key, value);
      }
    }
    for (const child of children) {
      if (child === undefined || child === null || child === false) continue;
      node.append(typeof child === 'string' || typeof child === 'number' ? String(child) : child);
    }
    return node;
  }

  function csrfToken() {
    const meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.getAttribute('content') : '';
  }

  function showAlert(message, fix) {
    const region = byId('alert');
    if (!region) return;
    region.textContent = '';
    if (!message) return;
    region.append(el('p', null, String(message)));
    if (fix) region.append(el('p', null, 'What to do: ' + String(fix)));
  }
  const clearAlert = () => showAlert('');

  class ApiError extends Error {
    constructor(status, body) {
      super((body && body.error) || ('HTTP ' + status));
      this.status = status;
      this.body = body || {};
    }
  }

  // One JSON request: the session cookie, the CSRF token on every POST, 401 → /login, an error
  // reply's `error` and `fix` in the alert region (unless its status is in `quietStatuses`).
  async function api(method, path, body, quietStatuses) {
    const headers = { 'Accept': 'application/json' };
    const init = { method, headers, credentials: 'same-origin', cache: 'no-store' };
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    if (method !== 'GET') {
      const token = csrfToken();
      if (token) headers['X-CSRF-Token'] = token;
    }
    let response;
    try {
      response = await fetch(path, init);
    } catch (error) {
      showAlert('The lock did not answer: ' + error.message, 'Check the network, and that fpmod runs with the console enabled.');
      throw error;
    }
    if (response.status === 401 && page !== 'login' && page !== 'setup') {
      location.assign('/login');
      throw new ApiError(401, { error: 'signed out' });
    }
    let data = null;
    if (response.status !== 204) {
      const text = await response.text();
      if (text) {
        try { data = JSON.parse(text); } catch (_) { data = { error: text.slice(0, 300) }; }
      }
    }
    if (!response.ok) {
      const error = new ApiError(response.status, data);
      if (!(quietStatuses || []).includes(response.status)) {
        showAlert(error.body.error || ('The request failed (HTTP ' + response.status + ').'), error.body.fix);
      }
      throw error;
    }
    return data;
  }

  function formatTime(value) {
    if (value === undefined || value === null || value === '') return '';
    const date = typeof value === 'number' ? new Date(value * 1000) : new Date(value);
    if (Number.isNaN(date.getTime())) return String(value);
    return date.toLocaleString();
  }

  function text(value) {
    if (value === undefined || value === null) return '';
    if (typeof value === 'object') return JSON.stringify(value);
    return String(value);
  }

  function setBusy(button, busy) { if (button) button.disabled = busy; }

  // The whole form's submit handler, with the alert cleared first and the button busy meanwhile.
  function onSubmit(form, handler) {
    if (!form) return;
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      clearAlert();
      const button = form.querySelector('button[type="submit"]');
      setBusy(button, true);
      try { await handler(event); } catch (error) { if (!(error instanceof ApiError)) showAlert(error.message); } finally { setBusy(button, false); }
    });
  }

  // Hides admin-only controls from viewers (the server refuses their POSTs anyway).
  function applyRole() {
    if (isAdmin) return;
    for (const node of document.querySelectorAll('.admin-only')) node.hidden = true;
  }

  function wireLogout() {
    const logout = byId('logout');
    if (logout) logout.addEventListener('click', async () => {
      try { await api('POST', '/api/v1/logout'); } catch (_) { /* signed out either way */ }
      location.assign('/login');
    });
  }

  // ---- Events shared by the dashboard ----
  const grantEvents = new Set(['match', 'unlocked', 'granted', 'pin-ok', 'card-ok', 'remote-unlock', 'grace-unlock', 'verified']);
  const denyEvents = new Set(['no-match', 'pin-wrong', 'lockout', 'lockout-permanent', 'denied', 'card-denied', 'door-forced', 'tamper', 'passback-violation']);
  function verdictOf(name) { return grantEvents.has(name) ? 'granted' : denyEvents.has(name) ? 'denied' : 'info'; }

  // ---- Pages ----
  const pages = {};

  pages.login = () => {
    const status = byId('login-status');
    const submit = byId('login-submit');
    api('GET', '/api/v1/setup', undefined, [404]).then((data) => {
      if (data && data.needed) byId('setup-notice').hidden = false;
    }).catch(() => {});
    let timer = null;
    function countDown(seconds) {
      clearInterval(timer);
      let left = Math.max(1, Math.ceil(Number(seconds) || 1));
      submit.disabled = true;
      const tick = () => {
        if (left <= 0) { clearInterval(timer); submit.disabled = false; status.textContent = 'You can try again now.'; return; }
        status.textContent = 'Too many attempts. Try again in ' + left + ' s';
        left -= 1;
      };
      tick();
      timer = setInterval(tick, 1000);
    }
    byId('login-form').addEventListener('submit', async (event) => {
      event.preventDefault();
      clearAlert();
      status.textContent = 'Signing in…';
      submit.disabled = true;
      try {
        await api('POST', '/api/v1/login', { name: byId('login-name').value.trim(), password: byId('login-password').value }, [401, 429]);
        status.textContent = 'Signed in.';
        location.assign('/');
      } catch (error) {
        submit.disabled = false;
        byId('login-password').value = '';
        if (error instanceof ApiError && error.status === 429) {
          countDown(error.body.retryInSeconds);
        } else if (error instanceof ApiError && error.status === 401) {
          status.textContent = 'Wrong name or password.';
          byId('login-password').focus();
        } else {
          status.textContent = '';
        }
      }
    });
  };

  pages.setup = () => {
    api('GET', '/api/v1/setup').then((data) => {
      if (data && data.needed === false) {
        byId('setup-done').hidden = false;
        byId('setup-form').hidden = true;
      }
    }).catch(() => {});
    onSubmit(byId('setup-form'), async () => {
      const password = byId('setup-password').value;
      if (password !== byId('setup-repeat').value) {
        showAlert('The two passwords differ.', 'Type the same password twice.');
        byId('setup-repeat').focus();
        return;
      }
      await api('POST', '/api/v1/setup', { code: byId('setup-code').value.trim(), name: byId('setup-name').value.trim(), password });
      location.assign('/');
    });
  };

  pages.dashboard = () => {
    const modeSelect = byId('door-mode');
    modeSelect.disabled = !isAdmin;
    function renderStatus(data) {
      const door = (data && data.door) || null;
      byId('service-state').textContent = data && data.service ? data.service : 'unknown';
      if (!door) {
        byId('door-state').textContent = 'unknown (the service is not running)';
        byId('lockout-state').textContent = 'unknown';
        byId('reader-state').textContent = 'unknown';
        return;
      }
      const parts = [];
      if (door.door) parts.push(door.door === 'unknown' ? 'no door sensor' : door.door);
      if (door.locked !== undefined) parts.push(door.locked ? 'locked' : 'unlocked');
      if (door.passage) parts.push('held open (passage)');
      if (door.tamper) parts.push('TAMPER');
      byId('door-state').textContent = parts.join(', ') || 'unknown';
      let lockout = 'ready';
      if (door.fingerprintLockout === 'timed') lockout = 'locked out, ' + Math.ceil(Number(door.lockoutRemainingSeconds) || 0) + ' s left';
      else if (door.fingerprintLockout === 'permanent') lockout = 'locked out until a PIN or an admin clears it';
      if (Array.isArray(door.pinRequired) && door.pinRequired.length) lockout += '; PIN required (' + door.pinRequired.join(', ') + ')';
      if (door.pinOnly) lockout += '; PIN only: ' + text(door.pinOnly);
      byId('lockout-state').textContent = lockout;
      byId('reader-state').textContent = [text(door.reader), door.module ? '(' + door.module + ')' : ''].join(' ').trim() || 'unknown';
      if (door.doorMode) {
        if (![...modeSelect.options].some((option) => option.value === door.doorMode)) modeSelect.append(el('option', { value: door.doorMode }, door.doorMode));
        modeSelect.value = door.doorMode;
      }
    }
    async function loadStatus() {
      try { renderStatus(await api('GET', '/api/v1/status')); } catch (_) { renderStatus(null); }
    }
    modeSelect.addEventListener('change', async () => {
      clearAlert();
      modeSelect.disabled = true;
      try { renderStatus(await api('POST', '/api/v1/door/mode', { mode: modeSelect.value })); } catch (_) { await loadStatus(); } finally { modeSelect.disabled = !isAdmin; }
    });

    const list = byId('event-list');
    const state = byId('events-state');
    let refresh = null;
    function addEvent(raw) {
      let data;
      try { data = JSON.parse(raw); } catch (_) { return; }
      const name = text(data.event || data.kind || 'event');
      const verdict = verdictOf(name);
      const when = data.time || data.at;
      const item = el('li', { dataset: { event: name, verdict } },
        el('time', { datetime: when ? text(when) : null }, when ? new Date(when).toLocaleTimeString() : ''),
        el('span', { className: verdict === 'info' ? '' : verdict }, verdict === 'info' ? name : verdict + ': ' + name),
        data.user ? el('span', null, text(data.user)) : null,
        data.reason ? el('span', { className: 'hint' }, text(data.reason)) : null);
      list.prepend(item);
      while (list.children.length > 50) list.lastElementChild.remove();
      clearTimeout(refresh);
      refresh = setTimeout(loadStatus, 400);
    }
    const source = new EventSource('/api/v1/events');
    source.addEventListener('open', () => { state.textContent = 'Live: new events appear at the top.'; });
    source.addEventListener('error', () => { state.textContent = 'Reconnecting to the lock…'; });
    source.addEventListener('door', (event) => addEvent(event.data));
    source.addEventListener('message', (event) => addEvent(event.data));

    async function loadHealth() {
      const body = byId('health-table').tBodies[0];
      body.textContent = '';
      body.append(el('tr', null, el('td', { colSpan: 4 }, 'Checking…')));
      let data;
      try { data = await api('GET', '/api/v1/health'); } catch (_) { body.textContent = ''; return; }
      body.textContent = '';
      for (const check of (data && data.checks) || []) {
        body.append(el('tr', null,
          el('th', { scope: 'row' }, text(check.name)),
          el('td', { className: 'verdict-' + text(check.verdict) }, text(check.verdict)),
          el('td', null, text(check.detail)),
          el('td', null, text(check.fix))));
      }
    }
    byId('health-refresh').addEventListener('click', loadHealth);
    loadStatus();
    loadHealth();
  };

  pages.users = () => {
    const search = byId('user-search');
    const body = byId('user-table').tBodies[0];
    const editor = byId('user-editor');
    let users = [];
    let current = null;
    let schedules = [];

    function validity(from, until) {
      if (!from && !until) return 'always';
      return (from ? 'from ' + text(from) : '') + (from && until ? ' ' : '') + (until ? 'until ' + text(until) : '');
    }

    function renderUsers() {
      body.textContent = '';
      for (const user of users) {
        const fingers = (user.fingers || []).map((finger) => text(finger.label) || 'finger');
        const cards = (user.cards || []).map((card) => (text(card.label) || 'card') + (card.enabled === false ? ' (off)' : ''));
        const credentials = [];
        if (fingers.length) credentials.push(fingers.length + ' finger' + (fingers.length === 1 ? '' : 's') + ' (' + fingers.join(', ') + ')');
        if (cards.length) credentials.push(cards.length + ' card' + (cards.length === 1 ? '' : 's') + ' (' + cards.join(', ') + ')');
        const actions = el('td', { className: 'actions' });
        if (isAdmin) {
          actions.append(el('button', { type: 'button', 'aria-label': 'Edit ' + text(user.name), onclick: () => openEditor(user.name) }, 'Edit'));
          actions.append(el('a', { className: 'button', href: '/enroll?name=' + encodeURIComponent(user.name), 'aria-label': 'Enroll a finger for ' + text(user.name) }, 'Enroll'));
        }
        body.append(el('tr', { dataset: { user: text(user.name) } },
          el('th', { scope: 'row' }, text(user.name), user.admin ? el('span', { className: 'hint' }, ' (admin)') : null),
          el('td', null, credentials.join('; ') || 'none'),
          el('td', null, text(user.schedule) || 'always'),
          el('td', null, validity(user.validFrom, user.validUntil)),
          el('td', null, user.usesLeft === null || user.usesLeft === undefined ? 'unlimited' : text(user.usesLeft)),
          el('td', null, text(user.standing)),
          actions));
      }
      byId('user-count').textContent = users.length + ' user' + (users.length === 1 ? '' : 's') + (search.value ? ' matching “' + search.value + '”' : '');
    }

    async function loadUsers() {
      const query = search.value.trim();
      const data = await api('GET', '/api/v1/users' + (query ? '?q=' + encodeURIComponent(query) : ''));
      users = (data && data.users) || [];
      renderUsers();
      if (current) {
        const still = users.find((user) => user.name === current);
        if (still) fillEditor(still); else if (!query) closeEditor();
      }
    }

    function fillEditor(user) {
      byId('editor-heading').textContent = 'User ' + text(user.name);
      byId('rename-name').value = text(user.name);
      const select = byId('access-schedule');
      select.textContent = '';
      select.append(el('option', { value: '' }, '(always)'));
      for (const schedule of schedules) select.append(el('option', { value: text(schedule.name) }, text(schedule.name)));
      if (user.schedule && !schedules.some((schedule) => schedule.name === user.schedule)) select.append(el('option', { value: text(user.schedule) }, text(user.schedule)));
      select.value = user.schedule ? text(user.schedule) : '';
      byId('access-from').value = user.validFrom ? text(user.validFrom) : '';
      byId('access-until').value = user.validUntil ? text(user.validUntil) : '';
      byId('access-uses').value = user.usesLeft === null || user.usesLeft === undefined ? '' : text(user.usesLeft);
      byId('editor-enroll').href = '/enroll?name=' + encodeURIComponent(user.name);
      byId('user-disable').textContent = user.standing === 'expired' ? 'Enable again' : 'Disable now';
      const list = byId('credential-list');
      list.textContent = '';
      for (const finger of user.fingers || []) {
        list.append(el('li', null, el('span', null, 'Finger ' + (text(finger.label) || '(no label)')),
          el('button', { type: 'button', className: 'danger', onclick: () => removeCredential(user.name, finger.label, 'finger') }, 'Delete finger')));
      }
      for (const card of user.cards || []) list.append(cardItem(user.name, card));
      if (!list.children.length) list.append(el('li', null, 'No credentials yet.'));
    }

    // A card with its switch and its own dates as the list gives them (the door's clock), which
    // the dates form takes back unchanged; an empty date is no bound on that side.
    let cardFields = 0;
    function cardItem(name, card) {
      const label = text(card.label) || '(no label)';
      const on = card.enabled !== false;
      const id = 'card-field-' + (cardFields += 1);
      const toggle = el('input', { id: id + '-on', type: 'checkbox', role: 'switch', className: 'card-switch', checked: on,
        'aria-label': 'Card ' + label + ' on' });
      toggle.addEventListener('change', () => switchCard(name, card.label, toggle));
      const from = el('input', { id: id + '-from', type: 'text', className: 'card-from', value: card.validFrom ? text(card.validFrom) : '',
        placeholder: '2026-12-01 or 2026-12-01 08:00', autocomplete: 'off' });
      const until = el('input', { id: id + '-until', type: 'text', className: 'card-until', value: card.validUntil ? text(card.validUntil) : '',
        placeholder: '2026-12-31', autocomplete: 'off' });
      const dates = el('form', { className: 'inline card-dates', 'aria-label': 'Dates of card ' + label },
        el('div', { className: 'field' }, el('label', { for: from.id }, 'Valid from'), from),
        el('div', { className: 'field' }, el('label', { for: until.id }, 'Valid until'), until),
        el('button', { type: 'submit', className: 'card-dates-save' }, 'Save dates'));
      onSubmit(dates, async () => {
        const reply = await api('POST', '/api/v1/cards/validity',
          { name, label: card.label, validFrom: from.value.trim() || null, validUntil: until.value.trim() || null });
        await loadUsers();
        byId('user-count').textContent = text(name) + '’s card ' + label + ': ' + text(reply && reply.described) + '.' + fleetNote(reply);
      });
      return el('li', { dataset: { card: text(card.label) } },
        el('span', { className: 'card-state' }, 'Card ' + label + ' — ' + (on ? 'on' : 'switched off') + ', valid ' + validity(card.validFrom, card.validUntil)),
        el('span', { className: 'check' }, toggle, el('label', { for: toggle.id }, 'On')),
        dates,
        el('button', { type: 'button', className: 'danger', onclick: () => removeCard(name, card.label) }, 'Delete card'));
    }

    function fleetNote(reply) {
      return reply && reply.toHub ? ' The fleet’s hub has this card: every door follows at this door’s next sync.' : '';
    }

    // The switch shows what the store holds: put back when the change is refused.
    async function switchCard(name, label, toggle) {
      const on = toggle.checked;
      clearAlert();
      toggle.disabled = true;
      let reply;
      try {
        reply = await api('POST', '/api/v1/cards/switch', { name, label, enabled: on });
      } catch (_) {
        toggle.checked = !on;
        toggle.disabled = false;
        return;
      }
      try { await loadUsers(); } catch (_) { return; }
      byId('user-count').textContent = 'Switched ' + text(name) + '’s card ' + text(label) + ' ' + (on ? 'on' : 'off') + '.' + fleetNote(reply);
    }

    function openEditor(name) {
      const user = users.find((candidate) => candidate.name === name);
      if (!user) return;
      current = name;
      fillEditor(user);
      editor.hidden = false;
      editor.focus();
    }
    function closeEditor() { const wasOpen = !editor.hidden; current = null; editor.hidden = true; if (wasOpen) search.focus(); }

    async function removeCard(name, label) {
      if (!confirm('Delete the card “' + text(label) + '” of ' + text(name) + '?')) return;
      clearAlert();
      try { await api('POST', '/api/v1/cards/delete', { name, label }); await loadUsers(); } catch (_) {}
    }

    async function removeCredential(name, label, what) {
      if (!confirm('Delete ' + what + ' “' + text(label) + '” of ' + text(name) + '?')) return;
      clearAlert();
      try { await api('POST', '/api/v1/users/delete', { name, label }); await loadUsers(); } catch (_) {}
    }

    onSubmit(byId('rename-form'), async () => {
      const newName = byId('rename-name').value.trim();
      if (!current || !newName || newName === current) return;
      await api('POST', '/api/v1/users/rename', { name: current, newName });
      current = newName;
      await loadUsers();
    });
    onSubmit(byId('access-form'), async () => {
      if (!current) return;
      const uses = byId('access-uses').value.trim();
      await api('POST', '/api/v1/users/access', {
        name: current,
        schedule: byId('access-schedule').value || null,
        validFrom: byId('access-from').value.trim() || null,
        validUntil: byId('access-until').value.trim() || null,
        uses: uses === '' ? null : Number(uses)
      });
      await loadUsers();
      byId('user-count').textContent = 'Saved the access of ' + current + '.';
    });
    onSubmit(byId('user-add-form'), async () => {
      const name = byId('user-add-name').value.trim();
      if (!name) return;
      await api('POST', '/api/v1/users', { name, admin: byId('user-add-admin').checked });
      byId('user-add-name').value = '';
      await loadUsers();
      openEditor(name);
    });
    onSubmit(byId('pin-form'), async () => {
      if (!current) return;
      await api('POST', '/api/v1/users/pin', { name: current, pin: byId('pin-value').value });
      byId('pin-value').value = '';
      byId('user-count').textContent = 'Set the PIN of ' + current + '.';
    });
    byId('pin-clear').addEventListener('click', async () => {
      if (!current || !confirm('Clear the PIN of “' + current + '”?')) return;
      clearAlert();
      try { await api('POST', '/api/v1/users/pin', { name: current, pin: null }); byId('user-count').textContent = 'Cleared the PIN of ' + current + '.'; } catch (_) {}
    });
    onSubmit(byId('card-form'), async () => {
      if (!current) return;
      const label = byId('card-label').value.trim();
      await api('POST', '/api/v1/cards', { name: current, number: byId('card-number').value.trim(), label: label || null });
      byId('card-number').value = '';
      byId('card-label').value = '';
      await loadUsers();
    });
    byId('user-disable').addEventListener('click', async () => {
      if (!current) return;
      const user = users.find((candidate) => candidate.name === current);
      const disabled = !(user && user.standing === 'expired');
      clearAlert();
      try { await api('POST', '/api/v1/users/disable', { name: current, disabled }); await loadUsers(); } catch (_) {}
    });
    byId('user-delete').addEventListener('click', async () => {
      if (!current || !confirm('Delete the user “' + current + '” and all their fingers and cards?')) return;
      clearAlert();
      try { await api('POST', '/api/v1/users/delete', { name: current }); closeEditor(); await loadUsers(); } catch (_) {}
    });
    byId('editor-close').addEventListener('click', closeEditor);

    async function loadSchedules() {
      const data = await api('GET', '/api/v1/schedules');
      schedules = (data && data.schedules) || [];
      const list = byId('schedule-list');
      list.textContent = '';
      for (const schedule of schedules) {
        const item = el('li', null, el('strong', null, text(schedule.name)), el('code', null, text(schedule.text)));
        if (isAdmin) {
          item.append(el('button', { type: 'button', className: 'danger', 'aria-label': 'Delete schedule ' + text(schedule.name), onclick: async () => {
            if (!confirm('Delete the schedule “' + text(schedule.name) + '”?')) return;
            clearAlert();
            try { await api('POST', '/api/v1/schedules/delete', { name: schedule.name }); await loadSchedules(); } catch (_) {}
          } }, 'Delete'));
        }
        list.append(item);
      }
      if (!schedules.length) list.append(el('li', null, 'No schedules yet.'));
    }
    onSubmit(byId('schedule-form'), async () => {
      await api('POST', '/api/v1/schedules', { name: byId('schedule-name').value.trim(), text: byId('schedule-text').value.trim(), replace: byId('schedule-replace').checked });
      byId('schedule-form').reset();
      await loadSchedules();
    });

    let typing = null;
    search.addEventListener('input', () => { clearTimeout(typing); typing = setTimeout(() => loadUsers().catch(() => {}), 250); });
    byId('user-search-form').addEventListener('submit', (event) => { event.preventDefault(); loadUsers().catch(() => {}); });
    loadSchedules().catch(() => {}).finally(() => loadUsers().catch(() => {}));
  };

  pages.enroll = () => {
    const prompt = byId('enroll-prompt');
    const quality = byId('enroll-quality');
    const steps = byId('enroll-steps');
    const result = byId('enroll-result');
    const submit = byId('enroll-submit');
    const preset = new URLSearchParams(location.search).get('name');
    if (preset) byId('enroll-name').value = preset;
    let source = null;
    onSubmit(byId('enroll-form'), async () => {
      if (source) source.close();
      steps.textContent = '';
      result.textContent = '';
      result.className = 'result';
      quality.textContent = '';
      prompt.textContent = 'Starting…';
      const name = byId('enroll-name').value.trim();
      const label = byId('enroll-label').value.trim();
      let reply;
      try {
        reply = await api('POST', '/api/v1/enrollments', { name, label, admin: byId('enroll-admin').checked });
      } catch (error) {
        prompt.textContent = 'Not started.';
        throw error;
      }
      submit.disabled = true;
      let finished = false;
      source = new EventSource('/api/v1/enrollments/' + encodeURIComponent(text(reply.id)) + '/events');
      source.addEventListener('progress', (event) => {
        let data;
        try { data = JSON.parse(event.data); } catch (_) { return; }
        const count = data.touch && data.of ? 'Touch ' + data.touch + ' of ' + data.of + ': ' : '';
        prompt.textContent = count + text(data.prompt);
        quality.textContent = data.quality === undefined || data.quality === null ? '' : 'Quality: ' + text(data.quality);
        steps.append(el('li', null, count + text(data.prompt) + (data.quality === undefined || data.quality === null ? '' : ' (quality ' + text(data.quality) + ')')));
      });
      source.addEventListener('result', (event) => {
        finished = true;
        source.close();
        submit.disabled = false;
        let data;
        try { data = JSON.parse(event.data); } catch (_) { data = { ok: false, message: event.data }; }
        prompt.textContent = data.ok ? 'Done.' : 'Stopped.';
        result.className = 'result ' + (data.ok ? 'granted' : 'denied');
        result.textContent = (data.ok ? 'Enrolled: ' : 'Not enrolled: ') + text(data.message || (data.name ? data.name + ' ' + text(data.label) : ''));
      });
      source.addEventListener('error', () => {
        if (finished) return;
        if (source.readyState === EventSource.CLOSED) {
          submit.disabled = false;
          result.className = 'result denied';
          result.textContent = 'The enrollment stream ended without a result. Check the user list before trying again.';
        }
      });
    });
  };

  pages.log = () => {
    const body = byId('log-table').tBodies[0];
    const older = byId('log-older');
    let next = null;
    let shown = 0;
    function filters() {
      const params = new URLSearchParams();
      for (const [key, id] of [['user', 'log-user'], ['kind', 'log-kind'], ['since', 'log-since'], ['until', 'log-until']]) {
        const value = byId(id).value.trim();
        if (value) params.set(key, value);
      }
      return params;
    }
    function updateCsv() {
      const query = filters().toString();
      byId('log-csv').href = '/api/v1/log.csv' + (query ? '?' + query : '');
    }
    async function load(append) {
      const params = filters();
      if (append && next !== null) params.set('before', String(next));
      params.set('limit', '100');
      const data = await api('GET', '/api/v1/log?' + params.toString());
      if (!append) { body.textContent = ''; shown = 0; }
      for (const entry of (data && data.entries) || []) {
        const kind = text(entry.kind);
        const verdict = verdictOf(kind);
        body.append(el('tr', { dataset: { id: text(entry.id), kind } },
          el('td', null, el('time', { datetime: text(entry.at) }, formatTime(entry.at))),
          el('td', { className: verdict === 'info' ? '' : verdict }, kind),
          el('td', null, text(entry.user)),
          el('td', null, text(entry.detail))));
        shown += 1;
      }
      next = data && data.next !== undefined ? data.next : null;
      older.hidden = next === null;
      byId('log-count').textContent = shown ? shown + ' entries shown' + (next === null ? ', the oldest included.' : '.') : 'No entries match.';
    }
    byId('log-filters').addEventListener('input', updateCsv);
    onSubmit(byId('log-filters'), async () => { updateCsv(); await load(false); });
    older.addEventListener('click', () => { clearAlert(); load(true).catch(() => {}); });
    updateCsv();
    load(false).catch(() => {});
  };

  pages.plots = () => {
    const names = ['latency', 'identify', 'hourly'];
    async function summarise(name, bust) {
      const image = byId('plot-' + name);
      const summary = byId('plot-' + name + '-summary');
      const url = '/api/v1/plots/' + name + '.svg' + (bust ? '?t=' + Date.now() : '');
      if (bust) image.src = url;
      try {
        const response = await fetch(url, { credentials: 'same-origin', cache: 'no-store' });
        if (response.status === 401) { location.assign('/login'); return; }
        if (!response.ok) { summary.textContent = 'Not available (HTTP ' + response.status + ').'; return; }
        const doc = new DOMParser().parseFromString(await response.text(), 'image/svg+xml');
        const desc = doc.querySelector('desc');
        summary.textContent = desc ? desc.textContent : '';
        if (desc) image.alt = image.alt.split('.')[0] + '. ' + desc.textContent;
      } catch (error) {
        summary.textContent = 'Not available: ' + error.message;
      }
    }
    byId('plots-refresh').addEventListener('click', () => { for (const name of names) summarise(name, true); });
    for (const name of names) summarise(name, false);
  };

  pages.settings = () => {
    const area = byId('settings-text');
    const problems = byId('settings-problems');
    const status = byId('settings-status');
    area.readOnly = !isAdmin;
    function moveCaretToLine(line, column) {
      const lines = area.value.split('\n');
      let offset = 0;
      for (let index = 0; index < Math.min(Math.max(1, line), lines.length) - 1; index += 1) offset += lines[index].length + 1;
      offset += Math.max(0, (Number(column) || 1) - 1);
      offset = Math.min(offset, area.value.length);
      area.focus();
      area.setSelectionRange(offset, offset);
      const lineHeight = area.scrollHeight / Math.max(1, lines.length);
      area.scrollTop = Math.max(0, (line - 3) * lineHeight);
    }
    async function load() {
      problems.textContent = '';
      const data = await api('GET', '/api/v1/settings');
      area.value = data && typeof data.config === 'string' ? data.config : '';
      byId('settings-path').textContent = data && data.path ? text(data.path) : '';
      status.textContent = '';
    }
    onSubmit(byId('settings-form'), async () => {
      problems.textContent = '';
      status.textContent = 'Checking…';
      try {
        const reply = await api('POST', '/api/v1/settings', { config: area.value }, [422]);
        status.textContent = reply && reply.applied === 'restart'
          ? 'Saved. Restart the service for every change to take effect (sudo systemctl restart fpmod).'
          : 'Saved, and the service reloaded it.';
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 422) { status.textContent = 'Not saved.'; throw error; }
        const found = Array.isArray(error.body.problems) ? error.body.problems : [];
        status.textContent = 'Not saved: ' + found.length + ' problem' + (found.length === 1 ? '' : 's') + ' (nothing changed).';
        if (!found.length && error.body.error) found.push({ message: error.body.error });
        for (const problem of found) {
          const where = problem.line ? 'Line ' + problem.line + (problem.column ? ', column ' + problem.column : '') + ': ' : '';
          const item = el('li', null);
          if (problem.line) item.append(el('button', { type: 'button', onclick: () => moveCaretToLine(Number(problem.line), problem.column) }, where + text(problem.message)));
          else item.append(where + text(problem.message));
          problems.append(item);
        }
        const first = found.find((problem) => problem.line);
        if (first) moveCaretToLine(Number(first.line), first.column);
      }
    });
    byId('settings-reload').addEventListener('click', () => { clearAlert(); load().catch(() => {}); });
    load().catch(() => {});
  };

  pages.accounts = () => {
    function row(item, revoke) {
      const actions = el('td', { className: 'actions' });
      if (isAdmin) actions.append(el('button', { type: 'button', className: 'danger', 'aria-label': revoke.label + ' ' + text(item.name), onclick: revoke.run }, revoke.label));
      return el('tr', null, el('th', { scope: 'row' }, text(item.name)), el('td', null, text(item.role)), el('td', null, formatTime(item.createdAt)), actions);
    }
    async function loadAccounts() {
      const data = await api('GET', '/api/v1/accounts');
      const body = byId('account-table').tBodies[0];
      body.textContent = '';
      for (const account of (data && data.accounts) || []) {
        body.append(row(account, { label: 'Delete', run: async () => {
          if (!confirm('Delete the account “' + text(account.name) + '”?')) return;
          clearAlert();
          try { await api('POST', '/api/v1/accounts/delete', { name: account.name }); await loadAccounts(); } catch (_) {}
        } }));
      }
    }
    async function loadTokens() {
      if (!isAdmin) return;
      const data = await api('GET', '/api/v1/tokens');
      const body = byId('token-table').tBodies[0];
      body.textContent = '';
      const tokens = (data && (data.tokens || data.entries)) || [];
      for (const token of tokens) {
        body.append(row(token, { label: 'Revoke', run: async () => {
          if (!confirm('Revoke the token “' + text(token.name) + '”? Scripts using it stop working.')) return;
          clearAlert();
          try { await api('POST', '/api/v1/tokens/revoke', { name: token.name }); await loadTokens(); } catch (_) {}
        } }));
      }
      if (!tokens.length) body.append(el('tr', null, el('td', { colSpan: 4 }, 'No tokens.')));
    }
    onSubmit(byId('account-form'), async () => {
      await api('POST', '/api/v1/accounts', { name: byId('account-name-input').value.trim(), role: byId('account-role-input').value, password: byId('account-password').value });
      byId('account-form').reset();
      await loadAccounts();
    });
    onSubmit(byId('token-form'), async () => {
      const reply = await api('POST', '/api/v1/tokens', { name: byId('token-name').value.trim(), role: byId('token-role').value });
      byId('token-form').reset();
      byId('token-once').hidden = false;
      byId('token-value').value = reply && reply.token ? text(reply.token) : '';
      byId('token-copied').textContent = '';
      byId('token-value').focus();
      byId('token-value').select();
      await loadTokens();
    });
    byId('token-copy').addEventListener('click', async () => {
      const field = byId('token-value');
      try {
        await navigator.clipboard.writeText(field.value);
      } catch (_) {
        field.select();
        document.execCommand('copy');
      }
      byId('token-copied').textContent = 'Copied.';
    });
    byId('logout-everywhere').addEventListener('click', async () => {
      if (!confirm('End every session of your account, this one too?')) return;
      try { await api('POST', '/api/v1/logout-everywhere'); } catch (_) {}
      location.assign('/login');
    });
    loadAccounts().catch(() => {});
    loadTokens().catch(() => {});
  };

  applyRole();
  wireLogout();
  const start = pages[page];
  if (start) start();
})();
"""#
}
