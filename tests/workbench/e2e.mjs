// The workbench end to end in headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core from
// npm): builds the demo lake and index, records three runs (oracle, baseline, and the llm agent against the
// loopback OpenAI-protocol model when its binary is given), starts `lakeqa ui`, then as a user:
//   search with a facet, open a dataset and a file, run SQL;
//   compose a two-hop task from scratch (a failing fact shown inline, then both facts run and chained),
//   rewrite the question with a leakage warning and fix it;
//   set the review policy, review as two people (one an adjudicator) and accept the task;
//   export it (validate + verify in the UI), then `lakeqa tasks verify` the file from the shell;
//   open a run and reach a trace event in three clicks, and put two runs side by side.
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
  page.on('console', (m) => { if (m.type() === 'error') problems.push('console: ' + m.text()); });
  page.on('requestfailed', (r) => problems.push('request failed: ' + r.url()));
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

  await page.goto(base);
  await setName('alice');

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
  await page.getByTestId('nav-browse').click();
  await page.getByTestId('prefix-list').waitFor();
  await page.locator('[data-testid=prefix-list] a').filter({ hasText: 'wikipedia/' }).click();
  await page.waitForFunction(() => location.hash.includes('prefix=wikipedia'));
  await page.locator('[data-testid=prefix-list] li').nth(3).waitFor();
  await shot('browse');
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
  await node1.getByTestId('node-source').fill('wikipedia/Georgia/content.txt');
  await setCode(node1.getByTestId('node-fact'),
    "import re\ntext = open(local_path).read()\nanswer = re.search(r'The state capital is ([^,]+),', text).group(1)\n");
  await node1.getByTestId('node-subquestion').fill('What is the capital of Georgia?');
  await node1.getByTestId('node-run').click();
  await node1.getByTestId('run-ok').waitFor();
  const a1 = await node1.getByTestId('node-answer').inputValue();
  if (a1 !== 'Atlanta') throw new Error(`node 1 answered "${a1}", expected Atlanta`);
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
  await setCode(node2.getByTestId('node-fact'),
    "import pandas as pd\ndf = pd.read_csv(local_path)\nanswer = str(int(((df['city'] == '<node_1 answer>') & (df['state'] == 'GA')).sum()))\n");
  await node2.getByTestId('node-run').click();
  await node2.getByTestId('run-ok').waitFor();
  const a2 = await node2.getByTestId('node-answer').inputValue();
  if (a2 !== '4') throw new Error(`node 2 answered "${a2}", expected 4`);
  await page.getByTestId('kdn').filter({ hasText: 'k = 2' }).waitFor();
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
