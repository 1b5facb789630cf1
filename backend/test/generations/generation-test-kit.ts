import * as fs from 'node:fs';
import * as http from 'node:http';
import { Test } from '@nestjs/testing';
import { Redis } from 'ioredis';
import sharp from 'sharp';
import request from 'supertest';
import TestAgent from 'supertest/lib/agent';
import { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module';
import { configureApp } from '../../src/bootstrap/configure-app';
import { CreditsService } from '../../src/modules/credits/credits.service';
import { AI_PROVIDER, type AiProvider } from '../../src/modules/generations/providers/ai-provider';
import { bearer, signUp, type SignedIn } from '../helpers/auth';
import { testConfig, testRedisUrl } from '../helpers/test-app';
import type { AppConfig } from '../../src/config/app-config';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AddressInfo } from 'node:net';

export type DriverKind = 'in-process' | 'bullmq';

export interface GenerationApp {
  app: NestExpressApplication;
  config: AppConfig;
  http: TestAgent;
  db: DataSource;
  /** base URL when listening (SSE needs a real socket) */
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * The real AppModule (real PostgreSQL, real queue driver: in-process or BullMQ on the real Redis),
 * listening on a free port, with only the AI provider replaced when `provider` is given.
 */
export async function createGenerationApp(
  options: { driver: DriverKind; provider?: AiProvider; env?: Record<string, string | undefined>; config?: AppConfig } = {
    driver: 'in-process',
  },
): Promise<GenerationApp> {
  const config =
    options.config ??
    testConfig({
      REDIS_URL: options.driver === 'bullmq' ? testRedisUrl() : undefined,
      // status checks 50 ms after the start, then x1.5 up to 250 ms apart; the default budgets (5 and 15 minutes)
      AI_POLL_INTERVAL_MS: '50',
      ...options.env,
    });
  let builder = Test.createTestingModule({ imports: [AppModule.forRoot(config, 'api')] });
  if (options.provider) builder = builder.overrideProvider(AI_PROVIDER).useValue(options.provider);
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>({
    bodyParser: false,
    rawBody: true,
    logger: false,
    abortOnError: false,
  });
  configureApp(app, config, { useAppLogger: false, shutdownHooks: false });
  await app.listen(0, '127.0.0.1');
  const port = (app.getHttpServer().address() as AddressInfo).port;
  return {
    app,
    config,
    http: request(app.getHttpServer()),
    db: app.get(DataSource),
    baseUrl: `http://127.0.0.1:${port}`,
    close: async () => {
      await app.close();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
      if (config.queue.redisUrl) await deleteRedisKeys(config.queue.redisUrl, config.queue.prefix);
    },
  };
}

/** Removes every Redis key of a test's queue prefix. */
export async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
}

/** A signed-up person with a tier and extra purchased credits (through the ledger, so the books add up). */
export async function person(t: GenerationApp, options: { tier?: string; addCredits?: number } = {}): Promise<SignedIn> {
  const who = await signUp(t.http);
  if (options.tier) await t.db.query(`UPDATE users SET tier = $2 WHERE id = $1`, [who.userId, options.tier]);
  if (options.addCredits) {
    await t.app
      .get(CreditsService)
      .adjust({ userId: who.userId, mode: 'add', amount: options.addCredits, reason: 'test credits', actorId: who.userId });
  }
  return who;
}

let photoCache: Buffer | undefined;

/** A JPEG photo (800x1000) with a face-ish shape. */
export async function photoJpeg(): Promise<Buffer> {
  photoCache ??= await sharp({ create: { width: 800, height: 1000, channels: 3, background: '#d8b49c' } })
    .composite([
      {
        input: Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="1000"><circle cx="400" cy="380" r="170" fill="#8d5a44"/></svg>',
        ),
      },
    ])
    .jpeg()
    .toBuffer();
  return photoCache;
}

