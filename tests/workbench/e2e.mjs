// The workbench end to end in headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core from
// npm): builds the demo lake and index, records three runs (oracle, baseline, and the llm agent against the
// loopback OpenAI-protocol model when its binary is given), starts `lakeqa ui`, then as a user:
//   search with a facet, open a dataset and a file, run SQL;
//   compose a two-hop task from scratch (a failing fact shown inline, then both facts run and chained),
//   rewrite the question with a leakage warning and fix it;
//   set the review policy, review as two people (one an adjudicator) and accept the task;
//   export it (validate + verify in the UI), then `lakeqa tasks verify` the file from the shell;
//   open a run and reach a trace event in three clicks, and put two runs side by side;
// and what must never lose an annotator's work or mislead: typing bursts at 0–5 ms intervals in a fact
// editor and in the SQL console under a result table, a 100 KB paste, reload mid-edit, Runs and Back, two
// tabs saving one task (merged field by field, mine kept, the saved one taken), hostile run URLs, the
// scored answer of a "183 pound" row beside its raw answer, EM and lenient.
// Every page is screenshotted into --shots. Exit 77 (skipped) only when chromium is not installed; a missing
// playwright-core or demo raw data (both installed by scripts/setup) is a failure.
// Usage: node e2e.mjs --lakeqa <bin> --shots <dir> [--model-server <demo_model_server bin>] [--keep]
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const arg = (name, dflt) => {
  const i = process.argv.indexOf('--' + name);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const LAKEQA = path.resolve(arg('lakeqa', path.join(root, 'build/debug/lakeqa')));
const SHOTS = path.resolve(arg('shots', path.join(os.tmpdir(), 'lakeqa-ui-shots')));
const MODEL_SERVER = arg('model-server', '');
const KEEP = process.argv.includes('--keep');
const DEPS = process.env.LAKEQA_DEPS_DIR || path.join(root, '.deps');
const CHROMIUM = process.env.LAKEQA_CHROMIUM || ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p));
const SOURCE = path.join(DEPS, 'demo-src/source');

function skip(why) {
  console.log('SKIP: ' + why);
  process.exit(77);
}
if (!CHROMIUM) skip('chromium is not installed (scripts/setup installs it)');
// Everything else the test needs is installed by scripts/setup, so its absence is a failure, not a skip.
function fail(why) {
  console.error('FAIL: ' + why);
  process.exit(1);
}
if (!fs.existsSync(path.join(DEPS, 'ui/playwright-core/index.mjs'))) fail('playwright-core is missing from .deps/ui (run scripts/setup)');
if (!fs.existsSync(path.join(SOURCE, 'datagov'))) fail('the demo raw data is missing from .deps/demo-src (run scripts/setup)');
const { chromium } = await import(path.join(DEPS, 'ui/playwright-core/index.mjs'));

const t0 = Date.now();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lakeqa-ui-e2e-'));
fs.chmodSync(work, 0o755);  // the code sandbox's unprivileged user must reach the sessions
fs.mkdirSync(SHOTS, { recursive: true });
const children = [];
const log = (m) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)}s] ${m}`);

function lakeqa(args, env = {}) {
  const r = spawnSync(LAKEQA, args, { encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`lakeqa ${args.join(' ')} exited ${r.status}:\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}

function lakeqaAsync(args, env = {}) {
  return new Promise((resolve, reject) => {
    const p = spawn(LAKEQA, args, { env: { ...process.env, ...env } });
    let out = '', err = '';
    p.stdout.on('data', (d) => { out += d; });
    p.stderr.on('data', (d) => { err += d; });
    p.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`lakeqa ${args.join(' ')} exited ${code}:\n${err}`))));
  });
}

function cleanup() {
  for (const c of children) { try { c.kill('SIGTERM'); } catch (e) { /* gone */ } }
  if (!KEEP) fs.rmSync(work, { recursive: true, force: true });
}

