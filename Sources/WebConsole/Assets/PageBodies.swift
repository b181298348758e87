// Each page's part inside <main>, after its heading and the alert region. No interpolation: plain
// raw literals keep the type checker fast, and nothing from a request ends up here. Elements the
// browser test and console.js use have stable ids.
enum PageBodies {
    static let login = #"""
<p id="setup-notice" class="notice" hidden="hidden">No account exists yet: <a href="/setup">set up the console</a> first.</p>
<form id="login-form" class="card narrow">
<div class="field"><label for="login-name">Account name</label>
<input id="login-name" name="name" type="text" autocomplete="username" autocapitalize="none" spellcheck="false" required="required" /></div>
<div class="field"><label for="login-password">Password</label>
<input id="login-password" name="password" type="password" autocomplete="current-password" required="required" /></div>
<button id="login-submit" type="submit" class="primary">Sign in</button>
<p id="login-status" class="status" role="status" aria-live="polite"></p>
</form>

"""#

    static let setup = #"""
<p id="setup-done" class="notice" hidden="hidden">The console is set up already. <a href="/login">Sign in</a>.</p>
<form id="setup-form" class="card narrow">
<p>Create the first admin account. The setup code comes from <code>fpmod console setup-code</code> on the lock's own machine; it works once.</p>
<div class="field"><label for="setup-code">Setup code</label>
<input id="setup-code" name="code" type="text" autocomplete="one-time-code" autocapitalize="none" spellcheck="false" required="required" /></div>
<div class="field"><label for="setup-name">Admin name</label>
<input id="setup-name" name="name" type="text" autocomplete="username" autocapitalize="none" spellcheck="false" required="required" /></div>
<div class="field"><label for="setup-password">Password</label>
<input id="setup-password" name="password" type="password" autocomplete="new-password" required="required" /></div>
<div class="field"><label for="setup-repeat">Password again</label>
<input id="setup-repeat" name="repeat" type="password" autocomplete="new-password" required="required" /></div>
<button id="setup-submit" type="submit" class="primary">Create the admin account</button>
</form>

"""#

    static let dashboard = #"""
<div class="grid">
<section class="card" aria-labelledby="door-heading">
<h2 id="door-heading">Door</h2>
<dl class="facts">
<dt>Service</dt><dd id="service-state">…</dd>
<dt>Door</dt><dd id="door-state">…</dd>
<dt>Fingerprint</dt><dd id="lockout-state">…</dd>
<dt>Reader</dt><dd id="reader-state">…</dd>
</dl>
<div class="field"><label for="door-mode">Door mode</label>
<select id="door-mode" name="mode">
<option value="normal">normal</option>
<option value="passage">passage</option>
<option value="lockdown">lockdown</option>
<option value="first-person-in">first-person-in</option>
</select></div>
<p class="hint viewer-only">Viewers see the mode; admins change it.</p>
</section>
<section class="card" aria-labelledby="events-heading">
<h2 id="events-heading">Live events</h2>
<p id="events-state" class="hint">Connecting…</p>
<ul id="event-list" class="events" aria-live="polite" aria-relevant="additions"></ul>
</section>
<section class="card wide" aria-labelledby="health-heading">
<h2 id="health-heading">Health</h2>
<p class="hint">What <code>fpmod doctor</code> finds. <button type="button" id="health-refresh">Run again</button></p>
<div class="scroll"><table id="health-table">
<caption class="sr-only">Health checks</caption>
<thead><tr><th scope="col">Check</th><th scope="col">Verdict</th><th scope="col">Detail</th><th scope="col">Fix</th></tr></thead>
<tbody></tbody>
</table></div>
</section>
</div>

"""#

    static let users = #"""
<form id="user-search-form" class="toolbar" role="search">
<label for="user-search">Search users</label>
<input id="user-search" name="q" type="search" autocomplete="off" />
<a class="button admin-only" href="/enroll">Enroll a new user</a>
</form>
<form id="user-add-form" class="toolbar admin-only">
<label for="user-add-name">New user without a finger yet</label>
<input id="user-add-name" name="name" type="text" autocomplete="off" required="required" />
<span class="check"><input id="user-add-admin" name="admin" type="checkbox" /><label for="user-add-admin">Admin</label></span>
<button type="submit" id="user-add-submit">Add user</button>
</form>
<div class="scroll"><table id="user-table">
<caption class="sr-only">Users</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Credentials</th><th scope="col">Schedule</th><th scope="col">Valid</th><th scope="col">Uses left</th><th scope="col">Standing</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
<tbody></tbody>
</table></div>
<p id="user-count" class="hint" role="status" aria-live="polite"></p>

<section id="user-editor" class="card admin-only" aria-labelledby="editor-heading" hidden="hidden" tabindex="-1">
<h2 id="editor-heading">User</h2>
<form id="rename-form" class="inline">
<div class="field"><label for="rename-name">New name</label>
<input id="rename-name" name="newName" type="text" autocomplete="off" required="required" /></div>
<button type="submit" id="rename-submit">Rename</button>
</form>
<form id="access-form">
<h3>Access</h3>
<div class="row">
<div class="field"><label for="access-schedule">Schedule</label>
<select id="access-schedule" name="schedule"><option value="">(always)</option></select></div>
<div class="field"><label for="access-from">Valid from</label>
<input id="access-from" name="validFrom" type="text" placeholder="2026-12-01 or 2026-12-01 08:00" autocomplete="off" /></div>
<div class="field"><label for="access-until">Valid until</label>
<input id="access-until" name="validUntil" type="text" placeholder="2026-12-31" autocomplete="off" /></div>
<div class="field"><label for="access-uses">Uses left</label>
<input id="access-uses" name="uses" type="number" min="0" step="1" placeholder="unlimited" /></div>
</div>
<p class="hint">Leave a field empty for no limit. Times as <code>fpmod user set</code> takes them.</p>
<button type="submit" id="access-submit">Save access</button>
</form>
<h3>Credentials</h3>
<ul id="credential-list" class="plain"></ul>
<form id="pin-form" class="inline">
<div class="field"><label for="pin-value">PIN (4 to 12 digits)</label>
<input id="pin-value" name="pin" type="password" inputmode="numeric" autocomplete="new-password" required="required" /></div>
<button type="submit" id="pin-save">Set PIN</button>
<button type="button" id="pin-clear">Clear PIN</button>
</form>
<form id="card-form" class="inline">
<div class="field"><label for="card-number">Card number</label>
<input id="card-number" name="number" type="text" autocomplete="off" placeholder="26:123:4567 or uid:04A1B2C3" required="required" /></div>
<div class="field"><label for="card-label">Label</label>
<input id="card-label" name="label" type="text" autocomplete="off" placeholder="card" /></div>
<button type="submit" id="card-add">Add card</button>
</form>
<p><a id="editor-enroll" class="button" href="/enroll">Enroll a finger</a>
<button type="button" id="user-disable">Disable now</button>
<button type="button" id="user-delete" class="danger">Delete user</button>
<button type="button" id="editor-close">Close</button></p>
</section>

<section class="card" aria-labelledby="schedules-heading">
<h2 id="schedules-heading">Schedules</h2>
<ul id="schedule-list" class="plain"></ul>
<form id="schedule-form" class="admin-only">
<div class="row">
<div class="field"><label for="schedule-name">Name</label>
<input id="schedule-name" name="name" type="text" autocomplete="off" required="required" /></div>
<div class="field grow"><label for="schedule-text">Rule</label>
<input id="schedule-text" name="text" type="text" autocomplete="off" placeholder="mon-fri 07:00-19:00; sat 08:00-12:00" required="required" /></div>
</div>
<div class="check"><input id="schedule-replace" name="replace" type="checkbox" /><label for="schedule-replace">Replace a schedule of that name</label></div>
<button type="submit" id="schedule-submit">Save schedule</button>
</form>
</section>

"""#

    static let enroll = #"""
<form id="enroll-form" class="card narrow admin-only">
<div class="field"><label for="enroll-name">User name</label>
<input id="enroll-name" name="name" type="text" autocomplete="off" autocapitalize="none" spellcheck="false" required="required" /></div>
<div class="field"><label for="enroll-label">Finger label</label>
<input id="enroll-label" name="label" type="text" autocomplete="off" placeholder="right-index" /></div>
<div class="check"><input id="enroll-admin" name="admin" type="checkbox" /><label for="enroll-admin">Admin (may clear lockouts at the door)</label></div>
<button id="enroll-submit" type="submit" class="primary">Enroll</button>
</form>
<p class="hint viewer-only">Only admins enroll.</p>
<section class="card narrow" aria-labelledby="enroll-progress-heading">
<h2 id="enroll-progress-heading">At the sensor</h2>
<p id="enroll-prompt" class="prompt" aria-live="polite">Press “Enroll”, then follow the prompts at the sensor.</p>
<p id="enroll-quality" class="hint"></p>
<ol id="enroll-steps" class="steps"></ol>
<p id="enroll-result" class="result" role="status" aria-live="polite"></p>
</section>

"""#

    static let log = #"""
<form id="log-filters" class="card">
<div class="row">
<div class="field"><label for="log-user">User</label>
<input id="log-user" name="user" type="text" autocomplete="off" /></div>
<div class="field"><label for="log-kind">Kind</label>
<input id="log-kind" name="kind" type="text" list="log-kinds" autocomplete="off" placeholder="granted" /></div>
<div class="field"><label for="log-since">Since</label>
<input id="log-since" name="since" type="text" autocomplete="off" placeholder="2026-12-01 or tuesday" /></div>
<div class="field"><label for="log-until">Until</label>
<input id="log-until" name="until" type="text" autocomplete="off" placeholder="2026-12-02" /></div>
</div>
<datalist id="log-kinds">
<option value="granted"></option><option value="match"></option><option value="pin-ok"></option><option value="card-ok"></option>
<option value="locked"></option><option value="door-opened"></option><option value="door-closed"></option><option value="door-forced"></option>
<option value="door-held-open"></option><option value="door-mode"></option><option value="lockout-ended"></option><option value="lockout-cleared"></option>
<option value="tamper"></option><option value="remote-unlock"></option><option value="exit-request"></option><option value="started"></option>
</datalist>
<button type="submit" id="log-apply" class="primary">Show</button>
<a id="log-csv" class="button" href="/api/v1/log.csv" download="fpmod-log.csv">Export CSV</a>
</form>
<div class="scroll"><table id="log-table">
<caption class="sr-only">Audit log, newest first</caption>
<thead><tr><th scope="col">Time</th><th scope="col">Kind</th><th scope="col">User</th><th scope="col">Detail</th></tr></thead>
<tbody></tbody>
</table></div>
<p id="log-count" class="hint" role="status" aria-live="polite"></p>
<button type="button" id="log-older" hidden="hidden">Older entries</button>

"""#

    static let plots = #"""
<p class="hint">Drawn by the lock from its own measurements. <button type="button" id="plots-refresh">Redraw</button></p>
<div class="grid">
<figure class="card plot">
<img id="plot-latency" src="/api/v1/plots/latency.svg" alt="Histogram of the time from a touch to the door's decision" width="640" height="360" />
<figcaption><strong>Touch to decision</strong> <span id="plot-latency-summary" class="summary"></span></figcaption>
</figure>
<figure class="card plot">
<img id="plot-identify" src="/api/v1/plots/identify.svg" alt="Scatter plot of identify time against the number of enrolled fingers" width="640" height="360" />
<figcaption><strong>Identify time against library size</strong> <span id="plot-identify-summary" class="summary"></span></figcaption>
</figure>
<figure class="card plot wide">
<img id="plot-hourly" src="/api/v1/plots/hourly.svg" alt="Bar chart of grants and denials per hour" width="640" height="360" />
<figcaption><strong>Grants and denials per hour</strong> <span id="plot-hourly-summary" class="summary"></span></figcaption>
</figure>
</div>

"""#

    static let settings = #"""
<form id="settings-form" class="card">
<p class="hint">The lock's config file <code id="settings-path"></code>, checked as <code>fpmod config check</code> checks it before it is saved.</p>
<div class="field"><label for="settings-text">Config (JSON)</label>
<textarea id="settings-text" name="config" rows="24" spellcheck="false" autocapitalize="none" aria-describedby="settings-problems"></textarea></div>
<button type="submit" id="settings-save" class="primary admin-only">Save</button>
<button type="button" id="settings-reload">Reload from the lock</button>
<p id="settings-status" class="status" role="status" aria-live="polite"></p>
<ul id="settings-problems" class="problems" aria-live="polite"></ul>
</form>

"""#

    static let accounts = #"""
<section class="card" aria-labelledby="accounts-heading">
<h2 id="accounts-heading">Console accounts</h2>
<div class="scroll"><table id="account-table">
<caption class="sr-only">Console accounts</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Role</th><th scope="col">Created</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
<tbody></tbody>
</table></div>
<form id="account-form" class="admin-only">
<h3>Add an account</h3>
<div class="row">
<div class="field"><label for="account-name-input">Name</label>
<input id="account-name-input" name="name" type="text" autocomplete="off" autocapitalize="none" spellcheck="false" required="required" /></div>
<div class="field"><label for="account-role-input">Role</label>
<select id="account-role-input" name="role"><option value="viewer">viewer</option><option value="admin">admin</option></select></div>
<div class="field"><label for="account-password">Password</label>
<input id="account-password" name="password" type="password" autocomplete="new-password" required="required" /></div>
</div>
<button type="submit" id="account-submit">Add account</button>
</form>
</section>
<section class="card admin-only" aria-labelledby="tokens-heading">
<h2 id="tokens-heading">API tokens</h2>
<p class="hint">For scripts: <code>Authorization: Bearer TOKEN</code>. A token is shown once, when it is made.</p>
<div class="scroll"><table id="token-table">
<caption class="sr-only">API tokens</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Role</th><th scope="col">Created</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
<tbody></tbody>
</table></div>
<form id="token-form">
<div class="row">
<div class="field"><label for="token-name">Token name</label>
<input id="token-name" name="name" type="text" autocomplete="off" required="required" /></div>
<div class="field"><label for="token-role">Role</label>
<select id="token-role" name="role"><option value="viewer">viewer</option><option value="admin">admin</option></select></div>
</div>
<button type="submit" id="token-submit">Create token</button>
</form>
<div id="token-once" class="once" hidden="hidden">
<div class="field"><label for="token-value">New token (copy it now: it is not shown again)</label>
<input id="token-value" type="text" readonly="readonly" spellcheck="false" /></div>
<button type="button" id="token-copy">Copy</button>
<span id="token-copied" role="status" aria-live="polite"></span>
</div>
</section>
<section class="card" aria-labelledby="sessions-heading">
<h2 id="sessions-heading">Sessions</h2>
<button type="button" id="logout-everywhere">Log out everywhere</button>
</section>

"""#
}
