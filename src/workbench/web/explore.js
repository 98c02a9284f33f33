// Explore: faceted search with hit cards, the dataset page with file previews, prefix browsing of ids and
// the SQL console over a scratch sandbox.
import { useState, useEffect, useRef } from 'preact/hooks';
import { html, useLoad, Loading, ErrorBox, Badge, bytes, text, Marked, Table, navigate, NotFoundOr } from './ui.js';
import { get, post, query } from './api.js';
import { CodeEditor } from './editor.js';

const FACET_LABELS = { namespace: 'Namespace', category: 'Category', publisher: 'Publisher', format: 'Format', tags: 'Tags', theme: 'Theme' };

function searchHash(state) {
  return '#/explore?' + query(state);
}

function paramsState(params, facets) {
  const s = { q: params.get('q') || '', page: params.get('page') || '' };
  for (const f of facets) s[f] = params.getAll(f);
  return s;
}

function HitCard({ hit, words }) {
  const c = hit.catalog || {};
  const id = hit.id || `${hit.namespace}/${hit.dataset_id}`;
  const dup = hit.near_duplicates || [];
  // Fields the search tool may add beyond the ones drawn here are listed as they come.
  const known = new Set(['dataset_id', 'namespace', 'id', 'title', 'score', 'snippet', 'matched_columns', 'catalog', 'rank', 'near_duplicates']);
  const extra = Object.entries(hit).filter(([k]) => !known.has(k));
  return html`<article class="hit" data-testid="hit">
    <div class="hit-head">
      <span class="rank">${hit.rank}.</span>
      <a class="title" href=${'#/dataset/' + id} data-testid="hit-title">${hit.title || id}</a>
      <span class="score" title="BM25 score">${hit.score !== undefined ? Number(hit.score).toFixed(2) : ''}</span>
    </div>
    <div class="hit-meta"><code>${id}</code> <${Badge}>${hit.namespace}<//>
      ${c.category ? html`<${Badge} kind="info">${c.category}<//>` : null}
      ${c.file_count !== undefined ? html`<span class="muted">${c.file_count} files, ${bytes(c.bytes)}</span>` : null}
      ${c.temporal ? html`<span class="muted">${c.temporal}</span>` : null}</div>
    ${c.description ? html`<p class="desc">${c.description}</p>` : null}
    ${hit.snippet ? html`<p class="why" data-testid="why"><span class="why-label">matched in ${hit.snippet.field}:</span> <${Marked} value=${hit.snippet.text} marks=${words} /></p>` : null}
    ${hit.matched_columns && hit.matched_columns.length ? html`<p class="why"><span class="why-label">matched columns:</span> ${hit.matched_columns.map((m) => html`<code class="chip">${m}</code>`)}</p>` : null}
    ${c.columns && c.columns.length ? html`<p class="cols"><span class="why-label">columns${c.column_count > c.columns.length ? ` (${c.columns.length} of ${c.column_count})` : ''}:</span> ${c.columns.join(', ')}</p>` : null}
    ${dup.length ? html`<div class="dups" data-testid="near-duplicates"><span class="why-label">near-duplicates:</span> ${dup.map((d) => html`<span class="dup"><a href=${'#/dataset/' + (d.id || d)}>${d.id || d}</a>${d.differs ? html` <span class="muted">(${text(d.differs)})</span>` : null}</span>`)}</div>` : null}
    ${extra.length ? html`<p class="muted small">${extra.map(([k, v]) => html`<span class="kv">${k}: ${text(v)}</span>`)}</p>` : null}
  </article>`;
}

function Facets({ facets, state, onToggle }) {
  return html`<aside class="facets" data-testid="facets">
    ${Object.entries(facets || {}).map(([field, values]) => values.length ? html`<section class="facet">
      <h4>${FACET_LABELS[field] || field}</h4>
      ${values.map((v) => {
        const on = (state[field] || []).includes(v.value);
        return html`<label class="facet-value"><input type="checkbox" checked=${on} data-testid=${'facet-' + field + '-' + v.value}
          onChange=${() => onToggle(field, v.value)} /> ${v.value || html`<span class="muted">(none)</span>`} <span class="count">${v.count}</span></label>`;
      })}
    </section>` : null)}
  </aside>`;
}

export function SearchPage({ params, info }) {
  const facetFields = info.facets || [];
  const state = paramsState(params, facetFields);
  const [q, setQ] = useState(state.q);
  useEffect(() => setQ(state.q), [state.q]);
  const key = params.toString();
  const hasQuery = state.q || facetFields.some((f) => state[f].length);
  const res = useLoad(() => (hasQuery ? get('/api/search?' + query({ ...state, size: 10 })) : Promise.resolve(null)), [key]);
  const go = (next) => navigate(searchHash({ ...state, ...next }));
  const toggle = (field, value) => {
    const cur = state[field] || [];
    go({ [field]: cur.includes(value) ? cur.filter((x) => x !== value) : [...cur, value], page: '' });
  };
  const data = res.data;
  const page = data ? data.page : 1;
  const pages = data && data.total > 0 ? Math.ceil(Math.min(data.total, 1000) / data.size) : 0;
  const words = state.q.split(/\s+/).filter((w) => w.length > 2 && !w.includes(':'));
  return html`<section class="page explore">
    <form class="searchbar" onSubmit=${(e) => { e.preventDefault(); go({ q, page: '' }); }}>
      <input data-testid="search-input" placeholder=${'Search datasets: words, "phrases", prefix*, field:value'} value=${q} onInput=${(e) => setQ(e.target.value)} />
      <button data-testid="search-button">Search</button>
    </form>
    ${!hasQuery ? html`<p class="muted">Search the ${info.datasets ?? ''} datasets of the index, or <a href="#/browse">browse ids by prefix</a>.</p>` : null}
    <${ErrorBox} error=${res.error} />
    ${res.loading && hasQuery ? html`<${Loading} what="results" />` : null}
    ${data ? html`<div class="results-layout">
      <${Facets} facets=${data.facets} state=${state} onToggle=${toggle} />
      <div class="results">
        <p class="muted" data-testid="result-count">${data.total} matching datasets${data.total > 0 ? ` — page ${page} of ${pages}` : ''} <span class="small">(query <code>${data.query}</code>)</span></p>
        ${data.note ? html`<p class="warn" data-testid="search-note">${data.note}</p>` : null}
        ${data.hits.map((h) => html`<${HitCard} hit=${h} words=${words} />`)}
        ${pages > 1 ? html`<div class="pager">
          <button disabled=${page <= 1} onClick=${() => go({ page: page - 1 })}>← Previous</button>
          <span>page ${page} / ${pages}</span>
          <button data-testid="next-page" disabled=${page >= pages} onClick=${() => go({ page: page + 1 })}>Next →</button>
        </div>` : null}
      </div>
    </div>` : null}
  </section>`;
}

const TEXT_FORMATS = new Set(['text', 'html', 'pdf', 'docx', 'xlsx', 'xml']);

function FilePreview({ dataset, file }) {
  const res = useLoad(() => get('/api/file?' + query({ dataset, path: file })), [dataset, file]);
  if (res.loading) return html`<${Loading} what=${file} />`;
  if (res.error) return html`<${ErrorBox} error=${res.error} />`;
  const d = res.data;
  const ins = d.inspect || {};
  const profile = d.file && d.file.profile;
  const sample = ins.text_preview || (profile && profile.text_sample);
  return html`<div class="preview" data-testid="file-preview">
    <h3>${file} <a class="button small" data-testid="open-sql" href=${'#/sql?' + query({ dataset, file })}>Query in the SQL console</a></h3>
    <p class="muted">${ins.format} · ${ins.encoding} · ${bytes(ins.size_bytes)}${ins.delimiter_guess ? ` · delimiter “${ins.delimiter_guess}”` : ''}${ins.rows_sampled !== undefined ? ` · ${ins.rows_sampled} rows sampled${ins.rows_exact ? ' (all)' : ''}` : ''}</p>
    ${ins.columns && ins.columns.length ? html`<h4>Columns</h4><${Table} testid="column-types" columns=${['column', 'type', 'samples']} rows=${ins.columns.map((c) => [c.name, c.type, (c.samples || []).slice(0, 6).join(' · ')])} />` : null}
    ${d.rows ? html`<h4>First rows <span class="muted small">(${d.rows_sql})</span></h4><${Table} testid="first-rows" columns=${d.rows.columns} rows=${d.rows.rows} />` : null}
    ${d.rows_error ? html`<${ErrorBox} error=${{ message: d.rows_error }} title="First rows" />` : null}
    ${(TEXT_FORMATS.has(ins.format) || !d.rows) && (sample || (ins.line_preview && ins.line_preview.length)) ? html`<h4>Text preview</h4>
      <pre class="text-preview" data-testid="text-preview">${sample || (ins.line_preview || []).join('\n')}</pre>` : null}
    ${ins.json_keys && ins.json_keys.length ? html`<h4>JSON keys</h4><p>${ins.json_keys.slice(0, 40).join(', ')}</p>` : null}
  </div>`;
}

export function DatasetPage({ id, params }) {
  const res = useLoad(() => get('/api/dataset?' + query({ id })), [id]);
  const file = params.get('file');
  if (res.loading) return html`<${Loading} what=${id} />`;
  if (res.error) return html`<${NotFoundOr} error=${res.error} what=${'dataset ' + id} />`;
  const d = res.data.dataset;
  const meta = [['title', d.title], ['description', d.description], ['publisher', d.publisher], ['category', d.category],
    ['tags', (d.tags || []).join(', ')], ['themes', (d.themes || []).join(', ')], ['temporal', d.temporal],
    ['spatial', d.spatial], ['license', d.license], ['modified', d.modified], ['source', d.source_url]].filter(([, v]) => v);
  return html`<section class="page dataset" data-testid="dataset-page">
    <h2>${d.title || d.id}</h2>
    <p><code>${d.id}</code> <${Badge}>${d.namespace}<//> <span class="muted">${d.file_count} files · ${bytes(d.bytes)}${d.error_count ? ` · ${d.error_count} unreadable` : ''}</span></p>
    <table class="meta">${meta.map(([k, v]) => html`<tr><th>${k}</th><td class=${k === 'description' ? 'desc' : ''}>${v}</td></tr>`)}</table>
    ${d.columns && d.columns.length ? html`<p><span class="why-label">columns:</span> ${d.columns.join(', ')}</p>` : null}
    <h3>Files</h3>
    <div class="table-wrap"><table data-testid="files">
      <thead><tr><th>path</th><th>size</th><th>format</th><th>rows</th><th>columns</th><th></th></tr></thead>
      <tbody>${res.data.files.map((f) => html`<tr class=${f.path === file ? 'selected' : ''}>
        <td><a href=${'#/dataset/' + d.id + '?' + query({ file: f.path })} data-testid="file-link">${f.path}</a>${f.is_metadata ? html` <${Badge}>metadata<//>` : null}</td>
        <td>${bytes(f.size)}</td><td>${f.format || html`<span class="muted">unknown</span>`}</td>
        <td>${f.profile ? (f.profile.rows_exact ? f.profile.rows : '≥ ' + f.profile.rows) : html`<span class="muted">unknown</span>`}</td>
        <td>${f.profile && f.profile.columns ? f.profile.columns.length : ''}</td>
        <td>${f.error ? html`<span class="bad small">${f.error.message}</span>` : null}</td>
      </tr>`)}</tbody>
    </table></div>
    ${file ? html`<${FilePreview} dataset=${d.id} file=${file} />` : html`<p class="muted">Pick a file to see its profile, first rows and text.</p>`}
  </section>`;
}

export function BrowsePage({ params }) {
  const prefix = params.get('prefix') || '';
  const token = params.get('token') || '';
  const [typed, setTyped] = useState(prefix);
  useEffect(() => setTyped(prefix), [prefix]);
  const res = useLoad(() => get('/api/prefix?' + query({ prefix, token, delimiter: '/', max: 100 })), [prefix, token]);
  const up = prefix.includes('/') ? prefix.slice(0, prefix.slice(0, -1).lastIndexOf('/') + 1) : '';
  return html`<section class="page browse">
    <form class="searchbar" onSubmit=${(e) => { e.preventDefault(); navigate('#/browse?' + query({ prefix: typed })); }}>
      <input data-testid="prefix-input" placeholder="id prefix, e.g. datagov/ or wikipedia/New" value=${typed} onInput=${(e) => setTyped(e.target.value)} />
      <button>List</button>
    </form>
    <p class="crumbs"><a href="#/browse">(all)</a>${prefix ? html` / <code>${prefix}</code> ${prefix ? html`<a href=${'#/browse?' + query({ prefix: up })}>up</a>` : null}` : null}</p>
    <${ErrorBox} error=${res.error} />
    ${res.data ? html`<ul class="browse-list" data-testid="prefix-list">
      ${res.data.common_prefixes.map((p) => html`<li><a href=${'#/browse?' + query({ prefix: p })}>📁 ${p}</a></li>`)}
      ${res.data.keys.map((k) => html`<li><a href=${'#/dataset/' + k.id}>${k.id}</a> <span class="muted">${k.title} · ${k.file_count} files · ${bytes(k.bytes)}</span></li>`)}
    </ul>
    ${res.data.truncated ? html`<a class="button" href=${'#/browse?' + query({ prefix, token: res.data.next_token })}>More →</a>` : null}` : null}
  </section>`;
}

// A query error as DuckDB wrote it: its lines kept and monospaced, so the "^" under "LINE 1:" points at the
// place it means.
function SqlError({ error }) {
  return html`<div class="error-box" role="alert" data-testid="sql-error"><strong>Query failed: </strong>${error.code ? html`<code>${error.code}</code>` : null}
    <pre class="sql-error">${error.message || String(error)}</pre></div>`;
}

export function SqlPage({ params }) {
  const dataset = params.get('dataset');
  const file = params.get('file');
  // The editor owns the text (editor.js); `sqlText` follows it, and `reset` puts a statement in from outside.
  const [sqlText, setSql] = useState('');
  const [reset, setReset] = useState(0);
  const [result, setResult] = useState(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const sandbox = useLoad(() => get('/api/sandbox'), [result]);
  const sqlRef = useRef('');
  const edited = (text) => { sqlRef.current = text; setSql(text); };
  const load = (text) => { edited(text); setReset((r) => r + 1); };
  // A file sent from a dataset page is downloaded into the sandbox and selected.
  useEffect(() => {
    if (!dataset || !file) return;
    setBusy(true);
    post('/api/sql', { files: [{ dataset_id: dataset, file_path: file }] }).then((r) => {
      const rel = r.downloaded.length ? r.downloaded[0].relative_path : '';
      load(`SELECT * FROM '${rel}' LIMIT 10`);
      setResult(r);
      setBusy(false);
    }, (e) => { setError(e); setBusy(false); });
  }, [dataset, file]);
  const run = () => {
    setBusy(true);
    setError(null);
    post('/api/sql', { sql: sqlRef.current }).then((r) => { setResult(r); setBusy(false); }, (e) => { setError(e); setBusy(false); });
  };
  const files = sandbox.data ? sandbox.data.files : [];
  return html`<section class="page sql">
    <h2>SQL console</h2>
    <p class="muted">DuckDB over the files in the workbench's scratch sandbox, through the <code>query</code> tool (read-only, time and row limits). Add files from a dataset page.</p>
    <div class="sandbox-files" data-testid="sandbox-files">
      ${files.length ? files.map((f) => html`<button class="chip link" onClick=${() => load(`SELECT * FROM '${f.relative_path}' LIMIT 10`)}>${f.relative_path} <span class="muted">${bytes(f.size)}</span></button>`) : html`<span class="muted">The sandbox is empty.</span>`}
    </div>
    <${CodeEditor} language="sql" initial=${sqlText} reset=${reset} onChange=${edited} onRun=${run} testid="sql-editor" minLines=${3} />
    <p><button data-testid="sql-run" onClick=${run} disabled=${busy || !sqlText.trim()}>${busy ? 'Running…' : 'Run (Ctrl+Enter)'}</button></p>
    <${ErrorBox} error=${error} />
    ${result && result.error ? html`<${SqlError} error=${result.error} />` : null}
    ${result && result.result ? html`<div data-testid="sql-result">
      <p class="muted">${result.result.rows.length} rows${result.result.truncated ? ' (truncated)' : ''}</p>
      <${Table} testid="sql-table" columns=${result.result.columns.map((c, i) => `${c} (${result.result.types[i]})`)} rows=${result.result.rows} />
    </div>` : null}
  </section>`;
}

// The dataset picker of the composer: search, pick a dataset, pick one of its files.
export function SourcePicker({ onPick, initial }) {
  const [q, setQ] = useState(initial || '');
  const [hits, setHits] = useState(null);
  const [dataset, setDataset] = useState(null);
  const [error, setError] = useState(null);
  const search = (e) => {
    e && e.preventDefault();
    setError(null);
    get('/api/search?' + query({ q, size: 8 })).then((r) => setHits(r.hits), setError);
  };
  const open = (id) => get('/api/dataset?' + query({ id })).then(setDataset, setError);
  return html`<div class="picker" data-testid="source-picker">
    <form onSubmit=${search}><input placeholder="search datasets" value=${q} onInput=${(e) => setQ(e.target.value)} /><button>Search</button></form>
    <${ErrorBox} error=${error} />
    ${dataset ? html`<div><p><strong>${dataset.dataset.title}</strong> <button class="link" onClick=${() => setDataset(null)}>back</button></p>
      <ul>${dataset.files.filter((f) => !f.is_metadata).map((f) => html`<li><button class="link" onClick=${() => onPick(f.key)}>${f.path}</button> <span class="muted">${f.format} ${bytes(f.size)}</span></li>`)}</ul></div>`
      : hits ? html`<ul>${hits.map((h) => html`<li><button class="link" onClick=${() => open(h.id)}>${h.title || h.id}</button> <code class="muted">${h.id}</code></li>`)}</ul>` : null}
  </div>`;
}

