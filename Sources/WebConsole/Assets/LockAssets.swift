// The kiosk lock screen (/lock) for Chromium in kiosk mode on the lock's own touchscreen: one
// page, its stylesheet and its script. No login and no nav; it can only make unlock attempts
// (/lock/api/pin) and show what /lock/api/state and /lock/api/events say.
enum LockAssets {
    static let html = #"""
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1, user-scalable=no" />
<meta name="color-scheme" content="dark" />
<meta name="referrer" content="no-referrer" />
<title>Door</title>
<link rel="icon" href="data:," />
<link rel="stylesheet" href="/assets/lock.css" />
<script src="/assets/lock.js" defer="defer"></script>
</head>
<body>
<main id="lock" class="lock">
<p id="lock-message" class="message" role="status" aria-live="polite"></p>

<section id="screen-touch" class="screen" aria-labelledby="touch-title">
<div class="sensor" aria-hidden="true"></div>
<h1 id="touch-title">Touch the sensor</h1>
<p id="touch-hint" class="hint">Place a finger on the reader to open the door.</p>
<button type="button" id="use-pin" class="wide">Use PIN</button>
</section>

<section id="screen-pin" class="screen" aria-labelledby="pin-title" hidden="hidden">
<h1 id="pin-title">Enter PIN</h1>
<p id="pin-dots" class="dots" role="status" aria-live="polite" aria-label="No digits entered"></p>
<div class="pad" role="group" aria-label="PIN pad">
<button type="button" id="key-1" class="key" data-digit="1">1</button>
<button type="button" id="key-2" class="key" data-digit="2">2</button>
<button type="button" id="key-3" class="key" data-digit="3">3</button>
<button type="button" id="key-4" class="key" data-digit="4">4</button>
<button type="button" id="key-5" class="key" data-digit="5">5</button>
<button type="button" id="key-6" class="key" data-digit="6">6</button>
<button type="button" id="key-7" class="key" data-digit="7">7</button>
<button type="button" id="key-8" class="key" data-digit="8">8</button>
<button type="button" id="key-9" class="key" data-digit="9">9</button>
<button type="button" id="key-erase" class="key" aria-label="Erase one digit">⌫</button>
<button type="button" id="key-0" class="key" data-digit="0">0</button>
<button type="button" id="pin-ok" class="key ok">OK</button>
</div>
<button type="button" id="pin-cancel" class="wide">Cancel</button>
</section>

<section id="screen-lockout" class="screen" aria-labelledby="lockout-title" hidden="hidden">
<h1 id="lockout-title">Too many attempts</h1>
<p id="lockout-text" class="countdown" role="timer" aria-live="off">Try again in a moment</p>
</section>

<section id="screen-open" class="screen open" aria-labelledby="open-title" hidden="hidden">
<h1 id="open-title">Welcome</h1>
<p id="open-text" class="big">Unlocked</p>
</section>
</main>
</body>
</html>

"""#

    static let css = #"""
:root { color-scheme: dark; --bg: #0d1117; --fg: #f0f6fc; --muted: #a9b4c0; --key: #21262d; --line: #3d444d;
  --ok: #238636; --bad: #da3633; --focus: #ffa657; }
* { box-sizing: border-box; }
html, body { height: 100%; margin: 0; }
body { background: var(--bg); color: var(--fg); font: 1.25rem/1.4 system-ui, "Noto Sans", sans-serif;
  user-select: none; -webkit-user-select: none; touch-action: manipulation; overflow: hidden; }
[hidden] { display: none !important; }
:focus-visible { outline: 4px solid var(--focus); outline-offset: 3px; }
.lock { height: 100%; display: flex; flex-direction: column; align-items: center; justify-content: center; padding: 1rem; }
.message { min-height: 1.6em; margin: 0 0 0.5rem; color: var(--muted); text-align: center; font-size: 1.3rem; }
.screen { display: flex; flex-direction: column; align-items: center; gap: 1rem; width: 100%; max-width: 28rem; text-align: center; }
h1 { font-size: clamp(1.8rem, 6vw, 3rem); margin: 0; }
.hint { color: var(--muted); margin: 0; }
.sensor { width: 8rem; height: 8rem; border-radius: 50%; border: 0.5rem solid var(--fg); opacity: 0.8;
  animation: pulse 2s ease-in-out infinite; }
@keyframes pulse { 50% { transform: scale(0.92); opacity: 0.45; } }
button { font: inherit; color: var(--fg); background: var(--key); border: 2px solid var(--line); border-radius: 1rem; cursor: pointer; }
button:active { background: var(--line); }
.wide { min-height: 4.5rem; min-width: 14rem; padding: 0.75rem 2rem; font-size: 1.5rem; }
.dots { min-height: 3rem; font-size: 2.5rem; letter-spacing: 0.5rem; margin: 0; }
.pad { display: grid; grid-template-columns: repeat(3, minmax(4.5rem, 6.5rem)); gap: 0.75rem; }
.key { min-height: 4.5rem; font-size: 2rem; font-weight: 600; }
.key.ok { background: var(--ok); border-color: var(--ok); }
.countdown { font-size: clamp(2rem, 7vw, 3.5rem); font-variant-numeric: tabular-nums; margin: 0; white-space: nowrap; }
#screen-lockout, #screen-open { max-width: 48rem; }
.open h1, .open .big { color: #ffffff; }
body.is-open { background: var(--ok); }
.big { font-size: clamp(2rem, 8vw, 4rem); font-weight: 700; margin: 0; }
@media (max-height: 32rem) { .key { min-height: 3.5rem; } .sensor { width: 5rem; height: 5rem; } }
@media (prefers-reduced-motion: reduce) { .sensor { animation: none; } }
"""#

    static let js = #"""
'use strict';
(() => {
  const byId = (id) => document.getElementById(id);
  const screens = { touch: byId('screen-touch'), pin: byId('screen-pin'), lockout: byId('screen-lockout'), open: byId('screen-open') };
  const message = byId('lock-message');
  const dots = byId('pin-dots');
  const maxDigits = 12;
  let pin = '';
  let current = 'touch';
  let pinRequired = false;
  let idleSeconds = 30;
  let idleTimer = null;
  let countdownTimer = null;
  let openTimer = null;
  let busy = false;

  function show(name) {
    current = name;
    for (const [key, node] of Object.entries(screens)) node.hidden = key !== name;
    document.body.classList.toggle('is-open', name === 'open');
    if (name !== 'lockout') clearInterval(countdownTimer);
    if (name !== 'open') clearTimeout(openTimer);
    const focusTarget = { touch: 'use-pin', pin: 'key-5', lockout: null, open: null }[name];
    if (focusTarget) byId(focusTarget).focus({ preventScroll: true });
    armIdle();
  }

  // Any screen but the touch screen goes back after idleRelockSeconds without input.
  function armIdle() {
    clearTimeout(idleTimer);
    if (current === 'touch') return;
    idleTimer = setTimeout(() => { clearPin(); message.textContent = ''; refresh(); }, Math.max(5, idleSeconds) * 1000);
  }

  function renderDots() {
    dots.textContent = '●'.repeat(pin.length);
    dots.setAttribute('aria-label', pin.length ? pin.length + (pin.length === 1 ? ' digit' : ' digits') + ' entered' : 'No digits entered');
    byId('pin-ok').disabled = pin.length === 0 || busy;
  }
  function clearPin() { pin = ''; renderDots(); }

  function showPinPad(required) {
    pinRequired = required;
    byId('pin-title').textContent = required ? 'Enter PIN to re-enable fingerprint' : 'Enter PIN';
    clearPin();
    show('pin');
  }

  function showLockout(seconds) {
    let left = Math.max(1, Math.ceil(Number(seconds) || 1));
    const text = byId('lockout-text');
    clearPin();
    show('lockout');
    clearInterval(countdownTimer);
    const tick = () => {
      if (left <= 0) { clearInterval(countdownTimer); message.textContent = ''; refresh(); return; }
      text.textContent = 'Try again in ' + left + ' s';
      left -= 1;
    };
    tick();
    countdownTimer = setInterval(tick, 1000);
  }

  function showOpen(who) {
    byId('open-title').textContent = who ? 'Welcome, ' + who : 'Welcome';
    byId('open-text').textContent = 'Unlocked';
    message.textContent = '';
    clearPin();
    show('open');
    clearTimeout(openTimer);
    openTimer = setTimeout(refresh, 5000);
  }

  // Shows what the lock says now: touch, locked-out, pin-required or open.
  function apply(state) {
    if (!state) return;
    if (Number(state.idleRelockSeconds) > 0) idleSeconds = Number(state.idleRelockSeconds);
    if (state.message) message.textContent = String(state.message);
    switch (state.screen) {
      case 'locked-out': showLockout(state.retryInSeconds); break;
      case 'pin-required': if (current !== 'pin' || !pinRequired) showPinPad(true); break;
      case 'open': showOpen(''); break;
      default:
        pinRequired = false;
        byId('touch-hint').textContent = 'Place a finger on the reader to open the door.';
        show('touch');
    }
  }

  async function refresh() {
    try {
      const response = await fetch('/lock/api/state', { cache: 'no-store' });
      if (!response.ok) throw new Error('HTTP ' + response.status);
      apply(await response.json());
    } catch (_) {
      message.textContent = 'The lock is not answering. Try the sensor, or wait a moment.';
      show('touch');
    }
  }

  async function submitPin() {
    if (!pin || busy) return;
    busy = true;
    renderDots();
    const entered = pin;
    clearPin();
    message.textContent = 'Checking…';
    try {
      const response = await fetch('/lock/api/pin', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ pin: entered }), cache: 'no-store' });
      let reply = {};
      try { reply = await response.json(); } catch (_) { reply = {}; }
      if (reply.granted) { showOpen(''); return; }
      message.textContent = reply.message ? String(reply.message) : response.ok ? 'Wrong PIN.' : 'The lock refused (HTTP ' + response.status + ').';
      if (reply.screen === 'locked-out' || response.status === 429) showLockout(reply.retryInSeconds);
      else if (reply.screen === 'pin-required') showPinPad(true);
      else if (reply.screen === 'open') showOpen('');
      else showPinPad(pinRequired);
    } catch (_) {
      message.textContent = 'The lock is not answering. Try again.';
      showPinPad(pinRequired);
    } finally {
      busy = false;
      renderDots();
    }
  }

  function press(digit) {
    if (current !== 'pin' || pin.length >= maxDigits) return;
    pin += digit;
    renderDots();
    armIdle();
  }
  function erase() { pin = pin.slice(0, -1); renderDots(); armIdle(); }
  function cancel() { clearPin(); message.textContent = ''; refresh(); }

  for (let digit = 0; digit <= 9; digit += 1) byId('key-' + digit).addEventListener('click', () => press(String(digit)));
  byId('key-erase').addEventListener('click', erase);
  byId('pin-ok').addEventListener('click', submitPin);
  byId('pin-cancel').addEventListener('click', cancel);
  byId('use-pin').addEventListener('click', () => { message.textContent = ''; showPinPad(false); });
  document.addEventListener('keydown', (event) => {
    if (current !== 'pin') return;
    if (/^[0-9]$/.test(event.key)) { press(event.key); event.preventDefault(); }
    else if (event.key === 'Backspace') { erase(); event.preventDefault(); }
    else if (event.key === 'Enter' && event.target === document.body) { submitPin(); event.preventDefault(); }
    else if (event.key === 'Escape') { cancel(); event.preventDefault(); }
  });
  document.addEventListener('pointerdown', armIdle);

  // Door events: a grant opens the "Welcome" screen at once; lockouts and PIN demands re-read the state.
  const grants = new Set(['unlocked', 'match', 'granted', 'pin-ok', 'card-ok', 'remote-unlock']);
  const changes = new Set(['lockout', 'lockout-permanent', 'lockout-ended', 'lockout-cleared', 'pin-required', 'pin-only-cleared', 'locked']);
  function onDoorEvent(raw) {
    let data;
    try { data = JSON.parse(raw); } catch (_) { return; }
    const name = String(data.event || data.kind || '');
    if (grants.has(name)) {
      if (current !== 'open') showOpen(typeof data.user === 'string' ? data.user : '');
      else if (typeof data.user === 'string' && data.user) byId('open-title').textContent = 'Welcome, ' + data.user;
    } else if (name === 'no-match' || name === 'misplaced' || name === 'retry-scan') {
      if (current === 'touch') { message.textContent = name === 'no-match' ? 'Not recognised. Try again.' : 'Hold the finger still and flat.'; }
    } else if (changes.has(name) && current !== 'open') {
      refresh();
    }
  }
  const source = new EventSource('/lock/api/events');
  source.addEventListener('door', (event) => onDoorEvent(event.data));
  source.addEventListener('message', (event) => onDoorEvent(event.data));

  renderDots();
  refresh();
})();
"""#
}
