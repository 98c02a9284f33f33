// Unsaved edits of a task, kept in this browser's localStorage until they are saved (docs/ui.md, "Drafts").
//
// A draft is one tab's working copy of one task: {task, question_id, who, base_version, base, doc, at},
// where `base` is the saved content the edits started from (version `base_version`) and `doc` the edited
// content. Keys are per project file, task and tab ("lakeqa.draft|<project>|<task>|<tab>"), so two tabs
// editing one task never overwrite each other's drafts; the tab id lives in sessionStorage, which a reload
// keeps. Each open tab stamps "lakeqa.alive|<tab>" every few seconds: a draft whose tab is gone (closed,
// crashed) is offered to the next tab that opens the task instead of being lost.

const PREFIX = 'lakeqa.draft|';
const ALIVE = 'lakeqa.alive|';
const TAB_KEY = 'lakeqa.tab';
const BEAT_MS = 3000;
const DEAD_MS = 12000;

function newTabId() {
  return Date.now().toString(36) + Math.random().toString(36).slice(2, 8);
}

let tabId = sessionStorage.getItem(TAB_KEY);
if (!tabId) {
  tabId = newTabId();
  sessionStorage.setItem(TAB_KEY, tabId);
}

function beat() {
  try { localStorage.setItem(ALIVE + tabId, String(Date.now())); } catch (e) { /* storage full: drafts say so */ }
}
beat();
setInterval(beat, BEAT_MS);
window.addEventListener('pagehide', () => localStorage.removeItem(ALIVE + tabId));
window.addEventListener('pageshow', beat);

// A duplicated tab starts with a copy of its original's sessionStorage, so with the same tab id: the tab that
// already holds the id answers a newcomer's hello, and the newcomer takes a fresh id.
if (typeof BroadcastChannel === 'function') {
  const nonce = newTabId();
  const channel = new BroadcastChannel('lakeqa.tabs');
  channel.onmessage = (e) => {
    const m = e.data || {};
    if (m.type === 'hello' && m.tab === tabId && m.nonce !== nonce) channel.postMessage({ type: 'taken', nonce: m.nonce });
    if (m.type === 'taken' && m.nonce === nonce) {
      localStorage.removeItem(ALIVE + tabId);
      tabId = newTabId();
      sessionStorage.setItem(TAB_KEY, tabId);
      beat();
    }
  };
  channel.postMessage({ type: 'hello', tab: tabId, nonce });
}

function alive(tab) {
  if (tab === tabId) return true;
  const t = Number(localStorage.getItem(ALIVE + tab));
  return t > 0 && Date.now() - t < DEAD_MS;
}

function key(project, task, tab) {
  return `${PREFIX}${project}|${task}|${tab || tabId}`;
}

function parse(k) {
  try {
    const d = JSON.parse(localStorage.getItem(k));
    return d && typeof d === 'object' && d.doc ? d : null;
  } catch (e) {
    return null;
  }
}

// The editable content of a task: what a save changes and what a draft keeps (no run records or status).
export function content(t) {
  return {
    question_id: t.question_id, question: t.question, answer: t.answer === undefined ? null : t.answer,
    datasets_used: t.datasets_used === undefined ? null : t.datasets_used, hops: t.hops === undefined ? null : t.hops,
    nodes: (t.nodes || []).map((n) => ({
      key: n.key, source: n.source || '', fact: n.fact || '', subquestion: n.subquestion || '',
      answer: n.answer === undefined ? null : n.answer, hop: n.hop || 0, reasoning: n.reasoning || '',
    })),
  };
}

export function sameContent(a, b) {
  return JSON.stringify(content(a)) === JSON.stringify(content(b));
}

// This tab's draft of a task, or null.
export function readDraft(project, task) {
  return parse(key(project, task));
}

// Writes this tab's draft; returns null or the error (a full storage) for the page to show.
export function writeDraft(project, task, draft) {
  try {
    localStorage.setItem(key(project, task), JSON.stringify({ ...draft, tab: tabId, at: new Date().toISOString() }));
    return null;
  } catch (e) {
    return e;
  }
}

export function removeDraft(project, task, tab) {
  localStorage.removeItem(key(project, task, tab));
}

// Drafts of a task left by tabs that are no longer open (newest first).
export function orphanDrafts(project, task) {
  const out = [];
  const head = `${PREFIX}${project}|${task}|`;
  for (let i = 0; i < localStorage.length; i++) {
    const k = localStorage.key(i);
    if (!k || !k.startsWith(head)) continue;
    const tab = k.slice(head.length);
    if (alive(tab)) continue;
    const d = parse(k);
    if (d) out.push({ ...d, tab });
  }
  return out.sort((a, b) => String(b.at).localeCompare(String(a.at)));
}
