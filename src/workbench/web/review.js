// Review: one task read as a reviewer sees it, the review form (sound/complete per node, the chain, the
// rewrite, a verdict), the rule's state, earlier reviews and the audit log.
import { useState, useEffect } from 'preact/hooks';
import { html, Loading, ErrorBox, Badge, StatusBadge, text, NotFoundOr } from './ui.js';
import { get, post, who, ApiError } from './api.js';
import { DagView } from './compose.js';

function YesNo({ name, value, onChange, yes, no, testid }) {
  return html`<span class="yesno" data-testid=${testid}>
    <label><input type="radio" name=${name} checked=${value === true} onChange=${() => onChange(true)} data-testid=${testid + '-yes'} /> ${yes || 'yes'}</label>
    <label><input type="radio" name=${name} checked=${value === false} onChange=${() => onChange(false)} data-testid=${testid + '-no'} /> ${no || 'no'}</label>
  </span>`;
}

function emptyForm(task) {
  return {
    nodes: Object.fromEntries(task.nodes.map((n) => [n.key, { sound: null, complete: null, comment: '' }])),
    chain_valid: null, chain_comment: '', natural: null, no_leakage: null, rewrite_comment: '', verdict: '', comment: '',
  };
}

function PastReview({ r }) {
  const kind = { accept: 'ok', revise: 'warn', reject: 'bad' }[r.verdict];
  const yn = (b) => (b === true ? 'yes' : b === false ? 'no' : '—');
  return html`<li class="past-review"><${Badge} kind=${kind}>${r.verdict}<//> by <strong>${r.reviewer}</strong>${r.adjudicator ? html` <${Badge} kind="info">adjudicator<//>` : null}
    <span class="muted small"> of version ${r.task_version}, ${r.created_at}</span>${r.by_author ? html` <${Badge} kind="warn">by an author: not counted<//>` : null}
    <ul class="small">${r.nodes.map((n) => html`<li>node ${n.node}: sound ${yn(n.sound)}, complete ${yn(n.complete)}${n.comment ? ' — ' + n.comment : ''}</li>`)}
      <li>chain valid ${yn(r.chain_valid)}${r.chain_comment ? ' — ' + r.chain_comment : ''}</li>
      <li>natural ${yn(r.natural)}, no leakage ${yn(r.no_leakage)}${r.rewrite_comment ? ' — ' + r.rewrite_comment : ''}</li></ul>
    ${r.comment ? html`<p class="small">${r.comment}</p>` : null}</li>`;
}

export function ReviewPage({ id }) {
  const [view, setView] = useState(null);
  const [form, setForm] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(null);
  const adopt = (v) => { setView(v); setForm(emptyForm(v.task)); };
  useEffect(() => { get('/api/tasks/' + encodeURIComponent(id)).then(adopt, setError); }, [id]);
  if (error && !view) return html`<${NotFoundOr} error=${error} what=${'task ' + id} />`;
  if (!view) return html`<${Loading} what="the task" />`;
  const t = view.task;
  const setNode = (k, f, v) => setForm({ ...form, nodes: { ...form.nodes, [k]: { ...form.nodes[k], [f]: v } } });
  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body = {
        task_version: t.content_version,
        nodes: t.nodes.map((n) => ({ node: n.key, ...form.nodes[n.key] })),
        chain_valid: form.chain_valid, chain_comment: form.chain_comment, natural: form.natural,
        no_leakage: form.no_leakage, rewrite_comment: form.rewrite_comment, verdict: form.verdict, comment: form.comment,
      };
      const v = await post(`/api/tasks/${encodeURIComponent(id)}/reviews`, body);
      setDone(v.review);
      adopt(v);
    } catch (err) {
      setError(err);
      if (err instanceof ApiError && err.code === 'conflict' && err.body.current) adopt(err.body.current);
    } finally {
      setBusy(false);
    }
  };
  const state = view.review_state;
  const authors = state.authors || [];
  const me = who();
  const iAmAuthor = me && authors.includes(me);
  return html`<section class="page review" data-testid="review-page">
    <div class="toolbar"><h2>Review ${t.question_id}</h2> <${StatusBadge} status=${t.status} /> <span class="muted" data-testid="task-version">version ${t.content_version}</span>
      <span class="spacer"></span><a class="button secondary" href=${'#/task/' + encodeURIComponent(id)}>Open in the composer</a></div>
    <p class=${state.met ? 'ok' : 'muted'} data-testid="review-state">${state.message}</p>
    <p class="muted small" data-testid="author-rule">Reviews by an author of the task (${authors.length ? authors.join(', ') : 'nobody yet'}: whoever created it or saved a change to it) are recorded but do not count toward the quorum.</p>
    <div class="question-box"><p class="q" data-testid="review-question">${t.question || html`<span class="muted">(no question)</span>`}</p>
      <p>Answer: <strong>${text(t.answer)}</strong></p></div>
    ${view.leakage.length ? html`<ul class="leakage">${view.leakage.map((l) => html`<li><${Badge} kind="warn">${l.kind}<//> “${l.text}” — ${l.message}</li>`)}</ul>` : html`<p class="ok small">The leakage check finds nothing.</p>`}
    <${DagView} doc=${t} structure=${view.structure} />
    <form onSubmit=${submit} class="review-form">
      ${t.nodes.map((n) => html`<article class="node-card review-node" data-testid=${'review-node-' + n.key}>
        <h3>Node ${n.key} <span class="muted small">hop ${view.structure.hop_of[n.key]}</span></h3>
        <p><span class="label">source</span> <a class="mono" href=${'#/dataset/' + n.source.split('/').slice(0, 2).join('/') + '?file=' + encodeURIComponent(n.source.split('/').slice(2).join('/'))}>${n.source}</a></p>
        <p><span class="label">subquestion</span> ${n.subquestion}</p>
        <pre class="code">${n.fact}</pre>
        <p><span class="label">answer</span> <strong>${text(n.answer)}</strong>
          ${n.last_run ? html` · last run ${n.last_run.ok ? html`<span class="ok">gave ${text(n.last_run.answer)}</span>` : html`<span class="bad">failed: ${n.last_run.error}</span>`} <span class="muted small">(${n.last_run.ran_at})</span>` : html` · <span class="warn">never run</span>`}</p>
        <p>Sound (true of its source)? <${YesNo} name=${'sound' + n.key} value=${form.nodes[n.key].sound} onChange=${(v) => setNode(n.key, 'sound', v)} testid=${'sound-' + n.key} />
           Complete (answers its subquestion)? <${YesNo} name=${'complete' + n.key} value=${form.nodes[n.key].complete} onChange=${(v) => setNode(n.key, 'complete', v)} testid=${'complete-' + n.key} /></p>
        <input placeholder="comment on this node" value=${form.nodes[n.key].comment} onInput=${(e) => setNode(n.key, 'comment', e.target.value)} />
      </article>`)}
      <article class="node-card">
        <h3>Chain and rewrite</h3>
        <p>Does each subquestion follow from the answers before it? <${YesNo} name="chain" value=${form.chain_valid} onChange=${(v) => setForm({ ...form, chain_valid: v })} testid="chain" /></p>
        <input placeholder="comment on the chain" value=${form.chain_comment} onInput=${(e) => setForm({ ...form, chain_comment: e.target.value })} />
        <p>Is the question natural? <${YesNo} name="natural" value=${form.natural} onChange=${(v) => setForm({ ...form, natural: v })} testid="natural" />
           Free of leakage? <${YesNo} name="leak" value=${form.no_leakage} onChange=${(v) => setForm({ ...form, no_leakage: v })} testid="no-leakage" /></p>
        <input placeholder="comment on the rewrite" value=${form.rewrite_comment} onInput=${(e) => setForm({ ...form, rewrite_comment: e.target.value })} />
      </article>
      <article class="node-card">
        <h3>Verdict <span class="muted small">as ${me || '(set your name at the top)'}</span></h3>
        ${iAmAuthor ? html`<p class="warn" data-testid="author-note">You are an author of this task: your review is recorded but does not count toward the quorum of ${state.min_reviews}.</p>` : null}
        <p class="verdicts">${['accept', 'revise', 'reject'].map((v) => html`<label><input type="radio" name="verdict" checked=${form.verdict === v} onChange=${() => setForm({ ...form, verdict: v })} data-testid=${'verdict-' + v} /> ${v}</label>`)}</p>
        <textarea placeholder="what to change (required to revise or reject)" value=${form.comment} onInput=${(e) => setForm({ ...form, comment: e.target.value })}></textarea>
        <p><button data-testid="submit-review" disabled=${busy || t.status !== 'in_review'}>${busy ? 'Recording…' : 'Record review'}</button>
          ${t.status !== 'in_review' ? html`<span class="muted"> Only a task in review takes reviews (this one is ${t.status.replace('_', ' ')}).</span>` : null}</p>
        <${ErrorBox} error=${error} />
        ${done ? html`<p class="ok" data-testid="review-recorded">Review recorded (${done.verdict}).</p>` : null}
      </article>
    </form>
    <h3>Reviews</h3>
    <ul class="past">${view.reviews.slice().reverse().map((r) => html`<${PastReview} r=${r} />`)}</ul>
    ${view.reviews.length === 0 ? html`<p class="muted">None yet.</p>` : null}
    <h3>Audit log</h3>
    <table class="audit" data-testid="audit"><tbody>${view.audit.map((a) => html`<tr><td class="small muted">${a.at}</td><td>${a.who}</td><td>${a.action}</td><td class="small">${text(a.detail)}</td></tr>`)}</tbody></table>
  </section>`;
}
