// Tasks and the composer: the task list (new, import, reviewer counts, review policy) and the editor of
// one task as the LakeQA annotators build it — nodes of source + fact code + subquestion, run in the
// sandbox, chained through <node_N answer> placeholders, the DAG with k/n/d, suggestions for the next
// source, the rewrite with its leakage check, and export with `tasks validate` / `tasks verify` findings.
import { useState, useEffect, useRef } from 'preact/hooks';
import { html, useLoad, Loading, ErrorBox, Badge, StatusBadge, text, navigate, Field, NotFoundOr } from './ui.js';
import { get, post, put, query, who, ApiError } from './api.js';
import { CodeEditor } from './editor.js';
import { SourcePicker } from './explore.js';
import { content, sameContent, readDraft, writeDraft, removeDraft, orphanDrafts } from './drafts.js';
import { ConflictPanel } from './conflict.js';

// ---- the task list ---------------------------------------------------------------------------------

function PolicyForm({ policy, onSaved }) {
  const [min, setMin] = useState(policy.min_reviews);
  const [adj, setAdj] = useState(policy.require_adjudicator);
  const [names, setNames] = useState(policy.adjudicators.join(', '));
  const [error, setError] = useState(null);
  const [saved, setSaved] = useState(false);
  const save = (e) => {
    e.preventDefault();
    setError(null);
    const adjudicators = names.split(',').map((s) => s.trim()).filter(Boolean);
    put('/api/policy', { policy: { min_reviews: Number(min), require_adjudicator: adj, adjudicators } })
      .then(() => { setSaved(true); onSaved(); }, setError);
  };
  return html`<form class="policy" onSubmit=${save} data-testid="policy-form">
    <h3>Review policy</h3>
    <p>A task is decided when it has at least
      <input type="number" min="1" max="20" value=${min} onInput=${(e) => { setMin(e.target.value); setSaved(false); }} data-testid="policy-min" class="narrow" />
      reviews of its current version
      <label><input type="checkbox" checked=${adj} onChange=${(e) => { setAdj(e.target.checked); setSaved(false); }} /> including one by an adjudicator</label>;
      the adjudicator's verdict then decides.</p>
    <${Field} label="Adjudicators (names, comma-separated)"><input value=${names} onInput=${(e) => { setNames(e.target.value); setSaved(false); }} data-testid="policy-adjudicators" /><//>
    <button data-testid="policy-save">Save policy</button> ${saved ? html`<span class="ok">saved</span>` : null}
    <${ErrorBox} error=${error} />
  </form>`;
}

export function TasksPage() {
  const res = useLoad(() => get('/api/tasks'), []);
  const [error, setError] = useState(null);
  const [importMsg, setImportMsg] = useState(null);
  const create = () => post('/api/tasks', {}).then((v) => navigate('#/task/' + v.task.id), setError);
  const importFile = async (e) => {
    const f = e.target.files[0];
    if (!f) return;
    setError(null);
    try {
      const r = await post('/api/import', { name: f.name, text: await f.text() });
      setImportMsg(`${r.imported.length} imported${r.errors.length ? `, ${r.errors.length} not: ${r.errors.join('; ')}` : ''}`);
      res.reload();
    } catch (err) {
      setError(err);
    }
    e.target.value = '';
  };
  if (res.loading && !res.data) return html`<${Loading} what="tasks" />`;
  const d = res.data || { tasks: [], reviewers: [], policy: { min_reviews: 2, require_adjudicator: true, adjudicators: [] } };
  return html`<section class="page tasks">
    <div class="toolbar">
      <h2>Tasks</h2>
      <button data-testid="new-task" onClick=${create}>New task</button>
      <label class="button secondary">Import task files… <input type="file" accept=".json,.jsonl" hidden onChange=${importFile} data-testid="import-file" /></label>
      ${importMsg ? html`<span class="muted" data-testid="import-message">${importMsg}</span>` : null}
    </div>
    <${ErrorBox} error=${error || res.error} />
    <div class="table-wrap"><table data-testid="task-list">
      <thead><tr><th>id</th><th>question</th><th>status</th><th>k</th><th>d</th><th>nodes</th><th>reviews</th><th>updated</th><th></th></tr></thead>
      <tbody>${d.tasks.map((t) => html`<tr>
        <td><a href=${'#/task/' + t.id}>${t.question_id}</a></td>
        <td class="q">${t.question || html`<span class="muted">(no question yet)</span>`}</td>
        <td><${StatusBadge} status=${t.status} /></td><td>${t.k}</td><td>${t.d}</td><td>${t.nodes}</td>
        <td title=${t.review_message}>${t.reviews}</td>
        <td class="small">${t.updated_by}<br/><span class="muted">${t.updated_at}</span></td>
        <td><a href=${'#/review/' + t.id}>review</a></td>
      </tr>`)}</tbody>
    </table></div>
    ${d.tasks.length === 0 ? html`<p class="muted">No tasks yet: start one, or import LakeQA task files.</p>` : null}
    <div class="two-col">
      <div>
        <h3>Reviewers</h3>
        <table data-testid="reviewer-counts"><thead><tr><th>reviewer</th><th>reviews</th><th>accept</th><th>revise</th><th>reject</th><th>adjudications</th><th>tasks</th></tr></thead>
        <tbody>${d.reviewers.map((r) => html`<tr><td>${r.reviewer}</td><td>${r.reviews}</td><td>${r.accept}</td><td>${r.revise}</td><td>${r.reject}</td><td>${r.adjudications}</td><td>${r.tasks}</td></tr>`)}</tbody></table>
        ${d.reviewers.length === 0 ? html`<p class="muted">No reviews yet.</p>` : null}
      </div>
      <${PolicyForm} policy=${d.policy} onSaved=${res.reload} />
    </div>
  </section>`;
}

