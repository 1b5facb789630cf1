/**
 * What the real API process (`node dist/main.js`, production logging to stdout) writes when it
 * refuses a request on purpose and when it fails: a refusal (a 4xx, the 501 of payments that are
 * not set up, the 503 of a full image work queue) leaves no stack and no error-level line, and an
 * anonymous caller repeating one cannot double the log; a real failure (a 500) stays an error with
 * its stack. The lines are read after the process stopped, as a log shipper would find them.
 */
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { freePort } from '../../src/common/free-port';
import { dataSourceOptions } from '../../src/database/data-source';
import { launch, stop, type Proc } from '../faults/fault-kit';
import { waitFor } from '../generations/generation-test-kit';
import { bearer, PASSWORD, signIn, signUp } from '../helpers/auth';
import { testDatabaseUrl, testRedisUrl, uniqueId } from '../helpers/test-app';

interface LogLine {
  level: number;
  msg: string;
  req?: { method: string; url: string };
  res?: { statusCode: number };
  err?: { stack?: string };
  status?: number;
  code?: string;
  url?: string;
  held_back?: number;
}

const WARN = 40;
const INFO = 30;
const ERROR = 50;
const WEBHOOK_CALLS = 8;

describe('the log of refusals and failures of the API process', () => {
  let api: Proc | undefined;
  let db: DataSource | undefined;
  let output = '';
  const stdout: Buffer[] = [];
  const statuses = { webhook: [] as number[], uploads: [] as number[], signIn: 0, failed: 0 };

  beforeAll(async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    api = launch('api', 'main.js', {
      NODE_ENV: 'production',
      DATABASE_URL: testDatabaseUrl(),
      REDIS_URL: testRedisUrl(),
      QUEUE_PREFIX: uniqueId('refusalq'),
      DATA_DIR: `/tmp/${uniqueId('fr-refusal-log')}`,
      FILES_SIGNING_SECRET: randomBytes(32).toString('hex'),
      AUTH_JWT_SECRET: randomBytes(32).toString('hex'),
      AUTH_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: base,
      SERVE_UI: 'false',
      LOG_LEVEL: 'info',
      // one image decoded at a time and none waiting: a second upload meanwhile is refused with 503
      IMAGE_WORK_CONCURRENCY: '1',
      IMAGE_WORK_QUEUE: '0',
      AUTH_RATE_LIMIT_IP_MAX: '10000',
      AUTH_RATE_LIMIT_EMAIL_MAX: '10000',
    });
    // the log is read from the process's standard output alone, and whole: the launcher's output()
    // mixes in standard error and keeps only its last 30,000 characters, whose first line, cut, once
    // broke JSON.parse in CI
    api.child.stdout!.on('data', (d: Buffer) => stdout.push(d));
    const http = request(base);
    await waitFor(
      'the API',
      async () => {
        if (api!.exited()) throw new Error(`the API exited:\n${api!.output()}`);
        return (await http.get('/api/health/live').catch(() => ({ status: 0 }))).status === 200;
      },
      60_000,
      100,
    );

    // the anonymous Stripe webhook while payments are not set up: 501, in a burst
    const webhook = await Promise.all(
      Array.from({ length: WEBHOOK_CALLS }, () =>
        http.post('/api/webhooks/stripe').set('Stripe-Signature', 't=1,v1=00').set('Content-Type', 'application/json').send('{}'),
      ),
    );
    statuses.webhook = webhook.map((r) => r.status);

    // uploads at once through a one-image gate: some are refused with 503 (each burst by a new person, under the photo limit)
    const photo = await sharp({
      create: { width: 1600, height: 1600, channels: 3, background: '#888', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
    })
      .jpeg({ quality: 95 })
      .toBuffer();
    await waitFor(
      'an upload refused by the full image work queue',
      async () => {
        const person = await signUp(http);
        const burst = await Promise.all(
          Array.from({ length: 4 }, () =>
            http
              .post('/api/uploads')
              .set(bearer(person.accessToken))
              .field('confirm_own_photos', 'true')
              .attach('files', photo, { filename: 'me.jpg', contentType: 'image/jpeg' }),
          ),
        );
        statuses.uploads.push(...burst.map((r) => r.status));
        return statuses.uploads.includes(503);
      },
      60_000,
      0,
    );

    // a 4xx: a wrong password
    const someone = await signUp(http);
    statuses.signIn = (await http.post('/api/auth/sign-in').send({ email: someone.email, password: `${PASSWORD}-wrong` })).status;
    await signIn(http, someone.email); // (and the right one works)

    // a real failure: the database refuses the insert of a contact form
    db = await new DataSource(dataSourceOptions(testDatabaseUrl(), { poolSize: 1 })).initialize();
    await db.query(
      `CREATE OR REPLACE FUNCTION refuse_inquiry() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$`,
    );
    await db.query(`CREATE TRIGGER refuse_inquiry BEFORE INSERT ON support_inquiries FOR EACH ROW EXECUTE FUNCTION refuse_inquiry()`);
    try {
      statuses.failed = (
        await http
          .post('/api/support/inquiries')
          .send({ name: 'Log Test', email: 'log-test@example.com', subject: 'Hello', message: 'Hi there' })
      ).status;
    } finally {
      await db.query(`DROP TRIGGER IF EXISTS refuse_inquiry ON support_inquiries`);
      await db.query(`DROP FUNCTION IF EXISTS refuse_inquiry()`);
    }
    await stop(api); // SIGTERM: the buffered lines are written before the process ends
    output = Buffer.concat(stdout).toString('utf8');
  }, 240_000);

  afterAll(async () => {
    await stop(api);
    await db?.destroy();
  });

  const lines = (): LogLine[] =>
    output
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as LogLine);
  const requestLines = (url: string) => lines().filter((l) => l.req?.url === url && l.res);

  it('answered as each case wants (501, some 503s, 401, 500)', () => {
    expect(statuses.webhook).toEqual(Array.from({ length: WEBHOOK_CALLS }, () => 501));
    expect(statuses.uploads).toContain(503);
    expect(statuses.signIn).toBe(401);
    expect(statuses.failed).toBe(500);
  });

  it("writes the webhook's 501 as a refusal: warning request lines without an error, and one info line for the burst", () => {
    const requests = requestLines('/api/webhooks/stripe');
    expect(requests.map((l) => l.res!.statusCode)).toEqual(statuses.webhook);
    for (const line of requests) {
      expect(line).toMatchObject({ level: WARN, msg: 'request completed', res: { statusCode: 501 } });
      expect(line.err).toBeUndefined();
    }
    const refused = lines().filter((l) => l.msg === 'request refused on purpose' && l.url === '/api/webhooks/stripe');
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(refused.length).toBeLessThan(WEBHOOK_CALLS);
    expect(refused[0]).toMatchObject({ level: INFO, status: 501, code: 'SERVICE_UNAVAILABLE' });
  });

  it("writes the image work queue's 503 as a refusal, without a stack", () => {
    const refusedUploads = requestLines('/api/uploads').filter((l) => l.res!.statusCode === 503);
    expect(refusedUploads.length).toBeGreaterThanOrEqual(1);
    for (const line of refusedUploads) {
      expect(line).toMatchObject({ level: WARN, msg: 'request completed' });
      expect(line.err).toBeUndefined();
    }
    expect(lines().filter((l) => l.msg === 'request refused on purpose' && l.url === '/api/uploads')[0]).toMatchObject({
      level: INFO,
      status: 503,
    });
  });

  it('writes a 4xx as a warning without a stack', () => {
    const wrong = requestLines('/api/auth/sign-in').filter((l) => l.res!.statusCode === 401);
    expect(wrong).toHaveLength(1);
    expect(wrong[0].level).toBe(WARN);
    expect(wrong[0].err).toBeUndefined();
  });

  it('keeps a real failure an error with its stack', () => {
    const [failed] = requestLines('/api/support/inquiries');
    expect(failed).toMatchObject({ level: ERROR, msg: 'request errored', res: { statusCode: 500 } });
    const [filterLine] = lines().filter((l) => l.msg === 'request failed');
    expect(filterLine.req?.url).toBe('/api/support/inquiries');
    expect(filterLine.level).toBe(ERROR);
    expect(filterLine.err?.stack).toContain('refused by the test');
  });

  it('has no error-level line and no stack but the failure', () => {
    const errors = lines().filter((l) => l.level >= ERROR);
    expect(errors.map((l) => [l.msg, l.req?.url])).toEqual([
      ['request failed', '/api/support/inquiries'],
      ['request errored', '/api/support/inquiries'],
    ]);
    const stacks = lines().filter((l) => JSON.stringify(l).includes('"stack"'));
    expect(stacks.every((l) => l.level >= ERROR)).toBe(true);
  });
});
