import 'reflect-metadata';
import { fork, type ChildProcess } from 'node:child_process';
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { AppModule } from '../app.module';
import { createApiApp } from '../bootstrap/api';
import { freePort } from '../common/free-port';
import { loadConfig } from '../config/app-config';
import { CreditsService } from '../modules/credits/credits.service';
import {
  registerAiProvider,
  type AiProvider,
  type AiProviderName,
  type ProviderInputSpec,
  type ProviderStartInput,
  type ProviderStatus,
} from '../modules/generations/providers';

/**
 * `npm run bench:generations [-- --generations 200 --users 50 --latency-ms 2000 --poll-ms 250 --concurrency 50 --layout split|single]`
 *
 * N generations from U users (each user runs one at a time, as the API allows), against a fake
 * vendor with a fixed latency, through the whole platform: the real API over HTTP, PostgreSQL (a
 * scratch database on TEST_DATABASE_URL's server, dropped afterwards), BullMQ on Redis (REDIS_URL,
 * default redis://127.0.0.1:6379, keys removed afterwards), local storage. Each simulated browser
 * starts a generation and follows its server-sent events until `completed`.
 *
 * Measured per generation: the time from the POST until the browser receives `completed`, minus the
 * vendor's latency = what the platform adds (queueing, polling delay, result storage, credits,
 * events). Two paths: the vendor calls our webhook when done; or it has no webhook and the worker
 * polls (with a shortened poll interval, printed). BENCH_DEBUG=1 shows the app's warnings.
 *
 * Layouts: `split` (the default) runs as production does (docs/architecture.md): an API process and
 * a worker process (each its own Node, forked from this script), with the simulated browsers here in
 * a third; the fake vendor lives in the worker, which starts and reads its jobs. `single` runs the API
 * with the jobs inside it and the browsers in one process (`npm start` without Redis runs so): one
 * event loop then does everything, and its figures measure that loop.
 */
function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i > 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isFinite(v) || v < 0) throw new Error(`--${name} must be a number`);
  return v;
}

function textArg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
}

interface CpuTime {
  /** user + system of every thread (sharp's and libuv's included), ms */
  total: number;
  /** by thread: the event loop, libuv's pool, V8's helpers ..., ms */
  threads: Record<string, number>;
}

/** CPU time this process has used so far. */
function cpuTime(): CpuTime {
  const { user, system } = process.cpuUsage();
  return { total: (user + system) / 1000, threads: threadCpuMs() };
}