export async function uploadPhoto(t: { http: TestAgent }, who: SignedIn, bytes?: Buffer): Promise<string> {
  const res = await t.http
    .post('/api/uploads')
    .set(bearer(who.accessToken))
    .field('confirm_own_photos', 'true')
    .attach('files', bytes ?? (await photoJpeg()), { filename: 'me.jpg', contentType: 'image/jpeg' });
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.uploads[0].id as string;
}

export const IMAGE_START = { type: 'image', category: 'bikini', template_id: 'bikini-yellow', scene_id: 'beach-standing' } as const;

export async function startGeneration(t: { http: TestAgent }, who: SignedIn, body: Record<string, unknown>) {
  return t.http.post('/api/generations').set(bearer(who.accessToken)).send(body);
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false>,
  timeoutMs = 20_000,
  everyMs = 25,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Waits until GET /api/generations/:id answers a final status; answers the body. */
export async function waitForEnd(t: { http: TestAgent }, who: SignedIn, id: string, timeoutMs = 20_000): Promise<any> {
  return waitFor(
    `generation ${id} to end`,
    async () => {
      const res = await t.http.get(`/api/generations/${id}`).set(bearer(who.accessToken));
      return res.body.status === 'completed' || res.body.status === 'failed' ? res.body : undefined;
    },
    timeoutMs,
  );
}

export interface SseEvent {
  event: string;
  data: any;
}

/** Opens the event stream like an EventSource (token in the query) and collects events until the server closes it. */
export function collectEvents(
  baseUrl: string,
  id: string,
  token: string,
  timeoutMs = 20_000,
): Promise<{ status: number; events: SseEvent[]; raw: string; contentType?: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      `${baseUrl}/api/generations/${id}/events?access_token=${encodeURIComponent(token)}`,
      { headers: { Accept: 'text/event-stream' } },
      (res) => {
        let raw = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (raw += chunk));
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, events: parseSse(raw), raw, contentType: res.headers['content-type'] });
        });
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`event stream of ${id} did not end within ${timeoutMs} ms`));
    }, timeoutMs);
    req.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

export function parseSse(raw: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of raw.split('\n\n')) {
    const lines = block.split('\n');
    const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
    const data = lines.find((l) => l.startsWith('data: '))?.slice(6);
    if (event && data) events.push({ event, data: JSON.parse(data) });
  }
  return events;
}

/** The credits of a user: buckets, held, available, charges of a generation, and whether the books add up. */
export async function books(db: DataSource, userId: string, generationId?: string) {
  const [account] = await db.query(`SELECT subscription_balance, purchased_balance, held FROM credit_accounts WHERE user_id = $1`, [
    userId,
  ]);
  const sums: { bucket: string; total: number }[] = await db.query(
    `SELECT bucket, sum(amount)::int AS total FROM credit_ledger_entries WHERE user_id = $1 GROUP BY bucket`,
    [userId],
  );
  const [{ open }] = await db.query(
    `SELECT coalesce(sum(amount), 0)::int AS open FROM credit_holds WHERE user_id = $1 AND status = 'held'`,
    [userId],
  );
  const ledger = Object.fromEntries(sums.map((s) => [s.bucket, Number(s.total)]));
  const charged = generationId
    ? Number(
        (
          await db.query(
            `SELECT coalesce(-sum(amount), 0)::int AS c FROM credit_ledger_entries WHERE generation_id = $1 AND kind = 'generation_charge'`,
            [generationId],
          )
        )[0].c,
      )
    : 0;
  const holds = generationId ? await db.query(`SELECT status, amount FROM credit_holds WHERE generation_id = $1`, [generationId]) : [];
  return {
    subscription: Number(account.subscription_balance),
    purchased: Number(account.purchased_balance),
    held: Number(account.held),
    available: Number(account.subscription_balance) + Number(account.purchased_balance) - Number(account.held),
    /** the ledger matches the balances, and held matches the open holds */
    balanced:
      (ledger.subscription ?? 0) === Number(account.subscription_balance) &&
      (ledger.purchased ?? 0) === Number(account.purchased_balance) &&
      open === Number(account.held),
    charged,
    holds: holds as { status: string; amount: number }[],
  };
}
