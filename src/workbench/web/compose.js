// Tasks and the composer: the task list (new, import, reviewer counts, review policy) and the editor of
// one task as the LakeQA annotators build it — nodes of source + fact code + subquestion, run in the
// sandbox, chained through <node_N answer> placeholders, the DAG with k/n/d, suggestions for the next
// source, the rewrite with its leakage check, and export with `tasks validate` / `tasks verify` findings.
import { useState, useEffect, useRef } from 'preact/hooks';
import { html, useLoad, Loading, ErrorBox, Badge, StatusBadge, text, JsonBlock, navigate, Field } from './ui.js';
import { get, post, put, query, ApiError } from './api.js';
import { CodeEditor } from './editor.js';
import { SourcePicker } from './explore.js';

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

function NodeCard({ node, nodes, hopOf, onChange, onRemove, onRun, running, onSuggest, model, onDraft }) {
  const [picking, setPicking] = useState(false);
  const set = (k, v) => onChange({ ...node, [k]: v });
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
        <input class="mono" value=${node.source} onInput=${(e) => set('source', e.target.value)} data-testid="node-source" placeholder="datagov/airports/files/rows.txt" />
        <button class="secondary" onClick=${() => setPicking(!picking)}>${picking ? 'close' : 'pick…'}</button>
      </div>
    <//>
    ${picking ? html`<${SourcePicker} initial=${node.source.split('/')[1] || ''} onPick=${(key) => { set('source', key); setPicking(false); }} />` : null}
    <div class="label">Fact code <span class="hint">Python run in the sandbox: the source is at <code>local_path</code>; set <code>answer = …</code>. Earlier answers: ${earlier.length ? earlier.map((n) => html`<code>${'<node_' + n.key + ' answer>'}</code> `) : 'none'}</span></div>
    <${CodeEditor} language="python" value=${node.fact} onChange=${(v) => set('fact', v)} onRun=${onRun} testid="node-fact" minLines=${4} />
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

export function ComposePage({ id, info }) {
  const [view, setView] = useState(null);
  const [doc, setDoc] = useState(null);
  const [dirty, setDirty] = useState(false);
  const [check, setCheck] = useState(null);
  const [error, setError] = useState(null);
  const [conflict, setConflict] = useState(null);
  const [running, setRunning] = useState({});
  const [saving, setSaving] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [exportResult, setExportResult] = useState(null);
  const [exportError, setExportError] = useState(null);
  const [suggest, setSuggest] = useState(null);
  const [draft, setDraft] = useState(null);
  const docRef = useRef(null);
  docRef.current = doc;
  // The version the edits start from: saves chain (save, run, save) faster than renders.
  const baseRef = useRef(0);

  const adopt = (v) => {
    baseRef.current = v.task.version;
    setView(v);
    setDoc(v.task);
    setCheck({ structure: v.structure, findings: v.findings, leakage: v.leakage, lakeqa: v.lakeqa });
    setDirty(false);
  };
  useEffect(() => {
    setError(null);
    get('/api/tasks/' + id).then(adopt, setError);
  }, [id]);
  // Live checks of the edited content (structure, findings, leakage), a moment after typing stops.
  useEffect(() => {
    if (!doc || !dirty) return;
    const t = setTimeout(() => post(`/api/tasks/${id}/check`, { task: doc }).then(setCheck, () => {}), 400);
    return () => clearTimeout(t);
  }, [doc]);

  if (error && !view) return html`<${ErrorBox} error=${error} />`;
  if (!doc) return html`<${Loading} what="the task" />`;

  const edit = (next) => { setDoc(next); setDirty(true); setExportResult(null); };
  const setNode = (i, node) => edit({ ...doc, nodes: doc.nodes.map((n, j) => (j === i ? node : n)) });
  const save = async (d = docRef.current) => {
    setSaving(true);
    setError(null);
    try {
      const v = await put('/api/tasks/' + id, { base_version: baseRef.current, task: d });
      adopt(v);
      setConflict(null);
      return v;
    } catch (e) {
      if (e instanceof ApiError && e.code === 'conflict') setConflict({ message: e.message, current: e.body.current, mine: d });
      else setError(e);
      throw e;
    } finally {
      setSaving(false);
    }
  };
  const runNode = async (i) => {
    const key = doc.nodes[i].key;
    setRunning((r) => ({ ...r, [key]: true }));
    try {
      if (dirty) await save();
      const r = await post(`/api/tasks/${id}/run`, { node: key, task: docRef.current });
      const d = docRef.current;
      const nodes = d.nodes.map((n) => (n.key === key ? { ...n, last_run: r.run, answer: r.run.ok && !r.run.sentence ? r.run.answer : n.answer } : n));
      const next = { ...d, nodes };
      setDoc(next);
      // The captured answer is part of the task: keep it.
      if (r.run.ok && !r.run.sentence) await save(next);
    } catch (e) {
      if (!(e instanceof ApiError && e.code === 'conflict')) setError(e);
    } finally {
      setRunning((r) => ({ ...r, [key]: false }));
    }
  };
  const addNode = (source = '') => edit({ ...doc, nodes: [...doc.nodes, { key: nextKey(doc.nodes), source, fact: '', subquestion: '', answer: null, hop: 0, reasoning: '', last_run: null }] });
  const removeNode = (i) => edit({ ...doc, nodes: doc.nodes.filter((_, j) => j !== i) });
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
    post(`/api/tasks/${id}/status`, { base_version: baseRef.current, to }).then(adopt, (e) => {
      if (e instanceof ApiError && e.code === 'conflict') setConflict({ message: e.message, current: e.body.current, mine: doc });
      else setError(e);
    });
  };
  const doExport = async () => {
    setExporting(true);
    setExportError(null);
    setExportResult(null);
    try {
      if (dirty) await save();
      setExportResult(await post(`/api/tasks/${id}/export`, {}));
      get('/api/tasks/' + id).then(adopt, () => {});
    } catch (e) {
      setExportError(e);
    } finally {
      setExporting(false);
    }
  };
  const structure = (check && check.structure) || view.structure;
  const readOnly = doc.status === 'accepted' || doc.status === 'rejected';
  return html`<section class="page compose" data-testid="compose">
    <div class="toolbar sticky">
      <h2>${doc.question_id}</h2> <${StatusBadge} status=${doc.status} /> <span class="muted">version ${view.task.version}</span>
      ${dirty ? html`<span class="warn" data-testid="dirty">unsaved changes</span>` : html`<span class="muted" data-testid="saved">saved</span>`}
      <span class="spacer"></span>
      <button data-testid="save" onClick=${() => save().catch(() => {})} disabled=${saving || !dirty || readOnly}>${saving ? 'Saving…' : 'Save'}</button>
      ${doc.status === 'draft' || doc.status === 'revised' ? html`<button data-testid="send-review" onClick=${() => setStatus('in_review')} disabled=${dirty}>Send to review</button>` : null}
      ${doc.status !== 'draft' ? html`<button class="secondary" data-testid="to-draft" onClick=${() => setStatus('draft')}>${doc.status === 'in_review' ? 'Withdraw' : 'Reopen'}</button>` : null}
      <a class="button secondary" href=${'#/review/' + id} data-testid="open-review">Review</a>
      <button data-testid="export" onClick=${doExport} disabled=${exporting}>${exporting ? 'Exporting and verifying…' : 'Export'}</button>
    </div>
    ${conflict ? html`<div class="bad-box" data-testid="conflict" role="alert">
      <p><strong>Not saved.</strong> ${conflict.message}</p>
      <p><button onClick=${() => { adopt(conflict.current); setConflict(null); }} data-testid="conflict-load">Load the current version</button>
      <span class="muted">Your edits, to apply again:</span></p>
      <${JsonBlock} value=${conflict.mine} summary="your unsaved task" />
    </div>` : null}
    <${ErrorBox} error=${error} />
    ${readOnly ? html`<p class="warn">This task is ${doc.status}: reopen it to edit.</p>` : null}
    <div class="row">
      <${Field} label="question_id"><input class="mono" value=${doc.question_id} onInput=${(e) => edit({ ...doc, question_id: e.target.value })} data-testid="question-id" /><//>
      ${doc.origin ? html`<span class="muted small">imported from ${doc.origin}</span>` : null}
    </div>
    <${DagView} doc=${doc} structure=${structure} />
    <fieldset class="plain" disabled=${readOnly}>
    ${doc.nodes.map((n, i) => html`<${NodeCard} key=${n.key} node=${n} nodes=${doc.nodes} hopOf=${structure.hop_of || {}}
      onChange=${(nn) => setNode(i, nn)} onRemove=${() => removeNode(i)} onRun=${() => runNode(i)} running=${!!running[n.key]}
      onSuggest=${doSuggest} model=${info.model} onDraft=${() => doDraft('subquestion', n.key)} />`)}
    ${suggest ? html`<div class="suggest" data-testid="suggest">
      <h4>Datasets whose values or text hold “${suggest.value}” <button class="link" onClick=${() => setSuggest(null)}>close</button></h4>
      <${ErrorBox} error=${suggest.error} />
      ${suggest.loading ? html`<${Loading} />` : null}
      ${(suggest.hits || []).map((h) => html`<div class="suggest-hit"><strong>${h.title || h.id}</strong> <code>${h.id}</code>
        ${h.snippet ? html`<span class="muted"> — ${h.snippet.field}: ${h.snippet.text.slice(0, 160)}</span>` : null}
        <button class="link" onClick=${() => { addNode(h.id + '/'); setSuggest(null); }} data-testid="suggest-use">start the next node here</button></div>`)}
      ${suggest.hits && !suggest.hits.length ? html`<p class="muted">No other dataset holds it.</p>` : null}
    </div>` : null}
    <p><button class="secondary" data-testid="add-node" onClick=${() => addNode()}>Add a node</button></p>
    ${draft ? html`<div class="draft" data-testid="draft">
      <h4>Draft ${draft.kind === 'subquestion' ? `subquestion for node ${draft.node}` : 'question'} ${draft.model ? html`<span class="muted small">by ${draft.model}</span>` : null}</h4>
      <${ErrorBox} error=${draft.error} />${draft.loading ? html`<${Loading} />` : null}
      ${draft.text !== undefined ? html`<textarea value=${draft.text} onInput=${(e) => setDraft({ ...draft, text: e.target.value })} data-testid="draft-text"></textarea>
        <p><button data-testid="draft-use" onClick=${() => {
          if (draft.kind === 'question') edit({ ...doc, question: draft.text });
          else edit({ ...doc, nodes: doc.nodes.map((n) => (n.key === draft.node ? { ...n, subquestion: draft.text } : n)) });
          setDraft(null);
        }}>Use this text</button> <button class="link" onClick=${() => setDraft(null)}>discard</button> <span class="muted small">A draft is never saved until you use it.</span></p>` : null}
    </div>` : null}
    <section class="rewrite">
      <h3>The question</h3>
      <${Field} label="Final answer"><input value=${doc.answer === null ? '' : text(doc.answer)} onInput=${(e) => edit({ ...doc, answer: e.target.value })} data-testid="final-answer" /><//>
      <${Field} label="Rewritten question (one natural question that needs every node; no dataset ids, titles, files or intermediate answers)">
        <textarea value=${doc.question} onInput=${(e) => edit({ ...doc, question: e.target.value })} data-testid="question"></textarea>
      <//>
      ${info.model ? html`<button class="secondary" onClick=${() => doDraft('question')} data-testid="draft-question">Draft the rewrite with ${info.model}</button>` : null}
      <h4>Leakage check</h4>
      <${Leakage} leakage=${check && check.leakage} />
    </section>
    </fieldset>
    <section>
      <h3>Findings</h3>
      <${Findings} findings=${check && check.findings} />
    </section>
    ${exportError ? html`<div data-testid="export-error"><${ErrorBox} error=${exportError} title="Export refused" />
      ${exportError.body && exportError.body.findings ? html`<${Findings} findings=${exportError.body.findings.filter((f) => f.severity === 'error')} />` : null}</div>` : null}
    ${exportResult ? html`<${ExportResult} result=${exportResult} />` : null}
    <details class="lakeqa-json"><summary>LakeQA task JSON (what export writes)</summary><pre data-testid="lakeqa-json">${JSON.stringify((check && check.lakeqa) || view.lakeqa, null, 2)}</pre></details>
    <details><summary>Audit log (${view.audit.length})</summary>
      <table class="audit"><tbody>${view.audit.map((a) => html`<tr><td class="small muted">${a.at}</td><td>${a.who}</td><td>${a.action}</td><td class="small">${text(a.detail)}</td></tr>`)}</tbody></table>
    </details>
  </section>`;
}
