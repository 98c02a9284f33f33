// The workbench shell: the top bar (pages, the user's name), hash routing, and the pages of explore.js,
// compose.js, review.js and runs.js.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { html, useLoad, ErrorBox } from './ui.js';
import { get, who, setWho } from './api.js';
import { SearchPage, DatasetPage, BrowsePage, SqlPage } from './explore.js';
import { TasksPage, ComposePage } from './compose.js';
import { ReviewPage } from './review.js';
import { RunsPage, RunPage, RunTaskPage } from './runs.js';

window.__lakeqaStarted = true;

function parseHash() {
  const raw = location.hash.replace(/^#\/?/, '');
  const [path, qs] = raw.split('?');
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  return { parts, params: new URLSearchParams(qs || '') };
}

function useRoute() {
  const [route, setRoute] = useState(parseHash());
  useEffect(() => {
    const on = () => setRoute(parseHash());
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return route;
}

function WhoBox() {
  const [name, setName] = useState(who());
  const [editing, setEditing] = useState(!who());
  if (!editing) {
    return html`<span class="who">signed as <strong data-testid="who-name">${name}</strong>
      <button class="link" onClick=${() => setEditing(true)}>change</button></span>`;
  }
  const save = (e) => {
    e.preventDefault();
    if (!name.trim()) return;
    setWho(name);
    setEditing(false);
  };
  return html`<form class="who" onSubmit=${save}>
    <input data-testid="who-input" placeholder="your name (for reviews and the audit log)" value=${name}
      onInput=${(e) => setName(e.target.value)} />
    <button data-testid="who-save">Set</button>
  </form>`;
}

const NAV = [
  ['explore', 'Explore'], ['browse', 'Browse'], ['sql', 'SQL'], ['tasks', 'Tasks'], ['runs', 'Runs'],
];

function Page({ route, info }) {
  const [p0, p1, p2, p3] = route.parts;
  switch (p0 || 'explore') {
    case 'explore': return html`<${SearchPage} params=${route.params} info=${info} />`;
    case 'dataset': return html`<${DatasetPage} id=${p1 + '/' + route.parts.slice(2).join('/')} params=${route.params} />`;
    case 'browse': return html`<${BrowsePage} params=${route.params} />`;
    case 'sql': return html`<${SqlPage} params=${route.params} />`;
    case 'tasks': return html`<${TasksPage} />`;
    case 'task': return html`<${ComposePage} id=${p1} info=${info} />`;
    case 'review': return html`<${ReviewPage} id=${p1} />`;
    case 'runs': return html`<${RunsPage} />`;
    case 'run':
      if (p2 === 'task') return html`<${RunTaskPage} run=${p1} task=${p3} params=${route.params} />`;
      return html`<${RunPage} run=${p1} params=${route.params} />`;
    default: return html`<p>No page “${p0}”.</p>`;
  }
}

function App() {
  const route = useRoute();
  const info = useLoad(() => get('/api/info'), []);
  const current = route.parts[0] || 'explore';
  const section = { dataset: 'explore', task: 'tasks', review: 'tasks', run: 'runs' }[current] || current;
  return html`<div class="shell">
    <header class="top">
      <a class="brand" href="#/explore">lakeqa <span>workbench</span></a>
      <nav>${NAV.map(([k, label]) => html`<a href=${'#/' + k} class=${section === k ? 'active' : ''} data-testid=${'nav-' + k}>${label}</a>`)}</nav>
      <span class="lake" title=${info.data ? info.data.index : ''}>${info.data ? info.data.lake : ''}</span>
      <${WhoBox} />
    </header>
    <main>
      <${ErrorBox} error=${info.error} title="The server did not answer" />
      ${info.data ? html`<${Page} route=${route} info=${info.data} />` : null}
    </main>
  </div>`;
}

const root = document.getElementById('app');
root.textContent = '';  // the "Loading…" line of index.html
render(html`<${App} />`, root);
