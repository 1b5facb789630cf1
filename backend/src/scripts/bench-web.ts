import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import { Client } from 'pg';
import { chromium } from 'playwright-core';
import { createApiApp } from '../bootstrap/api';
import { REPO_ROOT } from '../bootstrap/static-ui';
import { freePort } from '../common/free-port';
import { loadConfig } from '../config/app-config';

/**
 * `npm run bench:web [-- --runs 3 --mobile-runs 1 --preset desktop|mobile --budget-kb 200 --min-score 90 (95 with --preset mobile) --click-cpu 6 --url http://host:port]`
 *
 * The built user app (frontend/dist) served by the real API process as `npm start` serves it
 * (NODE_ENV=production; a scratch database on TEST_DATABASE_URL's server, default 127.0.0.1:5432,
 * dropped afterwards; no Redis: queue jobs in process). Its landing page `/` in the system Chromium
 * (CHROMIUM_PATH, default /usr/bin/chromium):
 *  1. the JavaScript requested before the first contentful paint: the resource timing entries of
 *     scripts (the entry script, its modulepreloads, lazy chunks already asked for) whose startTime is
 *     before FCP and before the page's load (after it, a pre-rendered page only prefetches the app's
 *     modules without running them); each file's bytes gzipped here with zlib level 9 (the budget), next to what crossed
 *     the wire (the server's own brotli/gzip, encodedBodySize);
 *  2. Lighthouse 12 (performance and accessibility), the median of --runs runs with the --preset
 *     config (default desktop: the gate), then --mobile-runs runs of the mobile config (simulated slow
 *     4G and 4x CPU slowdown), printed for information and not gated unless --preset mobile. Nothing
 *     needs the internet: these categories make no outside request and Chromium's background
 *     networking is off. The gated median run's report: test-output/bench-web/lighthouse.html and .json.
 *  3. a click on "Log in" while the app starts, at 7 moments, on a CPU slowed --click-cpu times
 *     (default 6; 0 skips it): how long until the click is answered on screen (Event Timing), for
 *     information.
 * With --url, an already running server (e.g. `npm start`) is measured instead.
 * Exits 1 when the JavaScript budget or a gated score is missed.
 */
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-domain-reliability',
  '--no-first-run',
  '--no-default-browser-check',
];
const OUT_DIR = path.join(REPO_ROOT, 'test-output', 'bench-web');

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
}

function numberArg(name: string, fallback: number): number {
  const v = Number(arg(name, String(fallback)));
  if (!Number.isFinite(v) || v < 0) throw new Error(`--${name} must be a number`);
  return v;
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

interface ScriptEntry {
  url: string;
  startTime: number;
  /** bytes on the wire (after the server's content encoding), from resource timing */
  encodedBodySize: number;
}

interface FirstPaint {
  fcp: number;
  before: ScriptEntry[];
  after: ScriptEntry[];
  contentEncodings: Record<string, string>;
}

/** Loads `/` in Chromium and returns the script resources requested before / after the first contentful paint. */
async function measureFirstPaint(base: string): Promise<FirstPaint> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROME_FLAGS.filter((f) => !f.startsWith('--headless')),
  });
  try {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const contentEncodings: Record<string, string> = {};
    page.on('response', (res) => {
      contentEncodings[res.url()] = res.headers()['content-encoding'] ?? 'none';
    });
    await page.goto(`${base}/`, { waitUntil: 'load' });
    await page.waitForLoadState('networkidle');
    // FCP may be reported a little after `load` on a busy machine
    await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0, undefined, { timeout: 15_000 });
    const entries = await page.evaluate(() => {
      const fcp = performance.getEntriesByName('first-contentful-paint')[0].startTime;
      // resource timing entries (the DOM's PerformanceResourceTiming; Node's lib types lack the fields we read)
      const scripts = (
        performance.getEntriesByType('resource') as unknown as {
          name: string;
          initiatorType: string;
          startTime: number;
          encodedBodySize: number;
        }[]
      )
        .filter((e) => new URL(e.name).pathname.endsWith('.js') || e.initiatorType === 'script')
        .map((e) => ({
          url: e.name,
          startTime: e.startTime,
          encodedBodySize: e.encodedBodySize,
        }));
      const navigation = performance.getEntriesByType('navigation' as never)[0] as unknown as { loadEventEnd: number } | undefined;
      return { fcp, scripts, loadEnd: navigation?.loadEventEnd ?? Infinity };
    });
    await context.close();
    return {
      fcp: entries.fcp,
      // a pre-rendered page prefetches the app's modules after its load (src/boot.ts) without running
      // them: those are not JavaScript the first paint waited for, even when the paint comes later
      before: entries.scripts.filter((s) => s.startTime < entries.fcp && s.startTime < entries.loadEnd),
      after: entries.scripts.filter((s) => s.startTime >= entries.fcp || s.startTime >= entries.loadEnd),
      contentEncodings,
    };
  } finally {
    await browser.close();
  }
}

