// The workbench shell: the top bar (pages, the user's name), hash routing, and the pages of explore.js,
// compose.js, review.js and runs.js.
import { render, Component } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { html, useLoad, ErrorBox } from './ui.js';
import { get, who, setWho } from './api.js';
import { SearchPage, DatasetPage, BrowsePage, SqlPage } from './explore.js';
import { TasksPage, ComposePage } from './compose.js';
import { ReviewPage } from './review.js';
import { RunsPage, RunPage, RunTaskPage } from './runs.js';

window.__lakeqaStarted = true;

// The address after '#': path segments (each percent-decoded; a segment that does not decode is kept as
// written and marks the route bad) and the query parameters.
function parseHash() {
  const raw = location.hash.replace(/^#\/?/, '');
  const q = raw.indexOf('?');
  const path = q < 0 ? raw : raw.slice(0, q);
  let bad = false;
  const parts = path.split('/').filter(Boolean).map((p) => {
    try { return decodeURIComponent(p); } catch (e) { bad = true; return p; }
  });
  return { parts, params: new URLSearchParams(q < 0 ? '' : raw.slice(q + 1)), bad, path };
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

const NUMBER = /^[0-9]{1,18}$/;
const DOTS = (p) => p === '.' || p === '..';

// What a route's ids must look like; a route that fails says "not found" instead of asking the server for
// something else (an id with "../" in it would otherwise reach another URL).
function routeProblem(route) {
  const [p0, p1, p2, p3] = route.parts;
  const n = route.parts.length;
  if (route.bad) return 'the address is not valid percent-encoding';
  switch (p0) {
    case 'task':
    case 'review':
      return n === 2 && NUMBER.test(p1) ? null : `a task id is a number (from the Tasks page), not “${route.parts.slice(1).join('/')}”`;
    case 'run':
      if (!(n >= 2 && NUMBER.test(p1))) return `a run id is a number (from the Runs page), not “${route.parts.slice(1).join('/')}”`;
      if (n === 2) return null;
      return n === 4 && p2 === 'task' && !DOTS(p3) ? null : `“${route.parts.slice(2).join('/')}” is not a task of run ${p1}`;
    case 'dataset':
      return n >= 3 && !route.parts.slice(1).some(DOTS) ? null : `“${route.parts.slice(1).join('/')}” is not a dataset id (<namespace>/<id>)`;
    default:
      return route.parts.some(DOTS) ? 'the address holds “.” or “..” segments' : null;
  }
}

function RouteNotFound({ route, why }) {
  return html`<section class="page not-found" data-testid="not-found"><h2>Not found: #/${route.path}</h2>
    <p class="muted">${why}.</p><p><a href="#/explore">Explore</a> · <a href="#/tasks">Tasks</a> · <a href="#/runs">Runs</a></p></section>`;
}

function Page({ route, info }) {
  const [p0, p1, p2, p3] = route.parts;
  const why = routeProblem(route);
  if (why) return html`<${RouteNotFound} route=${route} why=${why} />`;
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
    default: return html`<${RouteNotFound} route=${route} why=${`there is no page “${p0}”`} />`;
  }
}

// A page that throws shows its error in place; the shell, the navigation and every other page keep working
// (the boundary is keyed by the route, so the next address starts afresh).
class PageBoundary extends Component {
  constructor() {
    super();
    this.state = { error: null };
  }
  componentDidCatch(error) {
    this.setState({ error });
  }
  render() {
    if (this.state.error) {
      return html`<${ErrorBox} error=${{ message: String(this.state.error.message || this.state.error) }} title="This page failed (the other pages still work)" />`;
    }
    return this.props.children;
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
      ${info.data ? html`<${PageBoundary} key=${route.path}><${Page} route=${route} info=${info.data} /><//>` : null}
    </main>
  </div>`;
}

const root = document.getElementById('app');
root.textContent = '';  // the "Loading…" line of index.html
render(html`<${App} />`, root);