const lake = path.join(work, 'lake'), index = path.join(work, 'index'), runs = path.join(work, 'runs');
let browser;
try {
  // ---- the demo lake, its index and three runs ---------------------------------------------------------
  lakeqa(['lake', 'build', '--source', 'datagov:' + path.join(SOURCE, 'datagov'), '--out', lake, '--strict', '-q', '--json']);
  lakeqa(['lake', 'build', '--source', 'dir:' + path.join(SOURCE, 'wikipedia'), '--namespace', 'wikipedia', '--out', lake, '--strict', '-q', '--json']);
  lakeqa(['index', 'build', '--lake', lake, '--index', index, '-q', '--json']);
  log('lake and index built');
  const tasks = path.join(work, 'tasks');
  for (const k of ['k-1-d-1', 'k-2-d-1']) {
    fs.mkdirSync(path.join(tasks, k), { recursive: true });
    for (const f of ['task_1.json', 'task_2.json']) fs.copyFileSync(path.join(root, 'demo/tasks', k, f), path.join(tasks, k, f));
  }
  const runArgs = (agent, extra = []) => ['run', '--agent', agent, '--tasks', tasks, '--lake', lake, '--index', index,
    '--out', path.join(runs, agent), '--parallel', '2', '-q', ...extra];
  const recorded = [lakeqaAsync(runArgs('oracle')), lakeqaAsync(runArgs('baseline'))];
  const withLlm = Boolean(MODEL_SERVER) && fs.existsSync(MODEL_SERVER);
  if (withLlm) {
    const srv = spawn(MODEL_SERVER, [], { stdio: ['ignore', 'pipe', 'ignore'] });
    children.push(srv);
    const url = await new Promise((resolve) => srv.stdout.once('data', (d) => resolve(String(d).trim())));
    recorded.push(lakeqaAsync(runArgs('llm', ['--model', 'openai:gpt-5-mini', '--base-url', url])));
  }
  await Promise.all(recorded);
  for (const agent of fs.readdirSync(runs)) lakeqa(['eval', '--run', path.join(runs, agent), '--tasks', tasks, '--json']);
  // A run whose answer EM scores after cleaning: "183 pound" against the gold "183 pound" is EM no (the
  // harness keeps the one number, "183"), lenient yes. Its predictions are written as `lakeqa run` writes
  // them; `lakeqa eval` scores it.
  const weightTasks = path.join(work, 'weight-tasks', 'k-1-d-1');
  fs.mkdirSync(weightTasks, { recursive: true });
  fs.writeFileSync(path.join(weightTasks, 'w183.json'), JSON.stringify({
    question_id: 'W183', question: 'How much does the Texas capital weigh?', answer: '183 pound',
    nodes: { 1: { source: 'wikipedia/Texas/content.txt', fact: "answer = '183 pound'", subquestion: 'What does it weigh?', answer: '183 pound' } },
    datasets_used: ['wikipedia/Texas/content.txt'],
    reasoning_hops: [{ hop: 1, node_ids: [1], reasoning: ['Node 1: its weight.'], answer: '183 pound' }],
  }));
  const weightRun = path.join(runs, 'weight');
  fs.mkdirSync(path.join(weightRun, 'traces'), { recursive: true });
  fs.writeFileSync(path.join(weightRun, 'run.json'), JSON.stringify({ agent: 'replay', tasks: path.dirname(weightTasks) }));
  fs.writeFileSync(path.join(weightRun, 'predictions.jsonl'), JSON.stringify({ task_id: 'W183', raw_answer: '183 pound', answer: '183 pound', status: 'answered', turns: 1 }) + '\n');
  lakeqa(['eval', '--run', weightRun, '--tasks', path.dirname(weightTasks), '--json']);
  log(`runs recorded and scored: ${fs.readdirSync(runs).join(', ')}`);

  // ---- the workbench --------------------------------------------------------------------------------------
  const ui = spawn(LAKEQA, ['ui', '--index', index, '--lake', lake, '--project', path.join(work, 'project.sqlite'),
    '--runs', runs, '--listen', '127.0.0.1:0', '--sessions-dir', path.join(work, 'ui-work'), '--json'],
  { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(ui);
  let uiErr = '';
  ui.stderr.on('data', (d) => { uiErr += d; });
  const started = await new Promise((resolve, reject) => {
    let buf = '';
    ui.stdout.on('data', (d) => {
      buf += d;
      try { resolve(JSON.parse(buf)); } catch (e) { /* more to come */ }
    });
    ui.on('close', (code) => reject(new Error(`lakeqa ui exited ${code}: ${uiErr}`)));
  });
  const base = started.url;
  log('workbench at ' + base);

  // A fresh profile folder per run (playwright passes it as --user-data-dir).
  browser = await chromium.launchPersistentContext(path.join(work, 'chromium-profile'), {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1360, height: 900 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  const page = browser.pages()[0] || await browser.newPage();
  page.setDefaultTimeout(30000);
  const problems = [];
  page.on('pageerror', (e) => problems.push('page error: ' + e.message));
  // An API answer of 400, 404 or 409 is part of a flow here (conflicts, refused ids); Chromium logs each one.
  const expected = /Failed to load resource: the server responded with a status of (400|404|409)/;
  page.on('console', (m) => { if (m.type() === 'error' && !expected.test(m.text())) problems.push('console: ' + m.text()); });
  // A live check still on its way when the page reloads or navigates is aborted by the browser: not a problem.
  page.on('requestfailed', (r) => {
    const aborted = (r.failure() || {}).errorText === 'net::ERR_ABORTED' && new URL(r.url()).pathname.startsWith('/api/');
    if (!aborted) problems.push('request failed: ' + r.url() + ' ' + JSON.stringify(r.failure()));
  });
  page.on('response', (r) => { if (r.status() >= 400 && !r.url().includes('/api/')) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
  const shot = async (name) => {
    // From the top, so that the sticky bars sit where they belong in a full-page picture; cut at 1,600 px
    // so that a long list does not make a picture of megabytes.
    await page.evaluate(() => window.scrollTo(0, 0));
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.screenshot({ path: path.join(SHOTS, name + '.png'), fullPage: true,
      clip: { x: 0, y: 0, width: 1360, height: Math.min(height, 1600) } });
  };
  const setCode = async (locator, code) => {
    await locator.locator('.cm-content').waitFor();
    await locator.evaluate((el, c) => el.cmView.dispatch({ changes: { from: 0, to: el.cmView.state.doc.length, insert: c } }), code);
  };
  const setName = async (name) => {
    if (await page.getByTestId('who-name').count()) await page.locator('.who button.link').click();
    await page.getByTestId('who-input').fill(name);
    await page.getByTestId('who-save').click();
    await page.getByTestId('who-name').filter({ hasText: name }).waitFor();
  };

  // A frozen renderer never answers: every step that could meet one is raced against a clock.
  const withTimeout = (p, ms, what) => {
    let timer;
    return Promise.race([p, new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms (the tab froze)`)), ms); })])
      .finally(() => clearTimeout(timer));
  };
  const responsive = (pg, what) => withTimeout(pg.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(() => r(true), 0)))), 5000, what);
  const editorText = (loc) => loc.evaluate((el) => el.cmView.state.doc.toString());
  // Bursts of keys 0–5 ms apart at the end of an editor: the editor and the page must keep every key.
  const typeBursts = async (pg, editor, what) => {
    await editor.locator('.cm-content').click();
    await pg.keyboard.press('Control+End');
    let typed = '';
    for (const delay of [0, 1, 2, 3, 4, 5, 0, 8, 0]) {
      const burst = `k${delay}abcdefgh`;
      await withTimeout(pg.keyboard.type(burst, { delay }), 15000, `${what}: typing ${delay} ms apart`);
      typed += burst;
    }
    await responsive(pg, what);
    return typed;
  };
  // The workbench API from the page itself (its headers), for checking what was saved.
  const apiGet = (pg, pathname) => pg.evaluate(async (p) => {
    const r = await fetch(p, { headers: { 'X-Lakeqa-Client': 'workbench' } });
    return { status: r.status, body: await r.json() };
  }, pathname);
  const dialogs = [];
  const acceptDialogs = (pg) => pg.on('dialog', (d) => { dialogs.push(d.type()); d.accept().catch(() => {}); });
  acceptDialogs(page);

  await page.goto(base);
  await setName('alice');
  const placeholder = await page.getByTestId('search-input').getAttribute('placeholder');
  if (!placeholder.includes('"phrases"')) throw new Error('search placeholder: ' + placeholder);

  // ---- explore: search with a facet, open a dataset and a file, run SQL ------------------------------------
  await page.getByTestId('search-input').fill('airports');
  await page.getByTestId('search-button').click();
  await page.getByTestId('hit').first().waitFor();
  await page.getByTestId('facet-namespace-datagov').check();
  await page.waitForFunction(() => location.hash.includes('namespace=datagov'));
  await page.getByTestId('result-count').waitFor();
  const metas = await page.locator('[data-testid=hit] .hit-meta').allInnerTexts();
  if (!metas.length || metas.some((t) => t.includes('wikipedia'))) throw new Error('the namespace facet did not filter: ' + metas.join(' | '));
  await shot('explore');
  await page.getByTestId('hit-title').filter({ hasText: /airport/i }).first().click();
  await page.getByTestId('dataset-page').waitFor();
  await page.getByTestId('file-link').filter({ hasText: 'rows.txt' }).click();
  await page.getByTestId('first-rows').waitFor();
  await page.getByTestId('column-types').waitFor();
  await shot('dataset');
  await page.getByTestId('open-sql').click();
  await page.getByTestId('sandbox-files').locator('button').filter({ hasText: 'rows.txt' }).waitFor();
  await setCode(page.getByTestId('sql-editor'),
    "SELECT state, COUNT(*) AS airports FROM 'datagov/airports/files/rows.txt' GROUP BY state ORDER BY airports DESC LIMIT 8");
  await page.getByTestId('sql-run').click();
  await page.getByTestId('sql-table').locator('th').filter({ hasText: 'airports' }).waitFor();
  await shot('sql');
  // Typing bursts with the result table showing: every key kept, the tab answering, the statement runs.
  const sqlEditor = page.getByTestId('sql-editor');
  const sqlBefore = await editorText(sqlEditor);
  await page.keyboard.press('Control+End');
  const sqlTyped = await typeBursts(page, sqlEditor, 'SQL console');
  const sqlNow = await editorText(sqlEditor);
  if (sqlNow !== sqlBefore + sqlTyped) throw new Error(`SQL console lost keys: ${JSON.stringify(sqlNow)}`);
  await setCode(sqlEditor, sqlBefore + ' -- after a burst');
  await page.keyboard.press('Control+Enter');
  await page.getByTestId('sql-table').waitFor();
  // A failing statement keeps DuckDB's lines: the caret sits under the place it points at, in monospace.
  await setCode(sqlEditor, "SELECT state,\n  COUNT(*) AS n\nFROM 'datagov/airports/files/rows.txt'\nGROUP BY stat");
  await page.getByTestId('sql-run').click();
  const sqlError = page.getByTestId('sql-error').locator('pre');
  await sqlError.waitFor();
  const errorLook = await sqlError.evaluate((el) => ({ text: el.innerText, ws: getComputedStyle(el).whiteSpace, font: getComputedStyle(el).fontFamily }));
  if (!errorLook.text.includes('\n') || !/monospace|Mono|Menlo|Consolas/.test(errorLook.font) || !errorLook.ws.startsWith('pre'))
    throw new Error('the SQL error lost its lines: ' + JSON.stringify(errorLook));
  // DuckDB's caret sits in the column of what it points at ("stat") in the "LINE 4:" line above it.
  const lines = errorLook.text.split('\n');
  const at = lines.findIndex((l) => /^\s+\^/.test(l));
  if (at < 1 || lines[at].indexOf('^') !== lines[at - 1].indexOf('stat') || !lines[at - 1].startsWith('LINE'))
    throw new Error('the caret does not point at the column: ' + JSON.stringify(lines));
  await shot('sql-error');
  await page.getByTestId('nav-browse').click();
  await page.getByTestId('prefix-list').waitFor();
  await page.locator('[data-testid=prefix-list] a').filter({ hasText: 'wikipedia/' }).click();
  await page.waitForFunction(() => location.hash.includes('prefix=wikipedia'));
  await page.locator('[data-testid=prefix-list] li').nth(3).waitFor();
  await shot('browse');
  // A search of stop words only says why it finds nothing.
  await page.goto(base + '#/explore?q=' + encodeURIComponent('the of and'));
  await page.getByTestId('search-note').filter({ hasText: 'stop word' }).waitFor();
  log('explore done');

  // ---- compose a two-hop task from scratch ----------------------------------------------------------------
  await page.getByTestId('nav-tasks').click();
  await page.getByTestId('policy-form').waitFor();
  await page.getByTestId('policy-min').fill('2');
  await page.getByTestId('policy-adjudicators').fill('carol');
  await page.getByTestId('policy-save').click();
  await page.locator('.policy .ok').waitFor();
  await page.getByTestId('new-task').click();
  await page.getByTestId('compose').waitFor();
  const node1 = page.getByTestId('node-1');
  // The empty source field names a file of the lake being served.
  const sourceHint = (await node1.getByTestId('node-source').getAttribute('placeholder')).replace(/^e\.g\. /, '');
  if (!fs.existsSync(path.join(lake, sourceHint))) throw new Error('the source placeholder names no file of this lake: ' + sourceHint);
  await node1.getByTestId('node-source').fill('wikipedia/Georgia/content.txt');
  await setCode(node1.getByTestId('node-fact'),
    "import re\ntext = open(local_path).read()\nanswer = re.search(r'The state capital is ([^,]+),', text).group(1)\n");
  await node1.getByTestId('node-subquestion').fill('What is the capital of Georgia?');
  await node1.getByTestId('node-run').click();
  await node1.getByTestId('run-ok').waitFor();
  const a1 = await node1.getByTestId('node-answer').inputValue();
  if (a1 !== 'Atlanta') throw new Error(`node 1 answered "${a1}", expected Atlanta`);
  // "Datasets holding Atlanta": each hit's parts stay apart (no "…Game logstart the next node here").
  await node1.getByTestId('node-suggest').click();
  const hit = page.getByTestId('suggest-hit').first();
  await hit.waitFor();
  const hitText = await hit.innerText();
  if (/\S(start the next node here)/.test(hitText)) throw new Error('a suggestion runs its text together: ' + JSON.stringify(hitText));
  await page.getByTestId('suggest').getByRole('button', { name: 'close' }).click();
  await page.getByTestId('add-node').click();
  const node2 = page.getByTestId('node-2');
  await node2.getByTestId('node-source').fill('datagov/airports/files/rows.txt');
  // First a fact with a bug: its error is shown inline and the task stays as it was.
  await setCode(node2.getByTestId('node-fact'),
    "import pandas as pd\ndf = pd.read_csv(local_path)\nanswer = str(int(((df['town'] == '<node_1 answer>') & (df['state'] == 'GA')).sum()))\n");
  await node2.getByTestId('node-subquestion').fill('How many airports are in <node_1 answer>, GA?');
  await node2.getByTestId('node-run').click();
  await node2.getByTestId('run-error').filter({ hasText: 'KeyError' }).waitFor();
  await shot('compose-fact-error');
  await page.getByTestId('saved').waitFor();
  const versionOf = async () => Number((await page.getByTestId('task-version').innerText()).replace(/\D+/g, ''));
  const beforeFix = await versionOf();
  await setCode(node2.getByTestId('node-fact'),
    "import pandas as pd\ndf = pd.read_csv(local_path)\nanswer = str(int(((df['city'] == '<node_1 answer>') & (df['state'] == 'GA')).sum()))\n");
  await node2.getByTestId('node-run').click();
  await node2.getByTestId('run-ok').waitFor();
  const a2 = await node2.getByTestId('node-answer').inputValue();
  if (a2 !== '4') throw new Error(`node 2 answered "${a2}", expected 4`);
  // The fixed code and the answer it gave are one new version (a save before the run and one after made two).
  await page.getByTestId('saved').waitFor();
  if ((await versionOf()) !== beforeFix + 1) throw new Error(`one fact run made ${(await versionOf()) - beforeFix} versions`);
  await page.getByTestId('kdn').filter({ hasText: 'k = 2' }).waitFor();
  // Running a fact again that gives the answer the node has changes nothing: no new version.
  const versionBefore = await page.getByTestId('task-version').innerText();
  await node1.getByTestId('node-run').click();
  await node1.getByTestId('node-run').filter({ hasText: 'Run fact' }).waitFor();
  await page.getByTestId('saved').waitFor();
  const versionAfter = await page.getByTestId('task-version').innerText();
  if (versionAfter !== versionBefore) throw new Error(`a fact run that changed nothing made a version: ${versionBefore} → ${versionAfter}`);
  await page.getByTestId('final-answer').fill('4');
  // The rewrite leaks the intermediate answer and a file name; the check says so; the fix clears it.
  await page.getByTestId('question').fill('How many airports in Atlanta are listed in rows.txt? Your response should be in the format [Answer].');
  await page.getByTestId('leakage').filter({ hasText: 'Atlanta' }).waitFor();
  await page.getByTestId('leakage').filter({ hasText: 'rows.txt' }).waitFor();
  await shot('compose-leakage');
  await page.getByTestId('question').fill('How many airports does the airports table list in the capital city of Georgia? Your response should be in the format [Answer].');
  await page.getByTestId('leakage-clear').waitFor();
  await page.getByTestId('save').click();
  await page.getByTestId('saved').waitFor();
  await page.getByTestId('findings-clear').waitFor();
  await shot('compose');
  const taskUrl = page.url();
  log('task composed');

  // ---- review by two people, one an adjudicator ------------------------------------------------------------
  await page.getByTestId('send-review').click();
  await page.getByTestId('task-status').filter({ hasText: 'in review' }).waitFor();
  const review = async (name) => {
    await setName(name);
    await page.goto(taskUrl.replace('#/task/', '#/review/'));
    await page.getByTestId('review-page').waitFor();
    for (const k of ['1', '2']) {
      await page.getByTestId(`sound-${k}-yes`).check();
      await page.getByTestId(`complete-${k}-yes`).check();
    }
    await page.getByTestId('chain-yes').check();
    await page.getByTestId('natural-yes').check();
    await page.getByTestId('no-leakage-yes').check();
    await page.getByTestId('verdict-accept').check();
    await page.getByTestId('submit-review').click();
    await page.getByTestId('review-recorded').waitFor();
  };
  // The author's review would not count: the page says so before she records one.
  await page.goto(taskUrl.replace('#/task/', '#/review/'));
  await page.getByTestId('author-note').waitFor();
  const versions = new Set((await page.getByTestId('review-page').innerText()).match(/version \d+/g));
  if (versions.size !== 1) throw new Error('the review page shows more than one version number: ' + [...versions].join(', '));
  await review('bob');
  await page.getByTestId('review-state').filter({ hasText: 'adjudicator' }).waitFor();
  await review('carol');
  await page.getByTestId('task-status').filter({ hasText: 'accepted' }).waitFor();
  await shot('review');
  log('task reviewed and accepted');

  // ---- export, then tasks verify from the shell --------------------------------------------------------
  await page.goto(taskUrl);
  await page.getByTestId('compose').waitFor();
  await page.getByTestId('export').click();
  await page.getByTestId('export-result').waitFor({ timeout: 90000 });
  await page.getByTestId('verify-summary').filter({ hasText: '2/2 nodes grounded' }).waitFor();
  const exported = (await page.getByTestId('export-path').innerText()).trim();
  await shot('export');
  const verify = JSON.parse(lakeqa(['tasks', 'verify', exported, '--lake', lake, '--index', index, '--json']));
  if (verify.tasks_grounded !== 1 || verify.nodes_grounded !== 2) throw new Error('tasks verify: ' + JSON.stringify(verify));
  const file = JSON.parse(fs.readFileSync(exported, 'utf8'));
  if (!exported.includes('/k-2-d-1/') || file.answer !== '4' || Object.keys(file.nodes).length !== 2) throw new Error('exported file: ' + exported);
  await page.getByTestId('nav-tasks').click();
  await page.getByTestId('reviewer-counts').locator('td').filter({ hasText: 'carol' }).waitFor();
  await shot('tasks');
  log('exported and verified: ' + exported);

  // ---- an annotator's work is never lost -------------------------------------------------------------------
  await page.getByTestId('nav-tasks').click();
  await page.getByTestId('new-task').click();
  await page.getByTestId('compose').waitFor();
  const draftUrl = page.url();
  const draftId = draftUrl.split('#/task/')[1];
  // A task with errors cannot be exported: Export is off, and the reason is beside it, on screen.
  const blocked = page.getByTestId('export-blocked');
  await blocked.waitFor();
  if (!(await page.getByTestId('export').isDisabled())) throw new Error('Export is enabled on a task that export refuses');
  const box = await blocked.boundingBox();
  if (!box || box.y + box.height > 900) throw new Error('the export refusal is off screen: ' + JSON.stringify(box));
  const d1 = page.getByTestId('node-1');
  await d1.getByTestId('node-source').fill('wikipedia/Georgia/content.txt');
  const factTyped = await typeBursts(page, d1.getByTestId('node-fact'), 'fact editor');
  if ((await editorText(d1.getByTestId('node-fact'))) !== factTyped) throw new Error('the fact editor lost keys');
  await d1.getByTestId('node-subquestion').fill('What is the capital of Georgia, typed before a reload?');
  await page.getByTestId('question').fill('A question typed before a reload');
  await page.getByTestId('dirty').waitFor();
  // Reload mid-edit: the browser asks first; then every edit comes back from this browser's draft.
  const checkRestored = async (pg, what) => {
    await pg.getByTestId('notice-restored').waitFor();
    const n = pg.getByTestId('node-1');
    const got = [await editorText(n.getByTestId('node-fact')), await n.getByTestId('node-subquestion').inputValue(),
      await pg.getByTestId('question').inputValue()];
    const want = [factTyped, 'What is the capital of Georgia, typed before a reload?', 'A question typed before a reload'];
    if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`${what}: edits not restored: ${JSON.stringify(got)}`);
    await pg.getByTestId('dirty').waitFor();
  };
  await page.waitForTimeout(300);
  const asked = dialogs.length;
  await page.reload();
  await page.getByTestId('compose').waitFor();
  if (!dialogs.slice(asked).includes('beforeunload')) throw new Error('no beforeunload prompt with unsaved edits: ' + JSON.stringify(dialogs));
  await checkRestored(page, 'after a reload');
  await shot('compose-restored');
  // Runs, then Back: still there.
  await page.getByTestId('nav-runs').click();
  await page.getByTestId('run-row').first().waitFor();
  await page.goBack();
  await page.getByTestId('compose').waitFor();
  await checkRestored(page, 'after Runs and Back');
  await page.getByTestId('save').click();
  await page.getByTestId('saved').waitFor();
  // A 100 KB paste into a second node's editor, then more keys: all kept, saved, and read back.
  await page.getByTestId('add-node').click();
  const d2 = page.getByTestId('node-2');
  const big = Array.from({ length: 1000 }, (_, i) => `# line ${String(i).padStart(4, '0')} ${'x'.repeat(86)}\n`).join('');
  await d2.locator('.cm-content').click();
  await withTimeout(d2.getByTestId('node-fact').locator('.cm-content').evaluate((el, text) => {
    const data = new DataTransfer();
    data.setData('text/plain', text);
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, big), 15000, 'pasting 100 KB');
  await responsive(page, 'after the paste');
  const afterPaste = await typeBursts(page, d2.getByTestId('node-fact'), 'fact editor after a paste');
  const pasted = await editorText(d2.getByTestId('node-fact'));
  if (pasted !== big + afterPaste) throw new Error(`the paste came out as ${pasted.length} characters, not ${big.length + afterPaste.length}`);
  await page.getByTestId('save').click();
  await page.getByTestId('saved').waitFor();
  const savedBig = await apiGet(page, '/api/tasks/' + draftId);
  if (savedBig.body.task.nodes[1].fact !== pasted) throw new Error('the saved fact is not what the editor held');
  log('drafts: bursts, reload, Runs and Back, 100 KB paste');

  // Two tabs, one task. Round 1: both change the question, tab B also a subquestion; B merges field by field.
  const tabB = await browser.newPage();
  tabB.on('pageerror', (e) => problems.push('tab B page error: ' + e.message));
  acceptDialogs(tabB);
  await tabB.goto(draftUrl);
  await tabB.getByTestId('compose').waitFor();
  await page.getByTestId('question').fill('A: the question as tab A saved it');
  await page.getByTestId('save').click();
  await page.getByTestId('saved').waitFor();
  await tabB.getByTestId('question').fill('B: the question as tab B wrote it');
  await tabB.getByTestId('node-1').getByTestId('node-subquestion').fill('B: a subquestion only tab B changed');
  await tabB.getByTestId('save').click();
  const conflictB = tabB.getByTestId('conflict');
  await conflictB.waitFor();
  const row = (pg, field) => pg.locator(`[data-testid=conflict-row][data-field="${field}"]`);
  await row(tabB, 'question').waitFor();
  if (!(await row(tabB, 'node 1 subquestion').getByTestId('take-mine').isChecked())) throw new Error('a field only tab B changed is not preset to B');
  if (!(await tabB.getByTestId('conflict-merge').isDisabled())) throw new Error('merge is possible before the field both changed is chosen');
  await conflictB.screenshot({ path: path.join(SHOTS, 'compose-conflict.png') });
  await row(tabB, 'question').getByTestId('take-saved').check();
  await tabB.getByTestId('conflict-merge').click();
  await tabB.getByTestId('notice-merged').waitFor();
  await tabB.getByTestId('save').click();
  await tabB.getByTestId('saved').waitFor();
  let now = (await apiGet(tabB, '/api/tasks/' + draftId)).body.task;
  if (now.question !== 'A: the question as tab A saved it' || now.nodes[0].subquestion !== 'B: a subquestion only tab B changed')
    throw new Error('the merge saved ' + JSON.stringify([now.question, now.nodes[0].subquestion]));
  // Round 2: tab A, now behind, edits and saves; the conflict survives a reload (the draft keeps A's edits);
  // A keeps all of hers.
  await page.getByTestId('question').fill('A: kept over the merge');
  await page.getByTestId('save').click();
  await page.getByTestId('conflict').waitFor();
  await page.waitForTimeout(300);
  await page.reload();
  await page.getByTestId('conflict').waitFor();
  await row(page, 'question').waitFor();
  await page.getByTestId('conflict-keep-mine').click();
  await page.getByTestId('notice-mine').waitFor();
  await page.getByTestId('save').click();
  await page.getByTestId('saved').waitFor();
  now = (await apiGet(page, '/api/tasks/' + draftId)).body.task;
  if (now.question !== 'A: kept over the merge') throw new Error('keeping mine saved ' + now.question);
  // Round 3: tab B, now behind, edits; it takes the saved version, and its editor shows it.
  await tabB.getByTestId('question').fill('B: set aside');
  await tabB.getByTestId('save').click();
  await conflictB.waitFor();
  await tabB.getByTestId('conflict-take-saved').click();
  await tabB.getByTestId('notice-saved').waitFor();
  await tabB.getByTestId('saved').waitFor();
  if ((await tabB.getByTestId('question').inputValue()) !== 'A: kept over the merge') throw new Error('taking the saved version did not show it');
  if ((await editorText(tabB.getByTestId('node-2').getByTestId('node-fact'))) !== pasted) throw new Error('the saved fact code is not in tab B');
  await tabB.close();
  // A tab closed with unsaved edits leaves its draft; the next tab that opens the task is offered it.
  const tabC = await browser.newPage();
  acceptDialogs(tabC);
  await tabC.goto(draftUrl);
  await tabC.getByTestId('compose').waitFor();
  await tabC.getByTestId('final-answer').fill('C: typed in a tab that was then closed');
  await tabC.waitForTimeout(400);
  await Promise.all([tabC.waitForEvent('close'), tabC.close({ runBeforeUnload: true })]);
  await page.reload();
  await page.getByTestId('orphan-draft').waitFor();
  await page.getByTestId('orphan-draft').getByRole('button', { name: 'Compare and restore' }).click();
  await row(page, 'answer').getByTestId('take-mine').waitFor();
  await page.getByTestId('conflict-keep-mine').click();
  await page.getByTestId('save').click();
  await page.getByTestId('saved').waitFor();
  if ((await page.getByTestId('final-answer').inputValue()) !== 'C: typed in a tab that was then closed') throw new Error('the closed tab\'s draft was not restored');
  if (await page.getByTestId('orphan-draft').count()) throw new Error('the restored draft is still offered');
  log('two tabs: merged, mine kept, saved taken; a closed tab\'s draft restored');

  // ---- read runs: a trace event in three clicks, then two runs side by side ------------------------------
  await page.goto(base);
  await page.getByTestId('search-input').waitFor();
  await page.getByTestId('nav-runs').click();                                   // click 1
  await page.getByTestId('run-row').first().waitFor();
  await shot('runs');
  await page.getByTestId('run-row').filter({ hasText: withLlm ? 'llm' : 'oracle' }).click();  // click 2
  await page.getByTestId('task-row').first().click();                          // click 3
  await page.getByTestId('trace-event').first().waitFor();
  await shot('run-trace');
  await page.goBack();
  await page.getByTestId('run-tasks').waitFor();
  await page.getByTestId('filter-hops').selectOption('2');
  await page.waitForFunction(() => location.hash.includes('hops=2'));
  await shot('run');
  await page.getByTestId('task-row').first().click();
  await page.getByTestId('compare-select').selectOption({ index: 1 });
  await page.getByTestId('side-by-side').locator('[data-testid=task-trace]').nth(1).waitFor();
  await shot('compare');
  log('runs read');

  // The "183 pound" row: the raw answer, what EM scored ("183"), the gold, EM no, lenient yes.
  await page.getByTestId('nav-runs').click();
  await page.getByTestId('run-row').filter({ hasText: 'weight' }).click();
  const weightRow = page.locator('[data-testid=task-row][data-task="W183"]');
  await weightRow.waitFor();
  const cells = {};
  for (const c of ['answer', 'scored', 'gold', 'em', 'lenient']) cells[c] = (await weightRow.getByTestId('row-' + c).innerText()).trim();
  if (JSON.stringify(cells) !== JSON.stringify({ answer: '183 pound', scored: '183', gold: '183 pound', em: 'no', lenient: 'yes' }))
    throw new Error('the 183 pound row: ' + JSON.stringify(cells));
  await weightRow.click();
  await page.getByTestId('trace-scored').filter({ hasText: '183' }).waitFor();
  if ((await page.getByTestId('trace-lenient').innerText()).trim().split(/\s/)[0] !== 'yes') throw new Error('the trace page does not say lenient yes');
  await shot('run-scored');

  // Hostile and unknown run URLs: "not found", no request leaves the API's routes, the app goes on.
  const requested = [];
  page.on('request', (r) => requested.push(new URL(r.url()).pathname));
  for (const bad of ['#/run/../../etc', '#/run/..%2F..%2Ftasks%2F1', '#/run/0/task/..%2F..%2Fx', '#/run/0/task/NO-SUCH-TASK', '#/run/999', '#/task/999999', '#/review/abc', '#/dataset/..%2F..']) {
    await page.goto(base + bad);
    await page.getByTestId('not-found').waitFor();
  }
  const strays = requested.filter((p) => p.startsWith('/api/') && !/^\/api\/(info|runs|tasks)(\/|$)/.test(p));
  if (strays.length) throw new Error('hostile ids reached other URLs: ' + strays.join(', '));
  if (requested.some((p) => p.split('/').some((seg) => seg === '..' || seg === '.') || p === '/tasks/1/tasks'))
    throw new Error('an id went out unescaped: ' + requested.join(', '));
  await page.getByTestId('nav-runs').click();
  await page.getByTestId('run-row').first().waitFor();
  await page.getByTestId('nav-tasks').click();
  await page.getByTestId('task-list').waitFor();
  log('hostile URLs refused, the app goes on');

  if (problems.length) throw new Error('the page reported problems:\n' + problems.join('\n'));
  log(`PASS (screenshots in ${SHOTS})`);
  await browser.close();
  cleanup();
  process.exit(0);
} catch (e) {
  console.error('FAIL: ' + (e.stack || e));
  try {
    if (browser) {
      const pages = browser.pages();
      if (pages.length) await pages[0].screenshot({ path: path.join(SHOTS, 'failure.png'), fullPage: true });
      await browser.close();
    }
  } catch (e2) { /* best effort */ }
  console.error('work folder kept: ' + work);
  for (const c of children) { try { c.kill('SIGTERM'); } catch (e3) { /* gone */ } }
  process.exit(1);
}
