// Shared pieces of every page: htm bound to Preact, a data-loading hook, small components and formatters.
import { h } from 'preact';
import { useEffect, useState, useCallback } from 'preact/hooks';
import htm from 'htm';

export const html = htm.bind(h);

// Loads with `fn` whenever `deps` change: {data, error, loading, reload}.
export function useLoad(fn, deps) {
  const [state, setState] = useState({ data: null, error: null, loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true, error: null }));
    fn().then(
      (data) => live && setState({ data, error: null, loading: false }),
      (error) => live && setState({ data: null, error, loading: false }),
    );
    return () => { live = false; };
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}

export function navigate(hash) {
  location.hash = hash;
}

export function Loading({ what }) {
  return html`<p class="muted loading">Loading${what ? ' ' + what : ''}…</p>`;
}

export function ErrorBox({ error, title }) {
  if (!error) return null;
  const code = error.code ? html`<code>${error.code}</code> ` : null;
  return html`<div class="error-box" role="alert" data-testid="error">
    ${title ? html`<strong>${title}: </strong>` : null}${code}${error.message || String(error)}
  </div>`;
}

// A page whose id names nothing (an unknown run or task, or an id that is not one): "not found", with the
// server's reason, while the rest of the app goes on working. Other errors are shown as errors.
export function NotFoundOr({ error, what }) {
  if (error && (error.status === 404 || error.status === 400 || error.code === 'not_found')) {
    return html`<section class="page not-found" data-testid="not-found"><h2>Not found: ${what}</h2>
      <p class="muted">${error.message}</p><p><a href="#/explore">Explore</a> · <a href="#/tasks">Tasks</a> · <a href="#/runs">Runs</a></p></section>`;
  }
  return html`<${ErrorBox} error=${error} />`;
}

export function Badge({ kind, children }) {
  return html`<span class=${'badge ' + (kind || '')}>${children}</span>`;
}

export function StatusBadge({ status }) {
  const kinds = { draft: '', in_review: 'info', accepted: 'ok', revised: 'warn', rejected: 'bad' };
  return html`<span class=${'badge status ' + (kinds[status] || '')} data-testid="task-status">${(status || '').replace('_', ' ')}</span>`;
}

export function bytes(n) {
  if (n === null || n === undefined) return 'unknown';
  const u = ['B', 'kB', 'MB', 'GB', 'TB'];
  let i = 0;
  let x = n;
  while (x >= 1000 && i < u.length - 1) { x /= 1000; i++; }
  return (i ? x.toFixed(1) : x) + ' ' + u[i];
}

// A fraction as a percentage; unknown (null) stays "unknown", never 0.
export function pct(x) {
  return x === null || x === undefined ? html`<span class="muted">unknown</span>` : (100 * x).toFixed(1) + '%';
}

export function num(x, digits = 2) {
  return x === null || x === undefined ? html`<span class="muted">unknown</span>` : Number(x).toFixed(digits);
}

export function money(x) {
  return x === null || x === undefined ? html`<span class="muted">unknown</span>` : '$' + Number(x).toFixed(4);
}

export function text(v) {
  if (v === null || v === undefined) return '';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

// Pretty JSON in a collapsible block; `open` for the first look.
export function JsonBlock({ value, open, summary }) {
  const s = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  return html`<details class="json" open=${open}>
    <summary>${summary || (s.length > 80 ? s.slice(0, 80) + '…' : s)}</summary>
    <pre>${s}</pre>
  </details>`;
}

// Text with every occurrence of `marks` (strings) wrapped in <mark>; used for gold datasets and query words.
export function Marked({ value, marks, cls }) {
  const s = text(value);
  const ms = (marks || []).filter((m) => m && m.length > 1);
  if (!ms.length) return s;
  const esc = ms.map((m) => m.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).sort((a, b) => b.length - a.length);
  const re = new RegExp('(' + esc.join('|') + ')', 'gi');
  const parts = s.split(re);
  return parts.map((p, i) => (i % 2 ? html`<mark class=${cls || ''}>${p}</mark>` : p));
}

export function Table({ columns, rows, testid }) {
  return html`<div class="table-wrap"><table data-testid=${testid}>
    <thead><tr>${columns.map((c) => html`<th>${c}</th>`)}</tr></thead>
    <tbody>${rows.map((r) => html`<tr>${r.map((c) => html`<td>${c === null ? html`<span class="muted">null</span>` : text(c)}</td>`)}</tr>`)}</tbody>
  </table></div>`;
}

export function Field({ label, children, hint }) {
  return html`<label class="field"><span class="label">${label}</span>${children}${hint ? html`<span class="hint">${hint}</span>` : null}</label>`;
}
