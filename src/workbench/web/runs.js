// Read runs: the run list with the leaderboard fields, one run's tasks with filters and charts, and one
// task's trace — model text, each tool call and its result as the model saw it, per-turn tokens, cost and
// time, gold datasets marked wherever they appear — alone or beside the same task in another run.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html, useLoad, Loading, ErrorBox, Badge, pct, num, money, text, Marked, navigate, NotFoundOr } from './ui.js';
import { get, query } from './api.js';

function BarChart({ labels, values, label, testid }) {
  const canvas = useRef(null);
  useEffect(() => {
    if (!window.Chart || !canvas.current) return undefined;
    const chart = new window.Chart(canvas.current, {
      type: 'bar',
      data: { labels, datasets: [{ label, data: values, backgroundColor: '#4a78b5' }] },
      options: { animation: false, responsive: false, plugins: { legend: { display: false } }, scales: { y: { beginAtZero: true } } },
    });
    return () => chart.destroy();
  }, [JSON.stringify(labels), JSON.stringify(values)]);
  return html`<figure class="chart" data-testid=${testid}><figcaption>${label}</figcaption><canvas ref=${canvas} width="420" height="200"></canvas></figure>`;
}

export function RunsPage() {
  const res = useLoad(() => get('/api/runs'), []);
  if (res.loading) return html`<${Loading} what="runs" />`;
  if (res.error) return html`<${ErrorBox} error=${res.error} />`;
  const runs = res.data.runs;
  if (!runs.length) return html`<section class="page"><h2>Runs</h2><p class="muted">No runs: start <code>lakeqa ui</code> with <code>--runs &lt;run dir or folder of runs&gt;</code>.</p></section>`;
  const scored = runs.filter((r) => r.em !== null && r.em !== undefined);
  return html`<section class="page runs">
    <h2>Runs</h2>
    <div class="table-wrap"><table data-testid="run-list">
      <thead><tr><th>run</th><th>agent</th><th>model</th><th>tasks</th><th>EM</th><th>lenient</th><th>judge</th><th>D_acc F1</th><th>D_ret F1</th><th>runtime / task</th><th>cost / task</th><th>scored from</th></tr></thead>
      <tbody>${runs.map((r) => html`<tr class="clickable" onClick=${() => navigate('#/run/' + encodeURIComponent(r.id))} data-testid="run-row">
        <td><a href=${'#/run/' + encodeURIComponent(r.id)}>${r.name}</a>${r.error ? html`<br/><span class="bad small">${r.error}</span>` : null}</td>
        <td>${text(r.agent)}</td><td>${text(r.model)}</td><td>${r.tasks ?? ''}</td>
        <td>${pct(r.em)}</td><td>${pct(r.lenient)}</td><td>${r.judge ? pct(r.judge.accuracy) : html`<span class="muted">not judged</span>`}</td><td>${pct(r.dacc_f1)}</td><td>${pct(r.dret_f1)}</td>
        <td>${r.runtime_s === null || r.runtime_s === undefined ? html`<span class="muted">unknown</span>` : Number(r.runtime_s).toFixed(1) + ' s'}</td>
        <td>${money(r.cost_usd)}</td><td class="small muted">${r.source}</td>
      </tr>`)}</tbody>
    </table></div>
    ${scored.length ? html`<${BarChart} labels=${scored.map((r) => r.name)} values=${scored.map((r) => +(100 * r.em).toFixed(1))} label="EM (%) per run" testid="runs-chart" />` : null}
  </section>`;
}

function filterRows(rows, f) {
  return rows.filter((r) => (!f.stage || r.funnel === f.stage)
    && (!f.hops || String(r.hops) === f.hops)
    && (!f.category || (r.category || []).includes(f.category))
    && (!f.status || r.status === f.status)
    && (!f.correct || (f.correct === 'yes' ? r.correct === true : f.correct === 'no' ? r.correct === false : r.correct !== true && r.correct !== false))
    && (!f.text || (r.task_id + ' ' + (r.question || '')).toLowerCase().includes(f.text.toLowerCase())));
}

