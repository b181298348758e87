// /assets/console.css: one stylesheet for the console's pages; phone first, wider from 48rem.
enum ConsoleStyle {
    static let css = #"""
:root {
  color-scheme: light dark;
  --bg: #f6f7f9; --fg: #1b1f24; --muted: #57606a; --card: #ffffff; --line: #d0d7de;
  --accent: #0b5fcc; --accent-fg: #ffffff; --ok: #1a7f37; --warn: #9a6700; --bad: #cf222e;
  --focus: #e36209;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0f1216; --fg: #e6edf3; --muted: #9da7b3; --card: #171b21; --line: #30363d;
    --accent: #4493f8; --accent-fg: #0f1216; --ok: #3fb950; --warn: #d29922; --bad: #f85149;
    --focus: #ffa657;
  }
  .plot img { filter: invert(0.9) hue-rotate(180deg); }
}
* { box-sizing: border-box; }
html { font-size: 100%; }
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 1rem/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; }
a { color: var(--accent); }
code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 0.95em; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: var(--card); padding: 0.5rem 1rem; z-index: 10; }
.skip:focus { left: 0.5rem; top: 0.5rem; }
.sr-only { position: absolute; width: 1px; height: 1px; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
[hidden] { display: none !important; }
.top { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem 1rem; padding: 0.5rem 1rem;
  background: var(--card); border-bottom: 1px solid var(--line); }
.brand { font-weight: 700; }
.top nav ul { display: flex; flex-wrap: wrap; gap: 0.25rem; list-style: none; margin: 0; padding: 0; }
.top nav a { display: inline-block; padding: 0.5rem 0.6rem; border-radius: 0.4rem; text-decoration: none; min-height: 2.75rem; line-height: 1.75rem; }
.top nav a[aria-current="page"] { background: var(--accent); color: var(--accent-fg); }
.who { margin-left: auto; display: flex; align-items: center; gap: 0.5rem; flex-wrap: wrap; }
main { padding: 1rem; max-width: 80rem; margin: 0 auto; }
main:focus { outline: none; }
h1 { font-size: 1.5rem; margin: 0.25rem 0 1rem; }
h2 { font-size: 1.15rem; margin: 0 0 0.75rem; }
h3 { font-size: 1rem; margin: 1rem 0 0.5rem; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 0.6rem; padding: 1rem; margin: 0 0 1rem; }
.narrow { max-width: 32rem; }
.grid { display: grid; grid-template-columns: 1fr; gap: 1rem; }
.grid > .card { margin: 0; min-width: 0; }
@media (min-width: 48rem) {
  .grid { grid-template-columns: 1fr 1fr; }
  .grid > .wide { grid-column: 1 / -1; }
  main { padding: 1.5rem 2rem; }
}
.row { display: flex; flex-wrap: wrap; gap: 0.75rem; }
.row > .field { flex: 1 1 10rem; }
.row > .grow { flex: 3 1 16rem; }
.field { display: flex; flex-direction: column; gap: 0.25rem; margin: 0 0 0.75rem; }
.check { display: flex; align-items: center; gap: 0.5rem; margin: 0 0 0.75rem; }
.check input { width: 1.25rem; height: 1.25rem; }
label { font-weight: 600; }
input, select, textarea, button, .button {
  font: inherit; color: inherit; background: var(--bg); border: 1px solid var(--line); border-radius: 0.4rem;
  padding: 0.5rem 0.6rem; min-height: 2.75rem; max-width: 100%; }
textarea { width: 100%; font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 0.9rem; line-height: 1.4; }
button, .button { cursor: pointer; display: inline-block; text-decoration: none; background: var(--card); color: var(--fg); }
button:hover, .button:hover { border-color: var(--accent); }
button.primary { background: var(--accent); color: var(--accent-fg); border-color: var(--accent); }
button.danger { color: var(--bad); border-color: var(--bad); }
button:disabled { opacity: 0.55; cursor: not-allowed; }
.toolbar { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; margin-bottom: 1rem; }
.toolbar input { flex: 1 1 12rem; }
.inline { display: flex; flex-wrap: wrap; align-items: flex-end; gap: 0.5rem; }
.inline .field { margin: 0; }
.alert:empty { display: none; }
.alert { border: 2px solid var(--bad); border-radius: 0.5rem; padding: 0.5rem 1rem; margin: 0 0 1rem; background: var(--card); }
.alert p { margin: 0.25rem 0; }
.notice { border-left: 4px solid var(--accent); padding: 0.5rem 1rem; background: var(--card); }
.hint { color: var(--muted); }
.status { min-height: 1.5rem; }
/* relative: the .sr-only texts in a table's cells stay inside the scrolling box (else a phone's page scrolls sideways). */
.scroll { overflow-x: auto; position: relative; }
table { border-collapse: collapse; width: 100%; background: var(--card); }
th, td { text-align: left; padding: 0.45rem 0.6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-weight: 600; }
td.actions { white-space: nowrap; }
td.actions button { margin: 0 0.25rem 0.25rem 0; }
.verdict-ok, .granted { color: var(--ok); font-weight: 600; }
.verdict-warn { color: var(--warn); font-weight: 600; }
.verdict-fail, .denied { color: var(--bad); font-weight: 600; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; margin: 0 0 1rem; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; font-weight: 600; }
.events { list-style: none; margin: 0; padding: 0; max-height: 28rem; overflow-y: auto; }
.events li { padding: 0.35rem 0; border-bottom: 1px solid var(--line); display: flex; flex-wrap: wrap; gap: 0 0.6rem; }
.events time { color: var(--muted); font-variant-numeric: tabular-nums; }
.plain { list-style: none; padding: 0; margin: 0 0 1rem; }
.plain li { padding: 0.35rem 0; border-bottom: 1px solid var(--line); display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; }
.plain li .check { margin: 0; }
.prompt { font-size: 1.35rem; font-weight: 600; }
.result { font-size: 1.15rem; font-weight: 600; }
.steps { padding-left: 1.5rem; }
.problems { color: var(--bad); padding-left: 1.25rem; }
.problems button { color: var(--bad); text-align: left; }
.once { border: 2px dashed var(--accent); border-radius: 0.5rem; padding: 0.75rem; margin-top: 1rem; }
.once input { width: 100%; font-family: ui-monospace, monospace; }
.plot { margin: 0; }
.plot img { display: block; width: 100%; max-width: 60rem; height: auto; margin: 0 auto; }
.summary { display: block; color: var(--muted); }
body:not([data-role="admin"]) .admin-only { display: none !important; }
body:not([data-role="viewer"]) .viewer-only { display: none !important; }
@media (max-width: 30rem) {
  .top { padding: 0.5rem; }
  .who { margin-left: 0; }
  th, td { padding: 0.4rem; }
}
@media (prefers-reduced-motion: reduce) { * { transition: none !important; animation: none !important; } }
"""#
}