/** CPU time of this process's threads so far, in ms, by the thread's name (Linux /proc; empty elsewhere). */
function threadCpuMs(): Record<string, number> {
  const byName: Record<string, number> = {};
  try {
    for (const tid of fs.readdirSync('/proc/self/task')) {
      const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      // the name is in parentheses; after it, utime is the 12th field and stime the 13th
      const name = tid === String(process.pid) ? 'event loop' : threadKind(stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      byName[name] = (byName[name] ?? 0) + (Number(fields[11]) + Number(fields[12])) * 10;
    }
  } catch {
    // not Linux: totals only
  }
  return byName;
}

/** Node's, libuv's and libvips' thread names, grouped. */
function threadKind(name: string): string {
  if (/^libuv/i.test(name)) return 'libuv pool (fs, sharp)';
  if (/^V8 /.test(name)) return 'V8 (GC, compiler)';
  if (/vips/i.test(name)) return 'libvips';
  return name;
}

/** CPU time the whole machine has been busy so far (every core, every process; /proc/stat), in ms; NaN where there is none. */
function machineBusyMs(): number {
  try {
    const [cpu] = fs.readFileSync('/proc/stat', 'utf8').split('\n');
    // user nice system idle iowait irq softirq steal ...: busy = all but idle and iowait, in USER_HZ (1/100 s)
    const ticks = cpu.trim().split(/\s+/).slice(1).map(Number);
    return (ticks.reduce((a, b) => a + b, 0) - ticks[3] - (ticks[4] ?? 0)) * 10;
  } catch {
    return NaN;
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
}

const BENCH_PROVIDER = 'bench-vendor';
const SECRET = 'bench-vendor-webhook-secret';

/** A vendor that finishes every job exactly `latencyMs` after its start; with webhooks it then calls us. */
class BenchVendor implements AiProvider {
  readonly name = BENCH_PROVIDER as unknown as AiProviderName;
  readonly generatesWithAi = true;
  readonly jobs = new Map<string, { doneAt: number }>();
  starts = 0;
  constructor(
    readonly supportsWebhooks: boolean,
    private readonly latencyMs: number,
    private readonly result: Buffer,
  ) {}

  /** it reads no input: anything the upload accepted, sent as stored */
  inputSpec(): ProviderInputSpec {
    return { minSide: 1, maxSide: 4096, acceptsDataUri: false };
  }

  async start(input: ProviderStartInput): Promise<{ jobId: string }> {
    this.starts++;
    const jobId = randomUUID();
    this.jobs.set(jobId, { doneAt: Date.now() + this.latencyMs });
    if (this.supportsWebhooks && input.webhookUrl) {
      const url = input.webhookUrl;
      setTimeout(() => void this.callBack(url, jobId), this.latencyMs).unref();
    }
    return { jobId };
  }

  async status(jobId: string): Promise<ProviderStatus> {
    const job = this.jobs.get(jobId);
    if (!job) return { state: 'failed', reason: 'unknown job' };
    return Date.now() >= job.doneAt
      ? { state: 'completed', result: { buffer: this.result, contentType: 'image/jpeg' } }
      : { state: 'processing' };
  }

  parseWebhook(headers: Record<string, string | string[] | undefined>, rawBody: Buffer): { jobId: string; status: ProviderStatus } | null {
    const given = headers['x-bench-signature'];
    const expected = createHmac('sha256', SECRET).update(rawBody).digest('hex');
    if (typeof given !== 'string' || given.length !== expected.length || !timingSafeEqual(Buffer.from(given), Buffer.from(expected)))
      return null;
    const body = JSON.parse(rawBody.toString('utf8')) as { id: string };
    return { jobId: body.id, status: { state: 'completed', result: { url: 'http://unused.invalid/' } } };
  }

  private async callBack(url: string, jobId: string): Promise<void> {
    const body = JSON.stringify({ id: jobId, status: 'completed' });
    const signature = createHmac('sha256', SECRET).update(body).digest('hex');
    await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-bench-signature': signature }, body }).catch(
      () => undefined,
    );
  }
}

/** An answer of the API as this bench reads it: ids and tokens, nested one or two levels. */
interface ApiBody {
  id: string;
  access_token: string;
  user: { id: string };
  uploads: Array<{ id: string }>;
}

async function api(
  base: string,
  method: string,
  route: string,
  options: { token?: string; json?: unknown; form?: FormData } = {},
): Promise<ApiBody> {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.json ? { 'content-type': 'application/json' } : {}),
    },
    body: options.form ?? (options.json ? JSON.stringify(options.json) : undefined),
  });
  const body = await res.json().catch(() => ({}));
  if (res.status >= 300) throw new Error(`${method} ${route} answered ${res.status}: ${JSON.stringify(body)}`);
  return body as ApiBody;
}

