import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { freePort } from '../common/free-port';

// autocannon ships no types; this is the part of its result this bench reads
interface CannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Cannon = (opts: { url: string; connections: number; duration: number; headers?: Record<string, string> }) => Promise<CannonResult>;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- CommonJS module without types
const autocannon = require('autocannon') as Cannon;

/**
 * `npm run bench:api [-- --connections 50 --duration 10]`
 *
 * The real API process (`node dist/main.js`, production mode, info logging to a file as in
 * production) on a scratch PostgreSQL database (TEST_DATABASE_URL's server, dropped afterwards),
 * and beside it a bare Node http + pg server doing the same reads by hand (bench-api-bare.ts).
 * Each target gets a warm-up, then `--duration` seconds at `--connections` connections
 * (autocannon, in this process). Printed: req/s, p50/p99 latency, and the ratio to the bare server's
 * two reads. Every answer must be 2xx (404 for the floor): otherwise the line says so.
 * `--only <text>` runs only the targets whose label contains it. BENCH_PROFILE=<dir> makes the API write a CPU profile (.cpuprofile) there.
 */
function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i > 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} must be a positive number`);
  return v;
}

function launch(script: string, env: Record<string, string>, logFile: string): ChildProcess {
  const out = fs.openSync(logFile, 'a');
  return spawn(process.execPath, [path.join(__dirname, '..', script)], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', out, out],
  });
}

async function until(what: string, probe: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

interface Target {
  label: string;
  url: string;
  headers?: Record<string, string>;
  expect: 'ok' | 'not-found';
}

async function main(): Promise<void> {
  const connections = arg('connections', 50);
  const duration = arg('duration', 10);
  const adminUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `fr_bench_api_${Date.now()}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${name}`;
  const version = (await admin.query('SHOW server_version')).rows[0].server_version as string;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fr-bench-api-'));
  const logFile = path.join(dataDir, 'api.log');
  let api: ChildProcess | undefined;
  let bare: ChildProcess | undefined;
  const db = new Client({ connectionString: dbUrl.toString() });
  try {
    const [apiPort, barePort] = [await freePort(), await freePort()];
    const base = `http://127.0.0.1:${apiPort}`;
    api = launch(
      'main.js',
      {
        NODE_ENV: 'production',
        PORT: String(apiPort),
        HOST: '127.0.0.1',
        APP_URL: base,
        DATABASE_URL: dbUrl.toString(),
        DATA_DIR: dataDir,
        FILES_SIGNING_SECRET: randomBytes(24).toString('hex'),
        AUTH_JWT_SECRET: randomBytes(24).toString('hex'),
        AUTH_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
        LOG_LEVEL: 'info',
        // BENCH_PROFILE=<dir>: the API writes a CPU profile there when it stops (open it in Chrome DevTools)
        ...(process.env.BENCH_PROFILE ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(process.env.BENCH_PROFILE)}` } : {}),
      },
      logFile,
    );
    await until('the API to answer /api/health', async () => (await fetch(`${base}/api/health`)).ok);

    const signUp = await fetch(`${base}/api/auth/sign-up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        full_name: 'Bench Person',
        email: `bench-${Date.now()}@example.com`,
        password: 'violet-harbour-lantern-42',
        age_confirmed: true,
      }),
    });
    const session = (await signUp.json()) as { access_token: string; user: { id: string } };
    if (!signUp.ok) throw new Error(`sign-up answered ${signUp.status}: ${JSON.stringify(session)}`);
    const claims = JSON.parse(Buffer.from(session.access_token.split('.')[1], 'base64url').toString()) as { sid: string; sub: string };

    // a full first page of completed generations, as a person who has used the product has
    await db.connect();
    for (let i = 0; i < 30; i++) {
      const id = randomUUID();
      await db.query(
        `INSERT INTO user_generations (id, user_id, type, status, cost, category, prompt, metadata, tier, stage, polls, max_polls, provider,
                                       result_key, created_at, completed_at)
         VALUES ($1, $2, 'image', 'completed', 1, 'dresses', 'a summer dress', $3, 'free', 'complete', 2, 100, 'preview',
                 $4, now() - ($5 || ' minutes')::interval, now() - ($5 || ' minutes')::interval)`,
        [id, claims.sub, JSON.stringify({ outfit_id: 'dress-1', scene_id: null }), `users/${claims.sub}/results/${id}.jpg`, String(i)],
      );
    }

    bare = launch('scripts/bench-api-bare.js', { DATABASE_URL: dbUrl.toString(), PORT: String(barePort), POOL_SIZE: '10' }, logFile);
    const bareBase = `http://127.0.0.1:${barePort}`;
    await until('the bare server', async () => (await fetch(`${bareBase}/trivial`)).ok);

    // as a browser asks: compressed when the API compresses
    const auth = { authorization: `Bearer ${session.access_token}`, 'accept-encoding': 'br, gzip' };
    const targets: Target[] = [
      { label: 'GET /api/me', url: `${base}/api/me`, headers: auth, expect: 'ok' },
      { label: 'GET /api/generations', url: `${base}/api/generations`, headers: auth, expect: 'ok' },
      { label: 'GET /api/catalog (signed in)', url: `${base}/api/catalog`, headers: auth, expect: 'ok' },
      { label: 'API floor: unknown route (404)', url: `${base}/api/no-such-route`, expect: 'not-found' },
      { label: 'bare: SELECT 1', url: `${bareBase}/trivial`, expect: 'ok' },
      {
        label: 'bare: the reads of /api/me + /api/generations',
        url: `${bareBase}/reads?sid=${claims.sid}&uid=${claims.sub}`,
        expect: 'ok',
      },
    ];
    process.stdout.write(
      `bench:api  ${connections} connections, ${duration} s per target after a 3 s warm-up; ${os.cpus().length} CPU(s) ${os.cpus()[0]?.model ?? ''}\n` +
        `  PostgreSQL ${version}; API = node dist/main.js (NODE_ENV=production, LOG_LEVEL=info) on Node ${process.version}\n\n` +
        `  ${'target'.padEnd(50)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)}  vs bare reads\n`,
    );
    const results: Array<{ target: Target; r: CannonResult }> = [];
    // --only <text>: just the targets whose label contains it (and the bare reads, the reference)
    const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
    for (const target of targets.filter((t, i) => !only || t.label.includes(only) || i === targets.length - 1)) {
      await autocannon({ url: target.url, connections, duration: 3, headers: target.headers });
      const r = await autocannon({ url: target.url, connections, duration, headers: target.headers });
      results.push({ target, r });
    }
    const bareReads = results.at(-1)!.r.requests.average;
    let ok = true;
    for (const { target, r } of results) {
      const wrong = target.expect === 'ok' ? r.non2xx : 0;
      const problem = wrong || r.errors || r.timeouts ? `  <-- ${wrong} wrong answers, ${r.errors} errors, ${r.timeouts} timeouts` : '';
      ok &&= !problem;
      process.stdout.write(
        `  ${target.label.padEnd(50)} ${r.requests.average.toFixed(0).padStart(8)} ${String(r.latency.p50).padStart(7)} ${String(r.latency.p99).padStart(7)}` +
          `  ${((100 * r.requests.average) / bareReads).toFixed(0).padStart(4)}%${problem}\n`,
      );
    }
    if (!ok) process.exitCode = 1;
  } finally {
    await stop(bare);
    await stop(api);
    await db.end().catch(() => undefined);
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    if (process.exitCode) process.stderr.write(`API log: ${logFile}\n`);
    else fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