// ---- the DAG -------------------------------------------------------------------------------------------

export function DagView({ doc, structure }) {
  const hopOf = structure.hop_of || {};
  const hops = {};
  for (const n of doc.nodes) (hops[hopOf[n.key] || 1] = hops[hopOf[n.key] || 1] || []).push(n);
  const cols = Object.keys(hops).map(Number).sort((a, b) => a - b);
  const W = 170, H = 54, GX = 70, GY = 22;
  const pos = {};
  cols.forEach((c, ci) => hops[c].forEach((n, ri) => { pos[n.key] = { x: 20 + ci * (W + GX), y: 30 + ri * (H + GY) }; }));
  const ax = 20 + cols.length * (W + GX), ay = 30;
  const rows = Math.max(1, ...cols.map((c) => hops[c].length));
  const width = ax + 110, height = 40 + rows * (H + GY);
  const last = cols.length ? hops[cols[cols.length - 1]] : [];
  const edge = (a, b, key) => html`<path key=${key} class="edge" d=${`M${a.x + W},${a.y + H / 2} C${a.x + W + GX / 2},${a.y + H / 2} ${b.x - GX / 2},${b.y + H / 2} ${b.x},${b.y + H / 2}`} marker-end="url(#arrow)" />`;
  return html`<div class="dag" data-testid="dag">
    <p class="kdn" data-testid="kdn"><strong>k = ${structure.k}</strong> (longest path, in hops) · <strong>n = ${structure.n}</strong> (nodes) · <strong>d = ${structure.d}</strong> (largest number of nodes a hop depends on) → folder <code>${structure.folder}</code></p>
    <svg width=${width} height=${height} role="img" aria-label="reasoning DAG">
      <defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" /></marker></defs>
      ${cols.map((c, ci) => html`<text class="hop-label" x=${20 + ci * (W + GX)} y="16">hop ${c}</text>`)}
      ${(structure.edges || []).filter((e) => pos[e.from] && pos[e.to]).map((e, i) => edge(pos[e.from], pos[e.to], 'e' + i))}
      ${last.map((n, i) => edge(pos[n.key], { x: ax, y: ay }, 'a' + i))}
      ${doc.nodes.map((n) => pos[n.key] ? html`<g class="node" transform=${`translate(${pos[n.key].x},${pos[n.key].y})`}>
        <rect width=${W} height=${H} rx="8" />
        <text x="10" y="20" class="node-title">node ${n.key}</text>
        <text x="10" y="40" class="node-sub">${(n.answer !== null && n.answer !== undefined && n.answer !== '') ? '= ' + text(n.answer).slice(0, 22) : 'no answer yet'}</text>
      </g>` : null)}
      <g class="node answer" transform=${`translate(${ax},${ay})`}><rect width="90" height=${H} rx="8" /><text x="10" y="20" class="node-title">answer</text><text x="10" y="40" class="node-sub">${text(doc.answer).slice(0, 12)}</text></g>
    </svg>
    ${(structure.errors || []).map((e) => html`<p class="bad small">${e}</p>`)}
  </div>`;
}

// ---- one node ------------------------------------------------------------------------------------------