/** Follows a generation's event stream like a browser's EventSource; resolves with the final event's name. */
function followEvents(base: string, id: string, token: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}/api/generations/${id}/events?access_token=${encodeURIComponent(token)}`, (res) => {
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        const match = /event: (completed|failed)\n/.exec(buffer);
        if (match) {
          resolve(match[1]);
          req.destroy();
        }
      });
      res.on('end', () => resolve('closed'));
    });
    req.on('error', (e) => ((e as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(e)));
  });
}

interface PathResult {
  label: string;
  completed: number;
  failed: number;
  errors: string[];
  seconds: number;
  added: number[];
  /** where the added latency goes, from the rows' own timestamps (p50 / p95 ms) */
  stages: string;
  /** CPU ms per generation during the timed run, by process, and of the whole machine */
  cpu: string;
}

type Layout = 'split' | 'single';

/** The platform under test, as the bench drives it: its URL, a few operator-side calls, and its end. */
interface Platform {
  base: string;
  query(sql: string, params?: unknown[]): Promise<Array<Record<string, unknown>>>;
  /** credits for a bench user, through the ledger like an admin's grant */
  credit(userId: string, amount: number): Promise<void>;
  /** how many jobs the fake vendor was asked to start */
  vendorStarts(): Promise<number>;
  /** CPU time each platform process has used so far, in ms, by role: in all (every thread) and on its event loop */
  cpuMs(): Promise<Record<string, CpuTime>>;
  close(): Promise<void>;
}

/** What a forked process of the split layout builds: its role, its environment, its vendor. */
interface ChildSpec {
  role: 'api' | 'worker';
  env: Record<string, string>;
  webhooks: boolean;
  latencyMs: number;
  resultFile: string;
}

interface ChildMessage {
  id?: number;
  op?: 'query' | 'credit' | 'starts' | 'cpu' | 'close';
  args?: unknown[];
  ready?: boolean;
  value?: unknown;
  error?: string;
}

/** The platform's configuration from `env`, with the bench's vendor registered as its AI provider. */
function withBenchVendor(env: Record<string, string>, spec: Omit<ChildSpec, 'role' | 'env'>) {
  const config = loadConfig(env);
  const vendor = new BenchVendor(spec.webhooks, spec.latencyMs, fs.readFileSync(spec.resultFile));
  registerAiProvider(BENCH_PROVIDER, () => vendor);
  config.ai = { ...config.ai!, provider: BENCH_PROVIDER as unknown as 'preview' };
  return { config, vendor };
}

/** A process of the split layout: the API (listening) or the worker, with the bench's vendor registered. */
async function runChild(spec: ChildSpec): Promise<void> {
  const { config, vendor } = withBenchVendor(spec.env, spec);
  const logger = process.env.BENCH_DEBUG ? undefined : false;
  let app: INestApplicationContext;
  if (spec.role === 'api') {
    const api = await createApiApp(config, { logger, shutdownHooks: false });
    await api.listen(config.port, '127.0.0.1');
    app = api;
  } else {
    const worker = await NestFactory.createApplicationContext(AppModule.forRoot(config, 'worker'), { logger });
    await worker.init();
    app = worker;
  }
  const send = (message: ChildMessage) => process.send!(message);
  process.on('message', (message: ChildMessage) => {
    const answer = async (): Promise<unknown> => {
      const args = message.args ?? [];
      switch (message.op) {
        case 'query':
          return app.get(DataSource).query(args[0] as string, args[1] as unknown[]);
        case 'credit':
          await app
            .get(CreditsService)
            .adjust({ userId: args[0] as string, mode: 'add', amount: args[1] as number, reason: 'bench', actorId: args[0] as string });
          return null;
        case 'starts':
          return vendor.starts;
        case 'cpu':
          return cpuTime();
        case 'close':
          await app.close();
          return null;
        default:
          throw new Error(`unknown operation ${String(message.op)}`);
      }
    };
    answer().then(
      (value) => {
        send({ id: message.id, value });
        if (message.op === 'close') process.disconnect();
      },
      (error: unknown) => send({ id: message.id, error: String(error) }),
    );
  });
  send({ ready: true });
}

/** Forks this script as one process of the split layout; resolves once it is up, with a way to call it. */
async function forkChild(
  spec: ChildSpec,
): Promise<{ call(op: NonNullable<ChildMessage['op']>, ...args: unknown[]): Promise<unknown>; child: ChildProcess }> {
  // BENCH_PROFILE=<dir>: each process writes a CPU profile there when it ends
  const profile = process.env.BENCH_PROFILE
    ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PROFILE, '--cpu-prof-name', `${spec.role}-${Date.now()}.cpuprofile`]
    : [];
  const child = fork(__filename, [], {
    env: { ...process.env, BENCH_CHILD: JSON.stringify(spec) },
    execArgv: [...process.execArgv, ...profile],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let nextId = 0;
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the ${spec.role} process ended (code ${code}) before it was up`)));
    child.on('message', (message: ChildMessage) => {
      if (message.ready) return resolve();
      const waiting = message.id === undefined ? undefined : pending.get(message.id);
      if (!waiting) return;
      pending.delete(message.id!);
      if (message.error) waiting.reject(new Error(message.error));
      else waiting.resolve(message.value);
    });
  });
  child.removeAllListeners('exit');
  return {
    child,
    call: (op, ...args) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        child.send({ id, op, args } satisfies ChildMessage);
      }),
  };
}