interface ClickTrial {
  /** when the click came, after the app began to start (ms of the page's clock) */
  after: number;
  /** the Event Timing API's duration of the click's interaction: input to the next paint after its handlers (ms) */
  answered: number | null;
  /** the dialog (early or the app's) was on screen after it */
  dialog: boolean;
}

/**
 * A click on "Log in" while the app starts, on a CPU slowed `rate` times: the page loaded and left
 * alone until the app starts on its own (html[data-app="starting"], 10 s after the load in the
 * browser's idle time), then the click `delay` ms later, with the mouse. Answered: how long from
 * the press to the next paint after its handlers (the Event Timing API, as Chrome's INP counts it),
 * the longest of the interaction's pointerdown, pointerup and click.
 */
async function clickWhileStarting(base: string, rate: number, delay: number): Promise<ClickTrial> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROME_FLAGS.filter((f) => !f.startsWith('--headless')),
  });
  try {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    await page.addInitScript(() => {
      const w = globalThis as unknown as { __events: { name: string; duration: number; interactionId: number }[] };
      w.__events = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as unknown as { name: string; duration: number; interactionId: number }[])
          w.__events.push({ name: e.name, duration: e.duration, interactionId: e.interactionId });
      }).observe({ type: 'event', durationThreshold: 16, buffered: true } as never);
    });
    await page.goto(`${base}/`, { waitUntil: 'load' });
    const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log in', exact: true });
    const box = (await link.boundingBox())!;
    await page.locator('html[data-app]').waitFor({ state: 'attached', timeout: 60_000 });
    const started = await page.evaluate(() => performance.now());
    if (delay > 0) await page.waitForTimeout(delay);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.up();
    const at = await page.evaluate(() => performance.now());
    const dialog = await page
      .getByRole('dialog', { name: 'Log in' })
      .waitFor({ timeout: 30_000 })
      .then(() => true)
      .catch(() => false);
    // the entries of the click's interaction come once its next paint is done
    await page.waitForTimeout(500);
    const events = await page.evaluate(
      () => (globalThis as unknown as { __events: { name: string; duration: number; interactionId: number }[] }).__events,
    );
    const clicks = events.filter((e) => ['pointerdown', 'pointerup', 'click', 'mousedown', 'mouseup'].includes(e.name));
    await context.close();
    return { after: Math.max(0, at - started), answered: clicks.length ? Math.max(...clicks.map((e) => e.duration)) : 16, dialog };
  } finally {
    await browser.close();
  }
}

/** Prints the first-click trials; true when every click was answered within `budgetMs`. */
async function firstClickSection(base: string, rate: number, budgetMs: number): Promise<boolean> {
  const trials: ClickTrial[] = [];
  for (const delay of [0, 150, 300, 600, 1000, 1500, 2500]) trials.push(await clickWhileStarting(base, rate, delay));
  const answered = trials.map((t) => t.answered ?? Infinity).sort((a, b) => a - b);
  const worst = answered.at(-1)!;
  const median = answered[Math.floor((answered.length - 1) / 2)];
  const ok = worst <= budgetMs && trials.every((t) => t.dialog);
  process.stdout.write(
    `  A click on "Log in" while the app starts, ${rate}x CPU slowdown, 390 px (Event Timing: press to next paint; Event Timing does not report under 16 ms):
` +
      trials
        .map(
          (t) =>
            `    ${`${t.after.toFixed(0)} ms after the start:`.padEnd(28)} answered in ${t.answered === null ? '?' : `${t.answered.toFixed(0)} ms`}, dialog ${t.dialog ? 'open' : 'NOT OPEN'}`,
        )
        .join('\n') +
      `\n    median ${median.toFixed(0)} ms, worst ${worst.toFixed(0)} ms; goal ${budgetMs} ms each: ${ok ? 'met' : 'not met'}\n`,
  );
  return ok;
}

interface LighthouseFigures {
  performance: number;
  accessibility: number;
  metrics: Record<'fcp' | 'lcp' | 'tbt' | 'cls' | 'si', string>;
  failing: string[];
  opportunities: string[];
  html: string;
  json: string;
}