function RunResult({ run, answer }) {
  if (!run) return null;
  if (!run.ok) {
    return html`<div class="run bad-box" data-testid="run-error">
      <strong>The fact did not run:</strong> ${run.error_code ? html`<code>${run.error_code}</code> ` : null}${run.error}
      ${run.stderr ? html`<pre class="stderr">${run.stderr}</pre>` : null}
      ${run.output ? html`<details><summary>output</summary><pre>${run.output}</pre></details>` : null}
      <p class="muted small">The task is unchanged; fix the code and run it again.</p>
    </div>`;
  }
  const differs = answer !== null && answer !== undefined && text(answer) !== text(run.answer);
  return html`<div class="run ok-box" data-testid="run-ok">
    ${run.sentence ? html`Sentence fact: the source downloaded, so the fact is grounded by it.` : html`Answer: <strong data-testid="run-answer">${text(run.answer)}</strong>`}
    <span class="muted small"> · ${Math.round(run.elapsed_ms || 0)} ms · ${run.ran_by} at ${run.ran_at}</span>
    ${differs && !run.sentence ? html`<span class="warn small"> (the node's answer says “${text(answer)}”)</span>` : null}
    ${run.output ? html`<details><summary>output</summary><pre>${run.output}</pre></details>` : null}
  </div>`;
}

// `onPatch(fields)` changes this node's fields: the page applies it to the newest task, so that two edits
// between renders (fast typing, a paste) never start from a stale copy of the node.
function NodeCard({ node, nodes, hopOf, onPatch, onRemove, onRun, running, onSuggest, model, onDraft, reset, sourceHint }) {
  const [picking, setPicking] = useState(false);
  const set = (k, v) => onPatch({ [k]: v });
  const earlier = nodes.slice(0, nodes.findIndex((n) => n.key === node.key));
  const insert = (k) => set('subquestion', (node.subquestion || '') + `<node_${k} answer>`);
  const ansText = node.answer === null || node.answer === undefined ? '' : text(node.answer);
  return html`<article class="node-card" data-testid=${'node-' + node.key}>
    <header>
      <h3>Node ${node.key}</h3>
      <span class="muted">hop ${hopOf[node.key] || '?'}</span>
      <label class="inline small">hop <select value=${node.hop || 0} onChange=${(e) => set('hop', Number(e.target.value))}>
        <option value="0">auto (from placeholders)</option>
        ${[1, 2, 3, 4, 5, 6, 7, 8].map((h) => html`<option value=${h}>${h}</option>`)}
      </select></label>
      <button class="link danger" onClick=${onRemove} disabled=${nodes.length <= 1}>remove</button>
    </header>
    <${Field} label="Source file (namespace/dataset/path)">
      <div class="row">
        <input class="mono" value=${node.source} onInput=${(e) => set('source', e.target.value)} data-testid="node-source" placeholder=${sourceHint} />
        <button class="secondary" onClick=${() => setPicking(!picking)}>${picking ? 'close' : 'pick…'}</button>
      </div>
    <//>
    ${picking ? html`<${SourcePicker} initial=${node.source.split('/')[1] || ''} onPick=${(key) => { set('source', key); setPicking(false); }} />` : null}
    <div class="label">Fact code <span class="hint">Python run in the sandbox: the source is at <code>local_path</code>; set <code>answer = …</code>. Earlier answers: ${earlier.length ? earlier.map((n) => html`<code>${'<node_' + n.key + ' answer>'}</code> `) : 'none'}</span></div>
    <${CodeEditor} language="python" initial=${node.fact} reset=${reset} onChange=${(v) => set('fact', v)} onRun=${onRun} testid="node-fact" minLines=${4} />
    <div class="row">
      <button data-testid="node-run" onClick=${onRun} disabled=${running}>${running ? 'Running…' : 'Run fact'}</button>
      <span class="hint">Ctrl+Enter in the editor</span>
    </div>
    <${RunResult} run=${node.last_run} answer=${node.answer} />
    <${Field} label="Subquestion" hint=${earlier.length ? html`insert ${earlier.map((n) => html`<button class="link small" onClick=${() => insert(n.key)}>node ${n.key}'s answer</button> `)}` : null}>
      <div class="row"><input value=${node.subquestion} onInput=${(e) => set('subquestion', e.target.value)} data-testid="node-subquestion" placeholder="What is …? (use <node_1 answer> for an earlier answer)" />
      ${model ? html`<button class="secondary" onClick=${onDraft} data-testid="draft-subquestion">Draft</button>` : null}</div>
    <//>
    <div class="row">
      <${Field} label="Answer"><input value=${ansText} onInput=${(e) => set('answer', e.target.value)} data-testid="node-answer" /><//>
      <${Field} label="Reasoning (its line in the hop)"><input value=${node.reasoning} onInput=${(e) => set('reasoning', e.target.value)} placeholder="(the subquestion when empty)" /><//>
    </div>
    ${ansText ? html`<button class="link" onClick=${() => onSuggest(ansText)} data-testid="node-suggest">Datasets holding “${ansText}” → next node</button>` : null}
  </article>`;
}

// ---- the composer ---------------------------------------------------------------------------------------

function Findings({ findings }) {
  if (!findings || !findings.length) return html`<p class="ok" data-testid="findings-clear">No findings: the task is complete.</p>`;
  return html`<ul class="findings" data-testid="findings">${findings.map((f) => html`<li class=${f.severity}>
    <${Badge} kind=${f.severity === 'error' ? 'bad' : 'warn'}>${f.severity}<//> ${f.node ? html`<strong>node ${f.node}</strong> · ` : null}<code>${f.field}</code>: ${f.message}</li>`)}</ul>`;
}

function Leakage({ leakage }) {
  if (!leakage || !leakage.length) return html`<p class="ok" data-testid="leakage-clear">No leakage found in the question.</p>`;
  return html`<ul class="leakage" data-testid="leakage">${leakage.map((l) => html`<li><${Badge} kind="warn">${l.kind.replace('_', ' ')}<//> <strong>“${l.text}”</strong> — ${l.message}</li>`)}</ul>`;
}

function ExportResult({ result }) {
  const v = result.verify;
  const val = result.validate;
  return html`<div class=${'export-result ' + (result.ok ? 'ok-box' : 'bad-box')} data-testid="export-result">
    <p><strong>${result.ok ? 'Exported, valid and verified' : 'Exported with problems'}</strong>: <code data-testid="export-path">${result.path}</code></p>
    <p><code>tasks validate</code>: ${val.errors} errors, ${val.warnings} warnings${val.issues.length ? '' : ' — clean'}</p>
    ${val.issues.length ? html`<ul>${val.issues.map((i) => html`<li>${i.severity}: ${i.message}</li>`)}</ul>` : null}
    <p data-testid="verify-summary"><code>tasks verify</code>: ${v.nodes_grounded}/${v.nodes} nodes grounded, ${v.tasks_grounded}/${v.tasks} tasks</p>
    ${v.results.map((r) => html`<ul>${(r.nodes || []).map((n) => html`<li class=${n.grounded ? 'ok' : 'bad'}>node ${n.node}: ${n.grounded ? 'grounded' : 'not grounded'} — answer ${text(n.answer)}${n.search_rank ? `, search_keyword finds the source at rank ${n.search_rank}` : ', search_keyword does not find the source in the top 20'}${n.error ? ' — ' + n.error : ''}</li>`)}
      ${r.error ? html`<li class="bad">${r.error}</li>` : null}</ul>`)}
    <p class="muted small">Same check from a shell: ${result.commands.map((c) => html`<br/><code>${c}</code>`)}</p>
  </div>`;
}

function nextKey(nodes) {
  return String(Math.max(0, ...nodes.map((n) => Number(n.key) || 0)) + 1);
}

// "Datasets holding <answer>": the graph's node files with a node of that name, then catalogue datasets
// whose values or text hold it, each with where it matched; "start the next node here" begins a node on the
// dataset (or on the node file). Each part of a hit is its own block, so no two run together.
function matchedText(m) {
  if (!m || typeof m !== 'object') return '';
  return Object.entries(m).map(([field, words]) => `${field}: ${[].concat(words).join(', ')}`).join('; ');
}

function Suggestions({ suggest, onClose, onUse }) {
  return html`<div class="suggest" data-testid="suggest">
    <h4>Datasets whose values or text hold “${suggest.value}” <button class="link" onClick=${onClose}>close</button></h4>
    <${ErrorBox} error=${suggest.error} />
    ${suggest.loading ? html`<${Loading} />` : null}
    ${(suggest.hits || []).map((h) => html`<div class="suggest-hit" data-testid="suggest-hit">
      <div><strong>${h.title || h.id}</strong> <code>${h.id}</code></div>
      ${h.graph ? html`<div class="muted small">graph node file <code>${h.graph.file}</code>: ${h.graph.nodes.map((n) => html`<span class="chip">${n.label} “${n.name}” (${n.node})</span>`)}</div>` : null}
      ${h.matched ? html`<div class="muted small">matched in ${matchedText(h.matched)}</div>` : null}
      ${h.snippet && h.snippet.field !== 'title' ? html`<div class="muted small snippet">${h.snippet.field}: ${h.snippet.text.length > 200 ? h.snippet.text.slice(0, 200) + '…' : h.snippet.text}</div>` : null}
      <div><button class="link" onClick=${() => onUse(h.graph ? h.graph.file : h.id + '/')} data-testid="suggest-use">start the next node here</button></div>
    </div>`)}
    ${suggest.hits && !suggest.hits.length ? html`<p class="muted">No other dataset holds it.</p>` : null}
  </div>`;
}

// The saved task `server` with the editable content of `edited` on top (its status and version are the
// server's; a node's run record is the server's when it has the node, else the edited one's).
function overlay(server, edited) {
  const runs = Object.fromEntries((server.nodes || []).map((n) => [n.key, n.last_run]));
  return { ...server, ...content(edited), nodes: edited.nodes.map((n) => ({ ...content({ nodes: [n] }).nodes[0], last_run: runs[n.key] !== undefined && runs[n.key] !== null ? runs[n.key] : (n.last_run || null) })) };
}

const clock = (iso) => { try { return new Date(iso).toLocaleString(); } catch (e) { return iso; } };

export function ComposePage({ id, info }) {
  const project = info.project;
  const [view, setViewState] = useState(null);   // the saved task the edits start from, as the server showed it
  const [doc, setDocState] = useState(null);     // the edited task
  const [reset, setReset] = useState(0);         // bumped when the editors' text is replaced from outside
  const [check, setCheck] = useState(null);
  const [error, setError] = useState(null);
  const [conflict, setConflictState] = useState(null);  // {message, mine, base, current, orphan?}
  const [notice, setNotice] = useState(null);      // {kind, text}
  const [orphans, setOrphans] = useState([]);
  const [storageError, setStorageError] = useState(null);
  const [running, setRunning] = useState({});
  const [saving, setSaving] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [exportResult, setExportResult] = useState(null);
  const [exportError, setExportError] = useState(null);
  const [suggest, setSuggest] = useState(null);
  const [draft, setDraft] = useState(null);
  // The newest values, for callbacks that outlive a render (saves, runs, timers, unload).
  const docRef = useRef(null);
  const viewRef = useRef(null);
  const conflictRef = useRef(null);
  conflictRef.current = conflict;
  // The version a save names as its base (the server's optimistic lock: status changes move it too).
  const baseRef = useRef(0);

  const setDoc = (d) => { docRef.current = d; setDocState(d); };
  const setConflict = (c) => { conflictRef.current = c; setConflictState(c); };
  const setView = (v) => { viewRef.current = v; baseRef.current = v.task.version; setViewState(v); };
  const isDirty = () => Boolean(docRef.current && viewRef.current && !sameContent(docRef.current, viewRef.current.task));
  const viewChecks = (v) => setCheck({ structure: v.structure, findings: v.findings, leakage: v.leakage, lakeqa: v.lakeqa });

  // The draft of this tab follows every edit (a moment after typing stops, and at once when the page goes).
  const flushDraft = () => {
    const d = docRef.current, v = viewRef.current;
    if (!d || !v || conflictRef.current) return;  // during a conflict the stored draft holds "yours"
    if (!isDirty()) { removeDraft(project, id); return; }
    setStorageError(writeDraft(project, id, { task: id, question_id: d.question_id, who: who(), base_version: v.task.version,
      base_content_version: v.task.content_version, base: content(v.task), doc: d }));
  };
  useEffect(() => {
    if (!doc || !view) return undefined;
    const t = setTimeout(flushDraft, 250);
    return () => clearTimeout(t);
  }, [doc, view, conflict]);
  useEffect(() => {
    const leave = (e) => {
      flushDraft();
      if (isDirty() || conflictRef.current) { e.preventDefault(); e.returnValue = ''; }
    };
    window.addEventListener('beforeunload', leave);
    window.addEventListener('pagehide', flushDraft);
    return () => {
      flushDraft();
      window.removeEventListener('beforeunload', leave);
      window.removeEventListener('pagehide', flushDraft);
    };
  }, [id]);

  // Opening the task: this tab's draft comes back on top of the saved version; a draft that started from an
  // older version, or one a closed tab left behind, is compared with the saved version first.
  const open = (v) => {
    setView(v);
    viewChecks(v);
    const own = readDraft(project, id);
    setConflict(null);
    if (own && !sameContent(own.doc, v.task)) {
      if (own.base && sameContent(own.base, v.task)) {
        setDoc(overlay(v.task, own.doc));
        setNotice({ kind: 'restored', text: `Restored your unsaved edits of ${clock(own.at)} (kept in this browser; not saved yet).` });
      } else {
        setDoc(v.task);
        setConflict({ message: `Your unsaved edits of ${clock(own.at)}, kept in this browser, started from version ${own.base_content_version ?? '?'}; the task was saved since.`,
          mine: own.doc, base: own.base || null, current: v });
      }
    } else {
      if (own) removeDraft(project, id);
      setDoc(v.task);
    }
    // A closed tab's draft that holds what is saved anyway is nothing to offer: it goes.
    const orphans = orphanDrafts(project, id);
    for (const o of orphans) if (sameContent(o.doc, v.task)) removeDraft(project, id, o.tab);
    setOrphans(orphans.filter((o) => !sameContent(o.doc, v.task)));
    setReset((r) => r + 1);
  };
  useEffect(() => {
    let live = true;
    setError(null);
    setNotice(null);
    docRef.current = null;
    viewRef.current = null;
    setDocState(null);
    setViewState(null);
    get('/api/tasks/' + encodeURIComponent(id)).then((v) => live && open(v), (e) => live && setError(e));
    return () => { live = false; };
  }, [id]);
  // Live checks of the edited content (structure, findings, leakage), a moment after typing stops.
  useEffect(() => {
    if (!doc || !view || !isDirty()) return undefined;
    const t = setTimeout(() => post(`/api/tasks/${encodeURIComponent(id)}/check`, { task: docRef.current }).then(setCheck, () => {}), 400);
    return () => clearTimeout(t);
  }, [doc]);

  if (error && !view) return html`<${NotFoundOr} error=${error} what=${'task ' + id} />`;
  if (!doc || !view) return html`<${Loading} what="the task" />`;

  const dirty = isDirty();
  // Every change applies to the newest task (docRef), never to a copy from an earlier render.
  const edit = (fn) => { setDoc(fn(docRef.current)); setExportResult(null); setExportError(null); };
  const patchNode = (key, patch) => edit((d) => ({ ...d, nodes: d.nodes.map((n) => (n.key === key ? { ...n, ...patch } : n)) }));
  // A view the server returned for this page's own action: its content is what was sent (or unchanged), so
  // edits made since the request left stay on top of it.
  const adopt = (v, sent) => {
    const d = docRef.current;
    setView(v);
    if (d === sent || !d || sameContent(d, v.task)) {
      setDoc(v.task);
      viewChecks(v);
    } else {
      setDoc(overlay(v.task, d));
    }
  };
  const toConflict = (e, mine) => {
    flushDraft();
    setConflict({ message: e.message, mine, base: content(viewRef.current.task), current: e.body.current });
  };
  const save = async () => {
    const d = docRef.current;
    setSaving(true);
    setError(null);
    try {
      const v = await put('/api/tasks/' + encodeURIComponent(id), { base_version: baseRef.current, task: d });
      adopt(v, d);
      setNotice(null);
      return v;
    } catch (e) {
      if (e instanceof ApiError && e.code === 'conflict' && e.body.current) toConflict(e, docRef.current);
      else setError(e);
      throw e;
    } finally {
      setSaving(false);
    }
  };
  // Runs the node's fact as it is on screen, then saves once — the code that ran and the answer it gave —
  // and only when that changed something (a run that changes nothing makes no new version).
  const runNode = async (key) => {
    setRunning((r) => ({ ...r, [key]: true }));
    setError(null);
    try {
      const r = await post(`/api/tasks/${encodeURIComponent(id)}/run`, { node: key, task: docRef.current });
      const captured = r.run.ok && !r.run.sentence;
      patchNode(key, captured ? { last_run: r.run, answer: r.run.answer } : { last_run: r.run });
      if (isDirty()) await save();
      else post(`/api/tasks/${encodeURIComponent(id)}/check`, { task: docRef.current }).then(setCheck, () => {});
    } catch (e) {
      if (!(e instanceof ApiError && e.code === 'conflict')) setError(e);
    } finally {
      setRunning((r) => ({ ...r, [key]: false }));
    }
  };
  const addNode = (source = '') => edit((d) => ({ ...d, nodes: [...d.nodes, { key: nextKey(d.nodes), source, fact: '', subquestion: '', answer: null, hop: 0, reasoning: '', last_run: null }] }));
  const removeNode = (key) => edit((d) => ({ ...d, nodes: d.nodes.filter((n) => n.key !== key) }));
  const doSuggest = (value) => {
    const exclude = doc.nodes.map((n) => n.source.split('/').slice(0, 2).join('/'));
    setSuggest({ value, loading: true });
    get('/api/suggest?' + query({ value, exclude })).then((r) => setSuggest({ value, hits: r.hits }), (e) => setSuggest({ value, error: e }));
  };
  const doDraft = (kind, node) => {
    setDraft({ kind, node, loading: true });
    post('/api/draft', { kind, node, task: doc }).then((r) => setDraft({ kind, node, ...r }), (e) => setDraft({ kind, node, error: e }));
  };
  const setStatus = (to) => {
    setError(null);
    const sent = docRef.current;
    post(`/api/tasks/${encodeURIComponent(id)}/status`, { base_version: baseRef.current, to }).then((v) => adopt(v, sent), (e) => {
      if (e instanceof ApiError && e.code === 'conflict' && e.body.current) {
        if (isDirty()) toConflict(e, docRef.current);
        else adopt(e.body.current, docRef.current);
      } else {
        setError(e);
      }
    });
  };
  const doExport = async () => {
    setExporting(true);
    setExportError(null);
    setExportResult(null);
    try {
      if (isDirty()) await save();
      setExportResult(await post(`/api/tasks/${encodeURIComponent(id)}/export`, {}));
      const sent = docRef.current;
      get('/api/tasks/' + encodeURIComponent(id)).then((v) => adopt(v, sent), () => {});
    } catch (e) {
      if (!(e instanceof ApiError && e.code === 'conflict')) setExportError(e);
    } finally {
      setExporting(false);
    }
  };
  // A conflict resolved: continue from the saved version with the chosen content on top (not saved yet).
  const resolve = (task, how, fields) => {
    const c = conflict;
    setView(c.current);
    viewChecks(c.current);
    setDoc(overlay(c.current.task, task));
    setReset((r) => r + 1);
    setConflict(null);
    if (c.orphan) removeDraft(project, id, c.orphan);
    setOrphans((os) => os.filter((o) => o.tab !== c.orphan));
    setNotice({ kind: how, text: how === 'saved' ? `You took the saved version (version ${c.current.task.content_version}); your edits were set aside as you chose.`
      : `${how === 'mine' ? 'Your version' : 'The merge'} is on top of version ${c.current.task.content_version}${fields ? ` (${fields} field${fields === 1 ? '' : 's'} compared)` : ''}: not saved yet — press Save to keep it.` });
    if (!sameContent(overlay(c.current.task, task), c.current.task)) post(`/api/tasks/${encodeURIComponent(id)}/check`, { task: docRef.current }).then(setCheck, () => {});
  };
  const discardOwn = () => {
    removeDraft(project, id);
    setDoc(viewRef.current.task);
    viewChecks(viewRef.current);
    setReset((r) => r + 1);
    setNotice({ kind: 'discarded', text: 'Your unsaved edits were discarded.' });
  };
  const structure = (check && check.structure) || view.structure;
  const findings = (check && check.findings) || [];
  const blocking = findings.filter((f) => f.severity === 'error');
  const readOnly = doc.status === 'accepted' || doc.status === 'rejected';
  const sourceHint = info.example_source ? `e.g. ${info.example_source}` : 'namespace/dataset/path of a file';
  return html`<section class="page compose" data-testid="compose">
    <div class="toolbar sticky">
      <h2>${doc.question_id}</h2> <${StatusBadge} status=${doc.status} /> <span class="muted" data-testid="task-version">version ${view.task.content_version}</span>
      ${conflict ? html`<span class="bad" data-testid="dirty">not saved: resolve the conflict below</span>`
        : dirty ? html`<span class="warn" data-testid="dirty">unsaved changes <span class="muted small">(kept in this browser)</span></span>` : html`<span class="muted" data-testid="saved">saved</span>`}
      <span class="spacer"></span>
      <button data-testid="save" onClick=${() => save().catch(() => {})} disabled=${saving || !dirty || readOnly || !!conflict}>${saving ? 'Saving…' : 'Save'}</button>
      ${doc.status === 'draft' || doc.status === 'revised' ? html`<button data-testid="send-review" onClick=${() => setStatus('in_review')} disabled=${dirty || !!conflict}>Send to review</button>` : null}
      ${doc.status !== 'draft' ? html`<button class="secondary" data-testid="to-draft" onClick=${() => setStatus('draft')} disabled=${!!conflict}>${doc.status === 'in_review' ? 'Withdraw' : 'Reopen'}</button>` : null}
      <a class="button secondary" href=${'#/review/' + encodeURIComponent(id)} data-testid="open-review">Review</a>
      <button data-testid="export" onClick=${doExport} disabled=${exporting || blocking.length > 0 || !!exportError || !!conflict}
        title=${blocking.length ? 'Fix the errors under Findings first' : ''}>${exporting ? 'Exporting and verifying…' : 'Export'}</button>
      ${blocking.length && !exportError ? html`<div class="export-blocked" data-testid="export-blocked">Export needs ${blocking.length} fix${blocking.length === 1 ? '' : 'es'} first:${' '}
        ${blocking[0].node ? `node ${blocking[0].node} · ` : ''}${blocking[0].message}${blocking.length > 1 ? ' …' : ''}
        <button class="link" onClick=${() => document.getElementById('findings').scrollIntoView()}>see Findings</button></div>` : null}
      ${exportError ? html`<div class="export-refused" data-testid="export-error"><${ErrorBox} error=${exportError} title="Export refused" />
        ${exportError.body && exportError.body.findings ? html`<${Findings} findings=${exportError.body.findings.filter((f) => f.severity === 'error')} />` : null}
        <p class="muted small">Export stays off until the task changes.</p></div>` : null}
    </div>
    ${conflict ? html`<${ConflictPanel} key=${conflict.message} message=${conflict.message} mine=${conflict.mine} saved=${conflict.current} base=${conflict.base} onResolve=${resolve} />` : null}
    ${notice ? html`<div class="notice" data-testid=${'notice-' + notice.kind} role="status">${notice.text}
      ${notice.kind === 'restored' ? html` <button class="link" onClick=${discardOwn} data-testid="draft-discard">Discard them</button>` : null}
      <button class="link" onClick=${() => setNotice(null)}>close</button></div>` : null}
    ${orphans.map((o) => html`<div class="notice" data-testid="orphan-draft">Unsaved edits to this task${o.who ? ` by ${o.who}` : ''} from a window that is closed (${clock(o.at)}) are kept in this browser.
      <button class="link" disabled=${!!conflict} onClick=${() => setConflict({ message: `These are the unsaved edits of ${clock(o.at)} from another window.`, mine: o.doc, base: o.base || null, current: viewRef.current, orphan: o.tab })}>Compare and restore</button>
      <button class="link danger" onClick=${() => { removeDraft(project, id, o.tab); setOrphans(orphans.filter((x) => x.tab !== o.tab)); }}>Discard them</button></div>`)}
    ${storageError ? html`<${ErrorBox} error=${storageError} title="This browser could not keep a draft of your edits (save them)" />` : null}
    <${ErrorBox} error=${error} />
    ${readOnly ? html`<p class="warn">This task is ${doc.status}: reopen it to edit.</p>` : null}
    <fieldset class="plain" disabled=${readOnly || !!conflict}>
    <div class="row">
      <${Field} label="question_id"><input class="mono" value=${doc.question_id} onInput=${(e) => { const v = e.target.value; edit((d) => ({ ...d, question_id: v })); }} data-testid="question-id" /><//>
      ${doc.origin ? html`<span class="muted small">imported from ${doc.origin}</span>` : null}
    </div>
    <${DagView} doc=${doc} structure=${structure} />
    ${doc.nodes.map((n) => html`<${NodeCard} key=${n.key} node=${n} nodes=${doc.nodes} hopOf=${structure.hop_of || {}}
      onPatch=${(patch) => patchNode(n.key, patch)} onRemove=${() => removeNode(n.key)} onRun=${() => runNode(n.key)} running=${!!running[n.key]}
      onSuggest=${doSuggest} model=${info.model} onDraft=${() => doDraft('subquestion', n.key)} reset=${reset} sourceHint=${sourceHint} />`)}
    ${suggest ? html`<${Suggestions} suggest=${suggest} onClose=${() => setSuggest(null)} onUse=${(source) => { addNode(source); setSuggest(null); }} />` : null}
    <p><button class="secondary" data-testid="add-node" onClick=${() => addNode()}>Add a node</button></p>
    ${draft ? html`<div class="draft" data-testid="draft">
      <h4>Draft ${draft.kind === 'subquestion' ? `subquestion for node ${draft.node}` : 'question'} ${draft.model ? html`<span class="muted small">by ${draft.model}</span>` : null}</h4>
      <${ErrorBox} error=${draft.error} />${draft.loading ? html`<${Loading} />` : null}
      ${draft.text !== undefined ? html`<textarea value=${draft.text} onInput=${(e) => setDraft({ ...draft, text: e.target.value })} data-testid="draft-text"></textarea>
        <p><button data-testid="draft-use" onClick=${() => {
          if (draft.kind === 'question') edit((d) => ({ ...d, question: draft.text }));
          else patchNode(draft.node, { subquestion: draft.text });
          setDraft(null);
        }}>Use this text</button> <button class="link" onClick=${() => setDraft(null)}>discard</button> <span class="muted small">A draft is never saved until you use it.</span></p>` : null}
    </div>` : null}
    <section class="rewrite">
      <h3>The question</h3>
      <${Field} label="Final answer"><input value=${doc.answer === null ? '' : text(doc.answer)} onInput=${(e) => { const v = e.target.value; edit((d) => ({ ...d, answer: v })); }} data-testid="final-answer" /><//>
      <${Field} label="Rewritten question (one natural question that needs every node; no dataset ids, titles, files or intermediate answers)">
        <textarea value=${doc.question} onInput=${(e) => { const v = e.target.value; edit((d) => ({ ...d, question: v })); }} data-testid="question"></textarea>
      <//>
      ${info.model ? html`<button class="secondary" onClick=${() => doDraft('question')} data-testid="draft-question">Draft the rewrite with ${info.model}</button>` : null}
      <h4>Leakage check</h4>
      <${Leakage} leakage=${check && check.leakage} />
    </section>
    </fieldset>
    <section id="findings">
      <h3>Findings</h3>
      <${Findings} findings=${check && check.findings} />
    </section>
    ${exportResult ? html`<${ExportResult} result=${exportResult} />` : null}
    <details class="lakeqa-json"><summary>LakeQA task JSON (what export writes)</summary><pre data-testid="lakeqa-json">${JSON.stringify((check && check.lakeqa) || view.lakeqa, null, 2)}</pre></details>
    <details><summary>Audit log (${view.audit.length})</summary>
      <table class="audit"><tbody>${view.audit.map((a) => html`<tr><td class="small muted">${a.at}</td><td>${a.who}</td><td>${a.action}</td><td class="small">${text(a.detail)}</td></tr>`)}</tbody></table>
    </details>
  </section>`;
}
