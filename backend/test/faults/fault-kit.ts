/**
 * The fault suite's kit: the real API (`node dist/main.js`) and worker (`node dist/worker.js`)
 * processes, started, killed and restarted as an operator (or a crash) would; a person signed up
 * through the API; the books of a generation read from PostgreSQL; and the figures each scenario
 * reports (printed at the end of the run by fault-reporter.js).
 */
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import TestAgent from 'supertest/lib/agent';
import { DataSource } from 'typeorm';
import { freePort } from '../../src/common/free-port';
import { dataSourceOptions } from '../../src/database/data-source';
import { photoJpeg, waitFor } from '../generations/generation-test-kit';
import { bearer, PASSWORD, uniqueEmail, type SignedIn } from '../helpers/auth';
import { uniqueId } from '../helpers/test-app';

export const DIST = path.resolve(__dirname, '..', '..', 'dist');
export const REPORT_FILE = path.join(__dirname, '.fault-report.jsonl');

/** Adds one scenario's figures to the report printed at the end of the run. */
export function report(scenario: string, figures: Record<string, string | number | boolean>): void {
  fs.appendFileSync(REPORT_FILE, `${JSON.stringify({ scenario, figures, at: new Date().toISOString() })}\n`);
}

export interface Proc {
  name: string;
  child: ChildProcess;
  output(): string;
  exited(): boolean;
}