function distinct(rows, get) {
  const s = new Set();
  rows.forEach((r) => [].concat(get(r)).forEach((v) => v !== null && v !== undefined && v !== '' && s.add(String(v))));
  return [...s].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
}

function Select({ label, value, options, onChange, testid }) {
  return html`<label class="filter">${label} <select value=${value} onChange=${(e) => onChange(e.target.value)} data-testid=${testid}>
    <option value="">all</option>${options.map((o) => html`<option value=${o}>${o}</option>`)}</select></label>`;
}

// yes / no / unknown for a score that may be missing (unknown is never shown as "no").
function Verdict({ v }) {
  if (v === true) return html`<${Badge} kind="ok">yes<//>`;
  if (v === false) return html`<${Badge} kind="bad">no<//>`;
  return html`<span class="muted">unknown</span>`;
}

function JudgeVerdict({ judge }) {
  if (!judge) return html`<span class="muted">not judged</span>`;
  if (judge.error) return html`<span class="bad small" title=${judge.error}>judge failed</span>`;
  return html`<span title=${judge.rationale || ''}><${Verdict} v=${judge.correct} /></span>`;
}

// The answer as EM scored it (the harness's cleaning of the raw answer); marked when it differs from the
// raw answer, since that is where "183 pound" became "183".
function Scored({ row }) {
  const c = row.cleaned_answer;
  if (c === undefined || c === null) return html`<span class="muted">unknown</span>`;
  const differs = c !== text(row.answer);
  return html`<span class=${differs ? 'scored differs' : 'scored'}>${c === '' ? html`<span class="muted">(empty)</span>` : c}</span>`;
}

