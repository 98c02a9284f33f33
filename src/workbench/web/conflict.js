// Two versions of one task side by side, field by field: the annotator's unsaved edits ("yours") and the
// version saved meanwhile ("saved"). Keep all of yours, take the saved version, or choose per field and
// merge. A field only one side changed since the version the edits started from is chosen for you (the
// other side did not touch it, so nothing of theirs or yours is lost); a field both changed waits for your
// choice. Nothing is applied, and nothing discarded, until one of the three buttons is pressed.
import { useState } from 'preact/hooks';
import { html, text } from './ui.js';
import { content } from './drafts.js';

const TASK_FIELDS = [['question_id', 'question_id'], ['question', 'question'], ['answer', 'final answer'],
  ['datasets_used', 'datasets_used'], ['hops', 'reasoning hops']];
const NODE_FIELDS = ['source', 'fact', 'subquestion', 'answer', 'hop', 'reasoning'];

const same = (a, b) => JSON.stringify(a === undefined ? null : a) === JSON.stringify(b === undefined ? null : b);

function nodeKeys(m, t) {
  const keys = t.nodes.map((n) => n.key);
  for (const n of m.nodes) if (!keys.includes(n.key)) keys.push(n.key);
  return keys;
}

// The fields where yours and the saved version differ: [{key, label, mine, saved, choice}]; `choice` is
// preset ("mine" or "saved") only when the base says one side left the field as it was.
export function conflictRows(mine, saved, base) {
  const m = content(mine), t = content(saved), b = base ? content(base) : null;
  const rows = [];
  const add = (key, label, mv, tv, bv) => {
    if (same(mv, tv)) return;
    let choice = null;
    if (b) {
      if (same(mv, bv)) choice = 'saved';
      else if (same(tv, bv)) choice = 'mine';
    }
    rows.push({ key, label, mine: mv === undefined ? null : mv, saved: tv === undefined ? null : tv, choice });
  };
  for (const [f, label] of TASK_FIELDS) add(f, label, m[f], t[f], b ? b[f] : undefined);
  for (const k of nodeKeys(m, t)) {
    const mn = m.nodes.find((n) => n.key === k) || null;
    const tn = t.nodes.find((n) => n.key === k) || null;
    const bn = b ? b.nodes.find((n) => n.key === k) || null : undefined;
    if (mn && tn) {
      for (const f of NODE_FIELDS) add(`node ${k} ${f}`, `node ${k} ${f}`, mn[f], tn[f], bn === undefined ? undefined : bn && bn[f]);
    } else {
      add(`node ${k}`, `node ${k}`, mn, tn, bn);
    }
  }
  return rows;
}

// The task the choices make: the saved version with every field chosen "mine" taken from yours.
export function mergeChoices(mine, saved, rows, choices) {
  const pick = (key) => (choices[key] || rows.find((r) => r.key === key).choice) === 'mine';
  const chosen = new Set(rows.filter((r) => pick(r.key)).map((r) => r.key));
  const out = { ...saved };
  for (const [f] of TASK_FIELDS) if (chosen.has(f)) out[f] = mine[f];
  const nodes = [];
  for (const k of nodeKeys(mine, saved)) {
    const mn = mine.nodes.find((n) => n.key === k);
    const tn = saved.nodes.find((n) => n.key === k);
    if (mn && tn) {
      const n = { ...tn };
      for (const f of NODE_FIELDS) if (chosen.has(`node ${k} ${f}`)) n[f] = mn[f];
      nodes.push(n);
    } else {
      const n = chosen.has(`node ${k}`) ? mn : tn;
      if (n) nodes.push({ last_run: null, ...n });
    }
  }
  out.nodes = nodes;
  return out;
}

function Value({ v }) {
  if (v === null || v === undefined) return html`<span class="muted">(none)</span>`;
  if (typeof v === 'object' && v.key !== undefined && v.nodes === undefined && 'fact' in v) {
    return html`<pre>${`source: ${v.source}\nsubquestion: ${v.subquestion}\nanswer: ${text(v.answer)}\nfact:\n${v.fact}`}</pre>`;
  }
  const s = typeof v === 'string' ? v : JSON.stringify(v, null, 2);
  return s === '' ? html`<span class="muted">(empty)</span>` : html`<pre>${s}</pre>`;
}

// `mine`: the unsaved task; `saved`: the task view saved meanwhile; `base`: the task the edits started from
// (null when unknown). onResolve(task, how) gets the task to continue editing from.
export function ConflictPanel({ message, mine, saved, base, onResolve }) {
  const rows = conflictRows(mine, saved.task, base);
  const [choices, setChoices] = useState({});
  const choiceOf = (r) => choices[r.key] || r.choice;
  const open = rows.filter((r) => !choiceOf(r)).length;
  const s = saved.task;
  const apply = (how, task) => onResolve(task, how, rows.length);
  return html`<div class="conflict bad-box" data-testid="conflict" role="alert">
    <p><strong>Not saved.</strong> ${message}</p>
    ${rows.length === 0 ? html`<p>Your edits and the saved version (version ${s.content_version}) hold the same content.</p>` : html`
    <p>Your unsaved edits and version ${s.content_version} (saved by ${s.updated_by} at ${s.updated_at}) differ in ${rows.length} field${rows.length === 1 ? '' : 's'}. ${base ? 'A field only one side changed is chosen for you; ' : ''}choose the
      others, or keep one side whole. Nothing is applied or discarded until you press a button below.</p>
    <div class="table-wrap"><table class="conflict-fields" data-testid="conflict-fields">
      <thead><tr><th>field</th><th>yours (unsaved)</th><th>saved (version ${s.content_version})</th></tr></thead>
      <tbody>${rows.map((r) => html`<tr data-testid="conflict-row" data-field=${r.key} class=${choiceOf(r) ? '' : 'undecided'}>
        <th>${r.label}${r.choice ? html`<br/><span class="muted small">${r.choice === 'mine' ? 'only you changed it' : 'only the saved version changed it'}</span>` : html`<br/><span class="warn small">both changed it</span>`}</th>
        <td class=${choiceOf(r) === 'mine' ? 'chosen' : ''}><label><input type="radio" name=${'c-' + r.key} checked=${choiceOf(r) === 'mine'}
          onChange=${() => setChoices({ ...choices, [r.key]: 'mine' })} data-testid="take-mine" /> yours</label><${Value} v=${r.mine} /></td>
        <td class=${choiceOf(r) === 'saved' ? 'chosen' : ''}><label><input type="radio" name=${'c-' + r.key} checked=${choiceOf(r) === 'saved'}
          onChange=${() => setChoices({ ...choices, [r.key]: 'saved' })} data-testid="take-saved" /> saved</label><${Value} v=${r.saved} /></td>
      </tr>`)}</tbody>
    </table></div>`}
    <p class="row-buttons">
      <button data-testid="conflict-keep-mine" onClick=${() => apply('mine', { ...s, ...content(mine), nodes: mine.nodes })}>Keep all of mine</button>
      <button class="secondary" data-testid="conflict-take-saved" onClick=${() => apply('saved', s)}>Take the saved version</button>
      ${rows.length ? html`<button data-testid="conflict-merge" disabled=${open > 0} onClick=${() => apply('merged', mergeChoices(mine, s, rows, choices))}>
        Merge my choices${open ? ` (${open} left to choose)` : ''}</button>` : null}
      <span class="muted small"> The result is not saved until you press Save.</span>
    </p>
  </div>`;
}