export function launch(name: string, script: 'main.js' | 'worker.js', env: Record<string, string>): Proc {
  const file = path.join(DIST, script);
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: build the backend first (npm run build -w backend)`);
  let output = '';
  const child = spawn(process.execPath, [file], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const keep = (d: Buffer) => (output = (output + d.toString()).slice(-(Number(process.env.FAULT_OUTPUT_CHARS) || 30_000)));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return { name, child, output: () => output, exited: () => child.exitCode !== null || child.signalCode !== null };
}

export async function kill9(proc: Proc | undefined): Promise<void> {
  if (!proc || proc.exited()) return;
  const gone = new Promise((resolve) => proc.child.once('exit', resolve));
  proc.child.kill('SIGKILL');
  await gone;
}

export async function stop(proc: Proc | undefined): Promise<void> {
  if (!proc || proc.exited()) return;
  const gone = new Promise((resolve) => proc.child.once('exit', resolve));
  proc.child.kill('SIGTERM');
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), 15_000);
  await gone;
  clearTimeout(timer);
}

export interface StackOptions {
  databaseUrl: string;
  redisUrl: string;
  /** extra settings for both processes (AI_*, FASHN_*, ...) */
  env?: Record<string, string>;
  /** settings for the API only */
  apiEnv?: Record<string, string>;
  /** settings for the worker only (its METRICS_PORT) */
  workerEnv?: Record<string, string>;
}

/**
 * An API process that does not run jobs and a separate worker process that does, on the same
 * database, Redis prefix and storage: the production layout of docker-compose.
 */
export class Stack {
  readonly dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fr-fault-'));
  readonly adminEmail = uniqueEmail('fault-admin');
  readonly prefix = uniqueId('fq');
  api?: Proc;
  worker?: Proc;
  port = 0;
  http!: TestAgent;
  private env: Record<string, string> = {};

  constructor(private readonly options: StackOptions) {}

  get storageDir(): string {
    return path.join(this.dataDir, 'storage');
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(options: { waitForHealth?: boolean; waitForWorker?: boolean } = {}): Promise<void> {
    this.port = await freePort();
    this.http = request(this.baseUrl);
    this.env = {
      NODE_ENV: 'test',
      DATABASE_URL: this.options.databaseUrl,
      REDIS_URL: this.options.redisUrl,
      QUEUE_PREFIX: this.prefix,
      DATA_DIR: this.dataDir,
      STORAGE_LOCAL_DIR: this.storageDir,
      FILES_SIGNING_SECRET: 'fault-signing-secret-0123456789abcdef0123',
      AUTH_JWT_SECRET: 'fault-jwt-secret-0123456789abcdef0123456789',
      AUTH_RATE_LIMIT_IP_MAX: '100000',
      AUTH_RATE_LIMIT_EMAIL_MAX: '100000',
      AUTH_RATE_LIMIT_REFRESH_MAX: '100000',
      ADMIN_EMAILS: this.adminEmail,
      PORT: String(this.port),
      HOST: '127.0.0.1',
      APP_URL: this.baseUrl,
      SERVE_UI: 'false',
      LOG_LEVEL: 'warn',
      FEATURE_ANALYTICS: 'true',
      ...this.options.env,
    };
    this.api = launch('api', 'main.js', { ...this.env, QUEUE_CONSUME_IN_API: 'false', ...this.options.apiEnv });
    if (options.waitForHealth !== false) await this.waitForApi();
    await this.startWorker({ wait: options.waitForWorker !== false });
  }

  /** The API answers its liveness route. */
  async waitForApi(timeoutMs = 60_000): Promise<number> {
    const t0 = Date.now();
    await waitFor(
      'the API to answer /api/health/live',
      async () => {
        if (this.api?.exited()) throw new Error(`the API exited:\n${this.api.output()}`);
        return (await this.http.get('/api/health/live').catch(() => ({ status: 0 }))).status === 200;
      },
      timeoutMs,
      100,
    );
    return Date.now() - t0;
  }

  /** The worker's alive file: written while its health checks pass (database and queue answer). */
  workerAliveFile = '';

  async startWorker(options: { wait?: boolean } = {}): Promise<void> {
    const alive = path.join(this.dataDir, `worker-${Date.now()}.alive`);
    this.workerAliveFile = alive;
    this.worker = launch('worker', 'worker.js', { ...this.env, ...this.options.workerEnv, WORKER_ALIVE_FILE: alive });
    if (options.wait === false) return;
    await waitFor(
      'the worker to start',
      async () => {
        if (this.worker?.exited()) throw new Error(`the worker exited:\n${this.worker.output()}`);
        return fs.existsSync(alive);
      },
      60_000,
      50,
    );
  }

  async killWorker(): Promise<void> {
    await kill9(this.worker);
  }

  /** Both processes' last output, for a failure message. */
  output(): string {
    return `--- API ---\n${this.api?.output() ?? ''}\n--- worker ---\n${this.worker?.output() ?? ''}`;
  }

  async close(): Promise<void> {
    await Promise.all([stop(this.worker), stop(this.api)]);
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** A database connection of the test itself (to read the books and mark addresses verified). */
export async function openDb(url: string): Promise<DataSource> {
  const db = new DataSource(dataSourceOptions(url, { poolSize: 3 }));
  await db.initialize();
  return db;
}

/** Signs a person up through the API with a verified address, and uploads one photo. */
export async function personWithPhoto(
  http: TestAgent,
  db: DataSource,
  email = uniqueEmail('fault'),
): Promise<SignedIn & { photo: string }> {
  const up = await http.post('/api/auth/sign-up').send({ full_name: 'Fault Person', email, password: PASSWORD, age_confirmed: true });
  if (up.status !== 201) throw new Error(`sign-up answered ${up.status}: ${JSON.stringify(up.body)}`);
  await db.query(`UPDATE users SET email_verified_at = now() WHERE id = $1`, [up.body.user.id]);
  const res = await http.post('/api/auth/sign-in').send({ email, password: PASSWORD });
  if (res.status !== 200) throw new Error(`sign-in answered ${res.status}: ${JSON.stringify(res.body)}`);
  const who = {
    userId: res.body.user.id,
    email,
    password: PASSWORD,
    accessToken: res.body.access_token,
    refreshToken: '',
    res,
  } as SignedIn;
  const photo = await http
    .post('/api/uploads')
    .set(bearer(who.accessToken))
    .field('confirm_own_photos', 'true')
    .attach('files', await photoJpeg(), { filename: 'me.jpg', contentType: 'image/jpeg' });
  if (photo.status !== 201) throw new Error(`upload answered ${photo.status}: ${JSON.stringify(photo.body)}`);
  return { ...who, photo: photo.body.uploads[0].id };
}

export interface Settled {
  id: string;
  status: string;
  /** credits taken for it (0 or its cost) */
  charges: number;
  /** holds of it still open */
  openHolds: number;
  /** its result file exists in storage (completed ones must have one) */
  fileStored: boolean;
  /** the person's ledger matches their balances, and held matches their open holds */
  balanced: boolean;
}

/** Where a generation stands in the books: status, charges, open holds, its file, the ledger's balance. */
export async function settled(db: DataSource, storage: string | ((key: string) => boolean), id: string): Promise<Settled> {
  const hasFile = typeof storage === 'string' ? (key: string) => fs.existsSync(path.join(storage, 'objects', key)) : storage;
  const [g] = await db.query(`SELECT user_id, status, result_key FROM user_generations WHERE id = $1`, [id]);
  const [{ charges }] = await db.query(
    `SELECT count(*)::int AS charges FROM credit_ledger_entries WHERE generation_id = $1 AND kind = 'generation_charge'`,
    [id],
  );
  const [{ open }] = await db.query(`SELECT count(*)::int AS open FROM credit_holds WHERE generation_id = $1 AND status = 'held'`, [id]);
  const [account] = await db.query(`SELECT subscription_balance, purchased_balance, held FROM credit_accounts WHERE user_id = $1`, [
    g.user_id,
  ]);
  const sums: { bucket: string; total: number }[] = await db.query(
    `SELECT bucket, sum(amount)::int AS total FROM credit_ledger_entries WHERE user_id = $1 GROUP BY bucket`,
    [g.user_id],
  );
  const [{ held }] = await db.query(
    `SELECT coalesce(sum(amount), 0)::int AS held FROM credit_holds WHERE user_id = $1 AND status = 'held'`,
    [g.user_id],
  );
  const ledger = Object.fromEntries(sums.map((s) => [s.bucket, Number(s.total)]));
  return {
    id,
    status: g.status,
    charges,
    openHolds: open,
    fileStored: !!g.result_key && hasFile(g.result_key),
    balanced:
      (ledger.subscription ?? 0) === Number(account.subscription_balance) &&
      (ledger.purchased ?? 0) === Number(account.purchased_balance) &&
      held === Number(account.held),
  };
}

/** The invariants every fault must keep: ended, charged once or not at all, no open hold, a completed one has its file. */
export function expectSettledCleanly(s: Settled): void {
  expect(['completed', 'failed']).toContain(s.status);
  expect({ id: s.id, charges: s.charges, openHolds: s.openHolds, fileStored: s.fileStored, balanced: s.balanced }).toEqual({
    id: s.id,
    charges: s.status === 'completed' ? 1 : 0,
    openHolds: 0,
    fileStored: s.status === 'completed',
    balanced: true,
  });
}

/** Waits until a generation has left `processing`. */
export async function waitUntilEnded(db: DataSource, id: string, timeoutMs = 90_000): Promise<string> {
  return waitFor(
    `generation ${id} to end`,
    async () => {
      const [g] = await db.query(`SELECT status FROM user_generations WHERE id = $1`, [id]);
      return g && g.status !== 'processing' ? (g.status as string) : undefined;
    },
    timeoutMs,
    100,
  );
}

/** Counts by a key, for the report: { completed: 3, failed: 1 }. */
export function tally<T>(items: T[], key: (item: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of items) out[key(item)] = (out[key(item)] ?? 0) + 1;
  return out;
}

export const describeTally = (t: Record<string, number>): string =>
  Object.entries(t)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ') || 'none';