/** One Lighthouse run against `url` in a fresh Chromium launched by chrome-launcher. */
async function runLighthouse(url: string, preset: 'mobile' | 'desktop'): Promise<LighthouseFigures> {
  const { default: lighthouse, desktopConfig } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
  try {
    const result = await lighthouse(
      url,
      { port: chrome.port, output: ['html', 'json'], logLevel: 'error', onlyCategories: ['performance', 'accessibility'] },
      preset === 'desktop' ? desktopConfig : undefined,
    );
    if (!result) throw new Error('Lighthouse returned no result');
    const lhr = result.lhr;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const audit = (id: string) => lhr.audits[id];
    const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const failing = Object.values(lhr.categories)
      .flatMap((c) => c.auditRefs.filter((r) => r.weight > 0).map((r) => lhr.audits[r.id]))
      .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'notApplicable')
      .map((a) => `${a.id} (${a.score}${a.displayValue ? `, ${a.displayValue}` : ''})`);
    const opportunities = Object.values(lhr.audits)
      .filter((a) => a.details?.type === 'opportunity' && a.score !== null && a.score < 0.9)
      .map((a) => `${a.id}${a.displayValue ? ` (${a.displayValue})` : ''}`);
    return {
      performance: score('performance'),
      accessibility: score('accessibility'),
      metrics: {
        fcp: audit('first-contentful-paint').displayValue ?? '?',
        lcp: audit('largest-contentful-paint').displayValue ?? '?',
        tbt: audit('total-blocking-time').displayValue ?? '?',
        cls: audit('cumulative-layout-shift').displayValue ?? '?',
        si: audit('speed-index').displayValue ?? '?',
      },
      failing,
      opportunities,
      html: result.report[0],
      json: result.report[1],
    };
  } finally {
    chrome.kill();
  }
}

async function main(): Promise<void> {
  const preset = arg('preset', 'desktop') as Preset;
  const options: Options = {
    runs: Math.max(1, Math.floor(numberArg('runs', 3))),
    mobileRuns: Math.floor(numberArg('mobile-runs', 1)),
    preset,
    budgetKb: numberArg('budget-kb', 200),
    // the goals: 95 on a phone (the mobile preset), 90 on the desktop preset
    minScore: numberArg('min-score', preset === 'mobile' ? 95 : 90),
    clickRate: numberArg('click-cpu', 6),
  };
  if (options.preset !== 'mobile' && options.preset !== 'desktop') throw new Error('--preset must be desktop or mobile');
  if (!fs.existsSync(CHROMIUM))
    throw new Error(`Chromium not found at ${CHROMIUM}. Install it with: apt-get install -y chromium (or set CHROMIUM_PATH).`);
  const url = arg('url', '');
  if (url) {
    if (!(await measure(url.replace(/\/+$/, ''), `an already running server`, options))) process.exitCode = 1;
    return;
  }
  if (!fs.existsSync(path.join(REPO_ROOT, 'frontend', 'dist', 'index.html')))
    throw new Error('frontend/dist is missing: run `npm run build -w frontend`');

  const adminUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `fr_bench_web_${Date.now()}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${name}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fr-bench-web-'));
  const port = await freePort();
  const config = loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL: dbUrl.toString(),
    FILES_SIGNING_SECRET: randomUUID() + randomUUID(),
    AUTH_JWT_SECRET: randomUUID() + randomUUID(),
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    APP_URL: `http://127.0.0.1:${port}`,
    SERVE_UI: 'true',
    LOG_LEVEL: 'warn',
  });
  const app = await createApiApp(config, { logger: process.env.BENCH_DEBUG ? undefined : false, shutdownHooks: false });
  let ok: boolean | undefined;
  try {
    await app.listen(port, '127.0.0.1');
    ok = await measure(config.appUrl, 'frontend/dist served by the API, NODE_ENV=production', options);
  } finally {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
  if (!ok) process.exitCode = 1;
}

type Preset = 'mobile' | 'desktop';
interface Options {
  runs: number;
  mobileRuns: number;
  preset: Preset;
  budgetKb: number;
  minScore: number;
  /** the CPU slowdown of the first-click trials; 0: none */
  clickRate: number;
}

const presetLabel = (preset: Preset) =>
  preset === 'mobile'
    ? 'mobile preset (simulated slow 4G, 4x CPU slowdown, 412 px)'
    : 'desktop preset (simulated 10 Mbit/s, no CPU slowdown, 1350 px)';

