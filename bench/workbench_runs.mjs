// Times for bench/workbench_runs.sh: report.html vs the workbench's run page and trace, in one headless
// Chromium (Debian's, driven by playwright-core from .deps/ui). Prints {report_html_ms, workbench_run_ms,
// workbench_trace_ms, api_rows_ms, chromium} as JSON, each the median of 3.
// Usage: node bench/workbench_runs.mjs <workbench url> <report.html> <tasks>
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [url, report, tasks] = process.argv.slice(2);
const DEPS = process.env.LAKEQA_DEPS_DIR || path.join(root, '.deps');
const { chromium } = await import(path.join(DEPS, 'ui/playwright-core/index.mjs'));
const rows = Math.min(Number(tasks), 2000);

const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'lakeqa-bench-profile-'));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.LAKEQA_CHROMIUM || '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1360, height: 900 },
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
const page = browser.pages()[0] || await browser.newPage();
page.setDefaultTimeout(120000);
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function time(fn) {
  const out = [];
  for (let i = 0; i < 3; i++) out.push(await fn());
  return median(out);
}

const reportMs = await time(async () => {
  await page.goto('about:blank');
  const t = Date.now();
  await page.goto('file://' + path.resolve(report), { waitUntil: 'commit' });
  await page.waitForSelector('[data-ready="1"]', { state: 'attached' });
  return Date.now() - t;
});

// The page needs the user's name only for changes; reading runs needs none.
const runMs = await time(async () => {
  await page.goto('about:blank');
  const t = Date.now();
  await page.goto(url + '#/run/0', { waitUntil: 'commit' });
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=task-row]').length >= n, rows);
  return Date.now() - t;
});

const traceMs = await time(async () => {
  await page.goto(url + '#/run/0');
  await page.locator('[data-testid=task-row]').nth(rows - 1).waitFor();
  const t = Date.now();
  await page.locator('[data-testid=task-row]').nth(Math.floor(rows / 2)).click();
  await page.locator('[data-testid=trace-event]').first().waitFor();
  return Date.now() - t;
});

const apiMs = await time(async () => page.evaluate(async (u) => {
  const t = performance.now();
  const r = await fetch(u + '../api/runs/0/tasks', { headers: { 'X-Lakeqa-Client': 'bench' } });
  await r.json();
  return performance.now() - t;
}, url));

const version = browser.browser() ? browser.browser().version() : 'unknown';
await browser.close();
fs.rmSync(profile, { recursive: true, force: true });
console.log(JSON.stringify({ report_html_ms: reportMs, workbench_run_ms: runMs, workbench_trace_ms: traceMs, api_rows_ms: apiMs, chromium: version }));