async function startPlatform(layout: Layout, env: Record<string, string>, vendor: Omit<ChildSpec, 'role' | 'env'>): Promise<Platform> {
  const base = env.APP_URL;
  if (layout === 'split') {
    const api = await forkChild({ role: 'api', env: { ...env, QUEUE_CONSUME_IN_API: 'false' }, ...vendor });
    const worker = await forkChild({ role: 'worker', env, ...vendor });
    return {
      base,
      query: async (sql, params) => (await api.call('query', sql, params)) as Array<Record<string, unknown>>,
      credit: async (userId, amount) => void (await api.call('credit', userId, amount)),
      vendorStarts: async () => (await worker.call('starts')) as number,
      cpuMs: async () => ({ api: (await api.call('cpu')) as CpuTime, worker: (await worker.call('cpu')) as CpuTime }),
      close: async () => {
        await Promise.all([api.call('close'), worker.call('close')]);
      },
    };
  }
  const { config, vendor: fake } = withBenchVendor(env, vendor);
  const app = await createApiApp(config, { logger: process.env.BENCH_DEBUG ? undefined : false, shutdownHooks: false });
  await app.listen(config.port, '127.0.0.1');
  return {
    base,
    query: (sql, params) => app.get(DataSource).query(sql, params),
    credit: (userId, amount) =>
      app
        .get(CreditsService)
        .adjust({ userId, mode: 'add', amount, reason: 'bench', actorId: userId })
        .then(() => undefined),
    vendorStarts: async () => fake.starts,
    cpuMs: async () => ({}), // the platform runs in this process: counted as the browsers' process
    close: () => app.close(),
  };
}