/** Runs Lighthouse `runs` times and prints the median run (by performance score); true when both scores reach minScore. */
async function lighthouseSection(base: string, preset: Preset, runs: number, minScore: number, gated: boolean): Promise<boolean> {
  const results: LighthouseFigures[] = [];
  for (let i = 0; i < runs; i++) {
    // Lighthouse now and then loses the trace of a load (NO_NAVSTART, NO_FCP on a busy machine): one more try
    results.push(await runLighthouse(`${base}/`, preset).catch(() => runLighthouse(`${base}/`, preset)));
  }
  const sorted = [...results].sort((a, b) => a.performance - b.performance);
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  const met = median.performance >= minScore && median.accessibility >= minScore;
  if (gated) {
    fs.mkdirSync(OUT_DIR, { recursive: true });
    fs.writeFileSync(path.join(OUT_DIR, 'lighthouse.html'), median.html);
    fs.writeFileSync(path.join(OUT_DIR, 'lighthouse.json'), median.json);
  }
  process.stdout.write(
    `  Lighthouse ${presetLabel(preset)}, ${gated ? 'gated' : 'for information, not gated'}; median of ${runs} run(s):\n` +
      `    performance ${median.performance}, accessibility ${median.accessibility} (all runs: ${results.map((r) => `${r.performance}/${r.accessibility}`).join(', ')})\n` +
      `    FCP ${median.metrics.fcp}, LCP ${median.metrics.lcp}, TBT ${median.metrics.tbt}, CLS ${median.metrics.cls}, Speed Index ${median.metrics.si}\n` +
      `    minimum ${minScore} each: ${met ? 'met' : gated ? 'MISSED  <-- PROBLEM' : 'not met'}\n` +
      (median.failing.length ? `    audits below 0.9: ${median.failing.join('; ')}\n` : '') +
      (median.opportunities.length ? `    opportunities: ${median.opportunities.join('; ')}\n` : '') +
      (gated ? `    report: ${path.relative(REPO_ROOT, path.join(OUT_DIR, 'lighthouse.html'))} (and .json)\n` : ''),
  );
  return met;
}

/** Prints the figures for `${base}/`; true when the budget and the gated scores are met. */
async function measure(base: string, served: string, options: Options): Promise<boolean> {
  process.stdout.write(
    `bench:web  landing page ${base}/ (${served}), Chromium ${CHROMIUM}, ${os.cpus().length} CPU(s), load average ${os.loadavg()[0].toFixed(1)}\n`,
  );

  // 1. JavaScript before the first contentful paint
  const paint = await measureFirstPaint(base);
  let gzipTotal = 0;
  let wireTotal = 0;
  let rawTotal = 0;
  const rows: string[] = [];
  for (const s of paint.before) {
    const res = await fetch(s.url, { headers: { 'accept-encoding': 'identity' } });
    const bytes = Buffer.from(await res.arrayBuffer());
    const gz = gzipSync(bytes, { level: 9 }).length;
    gzipTotal += gz;
    wireTotal += s.encodedBodySize;
    rawTotal += bytes.length;
    rows.push(
      `    ${new URL(s.url).pathname.padEnd(40)} ${kb(bytes.length).padStart(9)} raw ${kb(gz).padStart(9)} gzip-9 ${kb(s.encodedBodySize).padStart(9)} on the wire (${paint.contentEncodings[s.url] ?? '?'}, requested at ${s.startTime.toFixed(0)} ms)`,
    );
  }
  const jsOk = gzipTotal <= options.budgetKb * 1000;
  process.stdout.write(
    `  JavaScript requested before the first contentful paint (FCP ${paint.fcp.toFixed(0)} ms, 390 px, no throttling):\n` +
      rows.join('\n') +
      '\n' +
      `    total: ${paint.before.length} files, ${kb(rawTotal)} raw, ${kb(gzipTotal)} gzip (zlib level 9 of each file, computed here), ${kb(wireTotal)} on the wire\n` +
      `    budget ${options.budgetKb} kB gzip: ${jsOk ? 'met' : 'MISSED  <-- PROBLEM'}\n` +
      `    requested after the first paint or the load (not counted): ${paint.after.map((s) => path.basename(new URL(s.url).pathname)).join(', ') || 'none'}\n`,
  );

  // 2. Lighthouse: the gated preset, then the mobile one for information
  const scoresOk = await lighthouseSection(base, options.preset, options.runs, options.minScore, true);
  if (options.preset === 'desktop' && options.mobileRuns > 0) {
    await lighthouseSection(base, 'mobile', options.mobileRuns, options.minScore, false).catch((error: unknown) => {
      process.stdout.write(
        `  Lighthouse mobile preset, for information: no result (${error instanceof Error ? error.message : String(error)})\n`,
      );
    });
  }
  // 3. a click while the app starts, on a slow phone's CPU (for information)
  if (options.clickRate > 0) await firstClickSection(base, options.clickRate, 100);
  return jsOk && scoresOk;
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
