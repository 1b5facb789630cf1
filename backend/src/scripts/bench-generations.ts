import 'reflect-metadata';
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { createApiApp } from '../bootstrap/api';
import { freePort } from '../common/free-port';
import { loadConfig, type AppConfig } from '../config/app-config';
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
 * `npm run bench:generations [-- --generations 200 --users 50 --latency-ms 2000 --poll-ms 250 --concurrency 20]`
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
 */
function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i > 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isFinite(v) || v < 0) throw new Error(`--${name} must be a number`);
  return v;
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
}

async function runPath(options: {
  label: string;
  webhooks: boolean;
  pollMs: number;
  generations: number;
  users: number;
  latencyMs: number;
  concurrency: number;
  databaseUrl: string;
  redisUrl: string;
  result: Buffer;
}): Promise<PathResult & { charged: number; starts: number; balanced: boolean }> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fr-bench-'));
  const prefix = `bench${Date.now().toString(36)}`;
  const config: AppConfig = loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL: options.databaseUrl,
    DB_POOL_SIZE: '30',
    REDIS_URL: options.redisUrl,
    QUEUE_PREFIX: prefix,
    QUEUE_CONCURRENCY: String(options.concurrency),
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
    AI_MAX_POLLS: '1000',
  });
  const vendor = new BenchVendor(options.webhooks, options.latencyMs, options.result);
  registerAiProvider(BENCH_PROVIDER, () => vendor);
  config.ai = { ...config.ai!, provider: BENCH_PROVIDER as unknown as 'preview' };
  const app = await createApiApp(config, { logger: process.env.BENCH_DEBUG ? undefined : false, shutdownHooks: false });
  await app.listen(port, '127.0.0.1');
  const base = config.appUrl;
  try {
    const photo = await sharp({ create: { width: 900, height: 1200, channels: 3, background: '#c9a48a' } })
      .jpeg()
      .toBuffer();
    const credits = app.get(CreditsService);
    const ds = app.get(DataSource);
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
        await ds.query(`UPDATE users SET email_verified_at = now() WHERE id = $1`, [session.user.id]);
        await credits.adjust({ userId: session.user.id, mode: 'add', amount: 10_000, reason: 'bench', actorId: session.user.id });
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
    const [{ charged }] = await ds.query(
      `SELECT count(*)::int AS charged FROM credit_ledger_entries WHERE kind = 'generation_charge' AND generation_id IN (SELECT id FROM user_generations WHERE provider = $1)`,
      [BENCH_PROVIDER],
    );
    const [{ ok }] = await ds.query(
      `SELECT bool_and(a.subscription_balance = s.sub AND a.purchased_balance = s.pur AND a.held = 0) AS ok FROM credit_accounts a
         JOIN (SELECT user_id, sum(amount) FILTER (WHERE bucket = 'subscription') AS sub, sum(amount) FILTER (WHERE bucket = 'purchased') AS pur
                 FROM credit_ledger_entries GROUP BY user_id) s ON s.user_id = a.user_id`,
    );
    await ds.query(`DELETE FROM users`); // the next path starts from an empty database
    return {
      label: options.label,
      completed,
      failed,
      errors,
      seconds,
      added: added.sort((a, b) => a - b),
      charged,
      starts: vendor.starts,
      balanced: ok === true,
    };
  } finally {
    await app.close();
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
  const concurrency = arg('concurrency', 20);
  const adminUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
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
    const common = { generations, users, latencyMs, concurrency, databaseUrl: url.toString(), redisUrl, result };
    process.stdout.write(
      `bench:generations  ${generations} generations from ${users} users (one at a time per user), fake vendor latency ${latencyMs} ms\n` +
        `  PostgreSQL ${version}, BullMQ on ${redisUrl}, queue concurrency ${concurrency} per queue, API and jobs in this process, ${os.cpus().length} CPU(s)\n` +
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
          `    vendor starts ${r.starts}, charges ${r.charged} (with the warm-up), books balanced and no hold left: ${r.balanced ? 'yes' : 'NO'}${fine ? '' : '  <-- PROBLEM'}\n` +
          (r.errors.length ? `    first errors: ${r.errors.slice(0, 3).join(' | ')}\n` : ''),
      );
    }
    if (!ok) process.exitCode = 1;
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