export function RunPage({ run, params }) {
  const res = useLoad(() => get(`/api/runs/${encodeURIComponent(run)}/tasks`), [run]);
  const f = Object.fromEntries(['stage', 'hops', 'category', 'status', 'correct', 'text'].map((k) => [k, params.get(k) || '']));
  const setF = (k, v) => navigate(`#/run/${encodeURIComponent(run)}?` + query({ ...f, [k]: v }));
  if (res.loading) return html`<${Loading} what="the run" />`;
  if (res.error) return html`<${NotFoundOr} error=${res.error} what=${'run ' + run} />`;
  const d = res.data;
  if (!d || !Array.isArray(d.rows)) return html`<${ErrorBox} error=${{ message: `the server's answer for run ${run} holds no task rows` }} />`;
  const judged = d.rows.some((r) => r.judge);
  const rows = filterRows(d.rows, f);
  const shown = rows.slice(0, 2000);
  const s = d.summary || {};
  const funnel = s.funnel || {};
  const byHops = s.by_hops || {};
  return html`<section class="page run" data-testid="run-page">
    <h2>${d.dir.split('/').pop()}</h2>
    <p class="muted small">${d.dir} · ${d.source}</p>
    <p class="leader">EM <strong>${pct(s.em)}</strong> · lenient ${pct(s.lenient)}${s.judge ? html` · judge ${pct(s.judge.accuracy)}` : null} · D_acc F1 ${pct(s.dacc_f1)} · D_ret F1 ${pct(s.dret_f1)} · ${s.tasks ?? d.rows.length} tasks · runtime ${num(s.runtime_s, 1)} s/task · cost ${money(s.cost_usd)}/task</p>
    ${d.warnings.length ? html`<details class="warn"><summary>${d.warnings.length} warnings reading the run</summary><ul>${d.warnings.map((w) => html`<li class="small">${w}</li>`)}</ul></details>` : null}
    <div class="charts">
      ${Object.keys(funnel).length ? html`<${BarChart} labels=${Object.keys(funnel)} values=${Object.values(funnel)} label="Failure funnel (tasks per furthest stage, report.json's order)" testid="funnel-chart" />` : null}
      ${Object.keys(byHops).length ? html`<${BarChart} labels=${Object.keys(byHops).map((k) => 'k=' + k)} values=${Object.values(byHops).map((b) => +(100 * (b.em || 0)).toFixed(1))} label="EM (%) by hops" testid="hops-chart" />` : null}
    </div>
    <div class="filters" data-testid="run-filters">
      <${Select} label="funnel stage" value=${f.stage} options=${distinct(d.rows, (r) => r.funnel)} onChange=${(v) => setF('stage', v)} testid="filter-stage" />
      <${Select} label="hops" value=${f.hops} options=${distinct(d.rows, (r) => r.hops)} onChange=${(v) => setF('hops', v)} testid="filter-hops" />
      <${Select} label="category" value=${f.category} options=${distinct(d.rows, (r) => r.category || [])} onChange=${(v) => setF('category', v)} testid="filter-category" />
      <${Select} label="status" value=${f.status} options=${distinct(d.rows, (r) => r.status)} onChange=${(v) => setF('status', v)} testid="filter-status" />
      <label class="filter">EM <select value=${f.correct} onChange=${(e) => setF('correct', e.target.value)} data-testid="filter-correct">
        <option value="">all</option><option value="yes">exact match</option><option value="no">no exact match</option><option value="unknown">unknown</option></select></label>
      <input class="filter-text" placeholder="task id or question words" value=${f.text} onChange=${(e) => setF('text', e.target.value)} />
      <span class="muted">${rows.length} of ${d.rows.length} tasks${rows.length > shown.length ? ` (first ${shown.length} shown)` : ''}</span>
    </div>
    <div class="table-wrap"><table data-testid="run-tasks">
      <thead><tr><th>task</th><th>question</th><th title="exact match of the scored answer, as the LakeQA harness computes it">EM</th><th title="EM, or the same number at the gold's precision, or the same date">lenient</th>${judged ? html`<th>judge</th>` : null}<th>funnel stage</th><th>hops</th><th>status</th><th>answer</th><th title="the answer after the harness's cleaning: what EM compared with the gold">scored as</th><th>gold</th><th>turns</th><th>cost</th></tr></thead>
      <tbody>${shown.map((r) => html`<tr class="clickable" onClick=${() => navigate(`#/run/${encodeURIComponent(run)}/task/${encodeURIComponent(r.task_id)}`)} data-testid="task-row" data-task=${r.task_id}>
        <td><a href=${`#/run/${encodeURIComponent(run)}/task/${encodeURIComponent(r.task_id)}`}>${r.task_id}</a></td>
        <td class="q">${r.question ?? html`<span class="muted">unknown</span>`}</td>
        <td data-testid="row-em"><${Verdict} v=${r.correct} /></td>
        <td data-testid="row-lenient"><${Verdict} v=${r.lenient} /></td>
        ${judged ? html`<td data-testid="row-judge"><${JudgeVerdict} judge=${r.judge} /></td>` : null}
        <td>${r.funnel ?? html`<span class="muted">unknown</span>`}</td><td>${r.hops ?? ''}</td><td>${r.status}</td>
        <td class="small" data-testid="row-answer">${text(r.answer)}</td>
        <td class="small" data-testid="row-scored"><${Scored} row=${r} /></td>
        <td class="small" data-testid="row-gold">${text(r.gold)}</td><td>${r.turns ?? ''}</td><td>${money(r.cost_usd)}</td>
      </tr>`)}</tbody>
    </table></div>
  </section>`;
}

function tokensOf(e) {
  const u = e.usage || e.tokens;
  if (!u) return null;
  return `${u.input_tokens ?? u.input ?? '?'} in / ${u.output_tokens ?? u.output ?? '?'} out`;
}