async function runPath(options: {
  label: string;
  layout: Layout;
  webhooks: boolean;
  pollMs: number;
  generations: number;
  users: number;
  latencyMs: number;
  /** generation steps run at once per process (QUEUE_GENERATIONS_CONCURRENCY) */
  concurrency: number;
  databaseUrl: string;
  redisUrl: string;
  resultFile: string;
}): Promise<PathResult & { charged: number; starts: number; balanced: boolean }> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fr-bench-'));
  const prefix = `bench${Date.now().toString(36)}`;
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    DATABASE_URL: options.databaseUrl,
    DB_POOL_SIZE: '30',
    REDIS_URL: options.redisUrl,
    QUEUE_PREFIX: prefix,
    QUEUE_GENERATIONS_CONCURRENCY: String(options.concurrency),
    FILES_SIGNING_SECRET: randomUUID() + randomUUID(),
    AUTH_JWT_SECRET: randomUUID() + randomUUID(),
    AUTH_RATE_LIMIT_IP_MAX: '100000',
    AUTH_RATE_LIMIT_EMAIL_MAX: '100000',
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    APP_URL: `http://127.0.0.1:${port}`,
    SERVE_UI: 'false',
    LOG_LEVEL: 'warn',
    AI_POLL_INTERVAL_MS: String(options.pollMs),
    AI_POLL_MAX_INTERVAL_MS: String(options.pollMs), // checks at a fixed interval: the added latency stays comparable
  };
  const platform = await startPlatform(options.layout, env, {
    webhooks: options.webhooks,
    latencyMs: options.latencyMs,
    resultFile: options.resultFile,
  });
  const base = platform.base;
  try {
    const photo = await sharp({ create: { width: 900, height: 1200, channels: 3, background: '#c9a48a' } })
      .jpeg()
      .toBuffer();
    const people = await Promise.all(
      Array.from({ length: options.users }, async (_, i) => {
        const session = await api(base, 'POST', '/api/auth/sign-up', {
          json: {
            full_name: `Bench ${i}`,
            email: `bench-${i}-${prefix}@example.com`,
            password: 'violet-harbour-lantern-42',
            age_confirmed: true,
          },
        });
        // uploads need a confirmed address: the bench's people opened the link in their mail
        await platform.query(`UPDATE users SET email_verified_at = now() WHERE id = $1`, [session.user.id]);
        await platform.credit(session.user.id, 10_000);
        return { token: session.access_token as string, userId: session.user.id as string, upload: '' };
      }),
    );
    // one photo each, one upload at a time (the API refuses photos beyond its image-work queue with a 503)
    for (const who of people) {
      const form = new FormData();
      form.set('confirm_own_photos', 'true');
      form.set('files', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'me.jpg');
      who.upload = (await api(base, 'POST', '/api/uploads', { token: who.token, form })).uploads[0].id;
    }

    /** One generation as a browser makes it: the start, then its event stream until the end. */
    const generate = async (who: (typeof people)[number]): Promise<void> => {
      const generation = await api(base, 'POST', '/api/generations', {
        token: who.token,
        json: { type: 'image', category: 'bikini', template_id: 'bikini-yellow', scene_id: 'beach-standing', upload_ids: [who.upload] },
      });
      const outcome = await followEvents(base, generation.id, who.token);
      if (outcome !== 'completed') throw new Error(`generation ${generation.id} ended with "${outcome}"`);
    };
    // one generation first, not counted: the process's first result draws the watermark for its
    // size and warms the code paths, as any running server has done long before
    await generate(people[0]);

    const added: number[] = [];
    const errors: string[] = [];
    let completed = 0;
    let failed = 0;
    let next = 0;
    const cpuBefore: Record<string, CpuTime> = { ...(await platform.cpuMs()), browsers: cpuTime() };
    const machineBefore = machineBusyMs();
    const t0 = performance.now();
    await Promise.all(
      people.map(async (who) => {
        // each browser runs its generations one after the other (one running generation per user)
        while (next < options.generations) {
          next++;
          const started = performance.now();
          try {
            await generate(who);
            completed++;
            added.push(performance.now() - started - options.latencyMs);
          } catch (error) {
            failed++;
            errors.push(error instanceof Error ? error.message : String(error));
            break; // this browser stops: its generation may still be running
          }
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    const cpuAfter: Record<string, CpuTime> = { ...(await platform.cpuMs()), browsers: cpuTime() };
    const perGeneration = (ms: number) => ms / Math.max(1, completed);
    const machine = perGeneration(machineBusyMs() - machineBefore);
    let ours = 0;
    const cpu = Object.entries(cpuAfter)
      .map(([role, after]) => {
        const total = perGeneration(after.total - cpuBefore[role].total);
        ours += total;
        const threads = Object.entries(after.threads)
          .map(([name, ms]) => [name, perGeneration(ms - (cpuBefore[role].threads[name] ?? 0))] as const)
          .filter(([, ms]) => ms >= 0.5)
          .sort((a, b) => b[1] - a[1])
          .map(([name, ms]) => `${name} ${ms.toFixed(1)}`);
        return `${role} ${total.toFixed(1)}${threads.length ? ` (${threads.join(', ')})` : ''}`;
      })
      .concat(
        Number.isFinite(machine) ? [`PostgreSQL + Redis + kernel ${(machine - ours).toFixed(1)}; whole machine ${machine.toFixed(1)}`] : [],
      )
      .join(', ');
    const [{ charged }] = await platform.query(
      `SELECT count(*)::int AS charged FROM credit_ledger_entries WHERE kind = 'generation_charge' AND generation_id IN (SELECT id FROM user_generations WHERE provider = $1)`,
      [BENCH_PROVIDER],
    );
    const [{ ok }] = await platform.query(
      `SELECT bool_and(a.subscription_balance = s.sub AND a.purchased_balance = s.pur AND a.held = 0) AS ok FROM credit_accounts a
         JOIN (SELECT user_id, sum(amount) FILTER (WHERE bucket = 'subscription') AS sub, sum(amount) FILTER (WHERE bucket = 'purchased') AS pur
                 FROM credit_ledger_entries GROUP BY user_id) s ON s.user_id = a.user_id`,
    );
    const [stage] = await platform.query(
      `WITH g AS (SELECT extract(epoch FROM submit_started_at - created_at) * 1000 AS queued,
                         extract(epoch FROM completed_at - submit_started_at) * 1000 - $2 AS finishing
                    FROM user_generations WHERE provider = $1 AND completed_at IS NOT NULL)
       SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY queued)) AS q50, round(percentile_cont(0.95) WITHIN GROUP (ORDER BY queued)) AS q95,
              round(percentile_cont(0.5) WITHIN GROUP (ORDER BY finishing)) AS f50, round(percentile_cont(0.95) WITHIN GROUP (ORDER BY finishing)) AS f95 FROM g`,
      [BENCH_PROVIDER, options.latencyMs],
    );
    const stages =
      `created -> submit job started p50 ${stage.q50} / p95 ${stage.q95} ms; ` +
      `submit job started -> completed, minus the vendor's ${options.latencyMs} ms: p50 ${stage.f50} / p95 ${stage.f95} ms`;
    await platform.query(`DELETE FROM users`); // the next path starts from an empty database
    return {
      label: options.label,
      completed,
      failed,
      errors,
      seconds,
      added: added.sort((a, b) => a - b),
      stages,
      cpu,
      charged: charged as number,
      starts: await platform.vendorStarts(),
      balanced: ok === true,
    };
  } finally {
    await platform.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    const redis = new Redis(options.redisUrl);
    let cursor = '0';
    do {
      const [nextCursor, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = nextCursor;
      if (keys.length) await redis.unlink(...keys);
    } while (cursor !== '0');
    await redis.quit();
  }
}

async function main(): Promise<void> {
  const generations = arg('generations', 200);
  const users = arg('users', 50);
  const latencyMs = arg('latency-ms', 2000);
  const pollMs = arg('poll-ms', 250);
  // the platform's own default unless asked otherwise
  const secret = randomUUID() + randomUUID();
  const adminUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const defaults = loadConfig({ DATABASE_URL: adminUrl, FILES_SIGNING_SECRET: secret, AUTH_JWT_SECRET: secret });
  const concurrency = arg('concurrency', defaults.queue.generationsConcurrency);
  const layout = textArg('layout', 'split') as Layout;
  if (layout !== 'split' && layout !== 'single') throw new Error('--layout must be split or single');
  const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  const name = `fr_bench_gen_${Date.now()}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const version = (await admin.query('SHOW server_version')).rows[0].server_version as string;
  try {
    const result = await sharp({ create: { width: 1024, height: 1400, channels: 3, background: '#2a9d8f' } })
      .jpeg()
      .toBuffer();
    const resultFile = path.join(os.tmpdir(), `fr-bench-result-${process.pid}.jpg`);
    fs.writeFileSync(resultFile, result);
    const common = { generations, users, latencyMs, concurrency, layout, databaseUrl: url.toString(), redisUrl, resultFile };
    process.stdout.write(
      `bench:generations  ${generations} generations from ${users} users (one at a time per user), fake vendor latency ${latencyMs} ms\n` +
        `  PostgreSQL ${version}, BullMQ on ${redisUrl}, ${concurrency} generation steps at once per process, ${os.cpus().length} CPU(s)\n` +
        `  layout: ${layout === 'split' ? 'split (as deployed: an API process, a worker process, the browsers in this one)' : 'single (the API with the jobs inside it and the browsers, one process)'}\n` +
        `  added latency = time from POST /api/generations to the browser's SSE "completed", minus the vendor's ${latencyMs} ms\n` +
        `  the most ${users} users can ask for: ${((users * 1000) / latencyMs).toFixed(1)} generations/s (each waits ${latencyMs} ms for the vendor); one warm-up generation per path is not counted\n`,
    );
    const results = [
      await runPath({
        ...common,
        label: 'webhook path (the vendor calls back; polls every 3000 ms as a fallback)',
        webhooks: true,
        pollMs: 3000,
      }),
      await runPath({
        ...common,
        label: `polling path (no webhook; poll interval shortened to ${pollMs} ms for the bench, default 3000 ms)`,
        webhooks: false,
        pollMs,
      }),
    ];
    let ok = true;
    for (const r of results) {
      // +1: the warm-up generation
      const fine =
        r.completed === generations && r.failed === 0 && r.charged === generations + 1 && r.starts === generations + 1 && r.balanced;
      ok &&= fine;
      process.stdout.write(
        `  ${r.label}\n` +
          `    ${r.completed} completed, ${r.failed} failed in ${r.seconds.toFixed(1)} s = ${(r.completed / r.seconds).toFixed(1)} generations/s\n` +
          `    added latency: p50 ${percentile(r.added, 50).toFixed(0)} ms, p95 ${percentile(r.added, 95).toFixed(0)} ms, max ${(r.added.at(-1) ?? NaN).toFixed(0)} ms\n` +
          `    stages (database timestamps): ${r.stages}\n` +
          `    CPU ms per generation: ${r.cpu}\n` +
          `    vendor starts ${r.starts}, charges ${r.charged} (with the warm-up), books balanced and no hold left: ${r.balanced ? 'yes' : 'NO'}${fine ? '' : '  <-- PROBLEM'}\n` +
          (r.errors.length ? `    first errors: ${r.errors.slice(0, 3).join(' | ')}\n` : ''),
      );
    }
    if (!ok) process.exitCode = 1;
  } finally {
    fs.rmSync(path.join(os.tmpdir(), `fr-bench-result-${process.pid}.jpg`), { force: true });
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

const childSpec = process.env.BENCH_CHILD;
(childSpec ? runChild(JSON.parse(childSpec) as ChildSpec) : main()).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