// One trace event: the model's text, the call, its result as the model saw it (expandable), ids marked.
function TraceEvent({ e, gold, open }) {
  const golds = gold.flatMap((g) => [g, g.split('/').slice(1).join('/')]);
  const hit = [...(e.returned || []), ...(e.accessed || [])].some((id) => gold.includes(id));
  const known = new Set(['turn', 'tool', 'arguments', 'status', 'elapsed_ms', 'summary', 'returned', 'accessed', 'result', 'content', 'usage', 'tokens', 'cost_usd', 'model_ms', 'tool_choice', 'error']);
  const extra = Object.entries(e).filter(([k]) => !known.has(k));
  return html`<li class=${'event' + (hit ? ' gold-hit' : '') + (e.status && e.status !== 'ok' ? ' failed' : '')} data-testid="trace-event">
    <div class="event-head">
      <span class="turn">turn ${e.turn}</span>
      <${Badge} kind=${e.status === 'ok' ? 'info' : 'bad'}>${e.tool || '(no tool call)'}<//>
      ${e.status && e.status !== 'ok' ? html`<${Badge} kind="bad">${e.status}<//>` : null}
      <span class="muted small">${e.elapsed_ms !== undefined ? `tool ${Math.round(e.elapsed_ms)} ms` : ''}${e.model_ms !== undefined ? ` · model ${Math.round(e.model_ms)} ms` : ''}${tokensOf(e) ? ' · ' + tokensOf(e) : ''}${e.cost_usd !== undefined && e.cost_usd !== null ? ` · $${Number(e.cost_usd).toFixed(4)}` : ''}</span>
      ${hit ? html`<${Badge} kind="gold">gold dataset<//>` : null}
    </div>
    ${e.content ? html`<div class="model-text"><span class="label">model</span> <${Marked} value=${e.content} marks=${golds} cls="gold" /></div>` : null}
    ${e.arguments !== undefined ? html`<div class="args"><span class="label">arguments</span> <code><${Marked} value=${text(e.arguments)} marks=${golds} cls="gold" /></code></div>` : null}
    ${e.summary ? html`<div class="small"><span class="label">summary</span> ${e.summary}</div>` : null}
    ${e.error ? html`<div class="bad small">${text(e.error)}</div>` : null}
    ${(e.returned || []).length || (e.accessed || []).length ? html`<div class="ids small">
      ${(e.returned || []).length ? html`<span class="label">returned</span> ${e.returned.map((id) => html`<code class=${'chip' + (gold.includes(id) ? ' gold' : '')}>${id}</code>`)}` : null}
      ${(e.accessed || []).length ? html` <span class="label">accessed</span> ${e.accessed.map((id) => html`<code class=${'chip' + (gold.includes(id) ? ' gold' : '')}>${id}</code>`)}` : null}
    </div>` : null}
    ${e.result !== undefined ? html`<details class="result" open=${open}><summary>result as the model saw it (${text(e.result).length} chars)</summary><pre><${Marked} value=${text(e.result)} marks=${golds} cls="gold" /></pre></details>` : null}
    ${extra.length ? html`<details class="small"><summary>other fields</summary><pre>${JSON.stringify(Object.fromEntries(extra), null, 2)}</pre></details>` : null}
  </li>`;
}

function TaskTrace({ run, task, compact }) {
  const res = useLoad(() => get(`/api/runs/${encodeURIComponent(run)}/tasks/${encodeURIComponent(task)}`), [run, task]);
  if (res.loading) return html`<${Loading} what="the trace" />`;
  if (res.error) return html`<${NotFoundOr} error=${res.error} what=${`task ${task} of run ${run}`} />`;
  const { row, events, warnings } = res.data;
  const gold = row.gold_datasets || [];
  const totalTokens = events.reduce((a, e) => { const u = e.usage || {}; return [a[0] + (u.input_tokens || 0), a[1] + (u.output_tokens || 0)]; }, [0, 0]);
  return html`<div class="task-trace" data-testid="task-trace">
    ${compact ? null : html`<div class="question-box"><p class="q" data-testid="run-question">${row.question ?? html`<span class="muted">(question unknown: the run is not scored)</span>`}</p></div>`}
    <table class="meta">
      <tr><th>gold</th><td data-testid="gold">${text(row.gold)}</td></tr>
      <tr><th>answer</th><td data-testid="trace-answer">${text(row.answer)}</td></tr>
      <tr><th title="the answer after the harness's cleaning: what EM compared with the gold">scored as</th><td data-testid="trace-scored"><${Scored} row=${row} />
        ${row.normalized_answer !== undefined ? html` <span class="muted small">(normalised “${row.normalized_answer}” against “${row.normalized_gold}”)</span>` : null}</td></tr>
      <tr><th>exact match</th><td data-testid="trace-em"><${Verdict} v=${row.correct} /></td></tr>
      <tr><th title="EM, or the same number at the gold's precision, or the same date (lakeqa's own matchers, never folded into EM)">lenient</th><td data-testid="trace-lenient"><${Verdict} v=${row.lenient} />
        ${row.numeric_match ? html` <span class="muted small">same number</span>` : null}${row.date_match ? html` <span class="muted small">same date</span>` : null}</td></tr>
      ${row.judge ? html`<tr><th>LLM judge</th><td data-testid="trace-judge"><${JudgeVerdict} judge=${row.judge} />${row.judge.rationale ? html` <span class="small">${row.judge.rationale}</span>` : null}${row.judge.error ? html` <span class="bad small">${row.judge.error}</span>` : null}</td></tr>` : null}
      <tr><th>funnel stage</th><td data-testid="funnel-stage">${row.funnel ?? html`<span class="muted">unknown</span>`}</td></tr>
      <tr><th>status</th><td>${row.status} · ${row.turns ?? '?'} turns · ${num(row.runtime_s, 1)} s · ${money(row.cost_usd)}${totalTokens[0] ? ` · ${totalTokens[0]} in / ${totalTokens[1]} out tokens` : ''}</td></tr>
      <tr><th>gold datasets</th><td>${gold.map((g) => html`<code class="chip gold">${g}</code>`)}</td></tr>
    </table>
    ${warnings.length ? html`<details class="warn"><summary>${warnings.length} trace warnings</summary><ul>${warnings.map((w) => html`<li class="small">${w}</li>`)}</ul></details>` : null}
    <h3>Trace <span class="muted small">(${events.length} events)</span></h3>
    <ol class="trace">${events.map((e, i) => html`<${TraceEvent} e=${e} gold=${gold} open=${i === 0 && !compact} />`)}</ol>
  </div>`;
}

export function RunTaskPage({ run, task, params }) {
  const runs = useLoad(() => get('/api/runs'), []);
  const other = params.get('compare') || '';
  const setOther = (v) => navigate(`#/run/${encodeURIComponent(run)}/task/${encodeURIComponent(task)}?` + query({ compare: v }));
  const name = (id) => (runs.data ? (runs.data.runs.find((r) => r.id === id) || {}).name : id);
  return html`<section class="page run-task" data-testid="run-task-page">
    <div class="toolbar"><h2><a href=${'#/run/' + encodeURIComponent(run)}>${name(run)}</a> / ${task}</h2><span class="spacer"></span>
      ${runs.data ? html`<label>beside <select value=${other} onChange=${(e) => setOther(e.target.value)} data-testid="compare-select">
        <option value="">(no other run)</option>${runs.data.runs.filter((r) => r.id !== run).map((r) => html`<option value=${r.id}>${r.name}</option>`)}</select></label>` : null}
    </div>
    ${other ? html`<div class="side-by-side" data-testid="side-by-side">
      <div><h3>${name(run)}</h3><${TaskTrace} run=${run} task=${task} compact=${false} /></div>
      <div><h3>${name(other)}</h3><${TaskTrace} run=${other} task=${task} compact=${true} /></div>
    </div>` : html`<${TaskTrace} run=${run} task=${task} />`}
  </section>`;
}
