/**
 * The process running a generation is killed with SIGKILL in the middle of it and started again:
 * the generation must finish exactly once, with exactly one charge and exactly one provider start.
 * - BullMQ: a real worker process (`node dist/worker.js`) against the test database and Redis; the
 *   API runs in this process and does not consume. The restarted worker takes the queued poll.
 * - In-process queue: the API process itself runs the jobs (`node dist/main.js`, no Redis); the
 *   restarted process resumes the generation from PostgreSQL at boot.
 * The vendor is the `preview` provider with a delay: its state lives in storage, shared by the
 * processes like a vendor's would be; every start writes a job file, which this test watches.
 */
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { freePort } from '../../src/common/free-port';
import { dataSourceOptions } from '../../src/database/data-source';
import { bearer, signUp, type SignedIn } from '../helpers/auth';
import { testConfig, testDatabaseUrl, testRedisUrl } from '../helpers/test-app';
import { books, createGenerationApp, IMAGE_START, uploadPhoto, waitFor, type GenerationApp } from './generation-test-kit';

const DIST = path.resolve(__dirname, '..', '..', 'dist');
const PREVIEW_DELAY_MS = 2500;
const POLL_MS = 400;

interface Proc {
  child: ChildProcess;
  output: () => string;
}

function launch(script: string, env: Record<string, string>): Proc {
  const file = path.join(DIST, script);
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: build the backend first (npm run build -w backend)`);
  let output = '';
  const child = spawn(process.execPath, [file], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));
  child.stderr!.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));
  return { child, output: () => output };
}

async function kill9(proc: Proc): Promise<void> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  const exited = new Promise((resolve) => proc.child.once('exit', resolve));
  proc.child.kill('SIGKILL');
  await exited;
}

async function stop(proc: Proc | undefined): Promise<void> {
  if (!proc || proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  const exited = new Promise((resolve) => proc.child.once('exit', resolve));
  proc.child.kill('SIGTERM');
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Watches the preview provider's job files: one per call of its start. */
function watchStarts(storageDir: string, userId: string): { jobs: Set<string>; stop: () => void } {
  const dir = path.join(storageDir, 'objects', 'users', userId, 'preview-jobs');
  const jobs = new Set<string>();
  const timer = setInterval(() => {
    if (!fs.existsSync(dir)) return;
    for (const name of fs.readdirSync(dir)) if (name.endsWith('.job.json')) jobs.add(name);
  }, 15);
  return { jobs, stop: () => clearInterval(timer) };
}

async function row(db: DataSource, id: string) {
  const [r] = await db.query(`SELECT status, polls, provider_job_id, attempts, error, updated_at FROM user_generations WHERE id = $1`, [
    id,
  ]);
  return r as { status: string; polls: number; provider_job_id: string | null; attempts: number; error: string | null; updated_at: Date };
}

/** Waits for a poll step to be claimed, then a little: the kill lands while the next step waits in the queue. */
async function killBetweenPolls(db: DataSource, id: string, proc: Proc): Promise<{ polls: number; jobId: string }> {
  const first = await waitFor('a poll step', async () => {
    const r = await row(db, id);
    return r.provider_job_id && r.polls >= 1 ? r : undefined;
  });
  await waitFor('the next poll step', async () => (await row(db, id)).polls > first.polls, 10_000, 5);
  await new Promise((r) => setTimeout(r, 60));
  await kill9(proc);
  const at = await row(db, id);
  expect(at.status).toBe('processing');
  return { polls: at.polls, jobId: at.provider_job_id! };
}

async function expectFinishedOnce(db: DataSource, who: SignedIn, id: string, jobId: string, starts: Set<string>): Promise<void> {
  const end = await row(db, id);
  expect(end).toMatchObject({ status: 'completed', provider_job_id: jobId, attempts: 1, error: null });
  expect(starts.size).toBe(1);
  expect(await books(db, who.userId, id)).toMatchObject({
    charged: 1,
    held: 0,
    available: 2,
    balanced: true,
    holds: [{ status: 'captured', amount: 1 }],
  });
  // the analytics event is written by a listener just after the outcome commits: wait for it, then it must be the only one
  const completions = async () =>
    (
      await db.query(
        `SELECT count(*)::int AS n FROM analytics_events WHERE event = 'generation_completed' AND properties->>'generation_id' = $1`,
        [id],
      )
    )[0].n as number;
  await waitFor('the completion to be recorded', async () => (await completions()) > 0, 5_000, 25);
  await new Promise((r) => setTimeout(r, 200));
  expect(await completions()).toBe(1);
  const [{ charges }] = await db.query(
    `SELECT count(*)::int AS charges FROM credit_ledger_entries WHERE generation_id = $1 AND kind = 'generation_charge'`,
    [id],
  );
  expect(charges).toBe(1);
}

describe('a generation survives its process being killed (SIGKILL) and restarted', () => {
  let db: DataSource;
  beforeAll(async () => {
    db = new DataSource(dataSourceOptions(testDatabaseUrl(), { poolSize: 2 }));
    await db.initialize();
  });
  afterAll(async () => db?.destroy());

  it('BullMQ: a worker process dies mid-generation; the restarted worker finishes it once', async () => {
    const env = {
      AI_PROVIDER: 'preview',
      AI_PREVIEW_DELAY_MS: String(PREVIEW_DELAY_MS),
      AI_POLL_INTERVAL_MS: String(POLL_MS),
      AI_POLL_MAX_INTERVAL_MS: String(POLL_MS), // a check every POLL_MS: the kill lands between two
      QUEUE_CONSUME_IN_API: 'false',
    };
    let api: GenerationApp | undefined;
    let worker: Proc | undefined;
    try {
      api = await createGenerationApp({ driver: 'bullmq', env });
      const c = api.config;
      const workerEnv = {
        NODE_ENV: 'test',
        DATABASE_URL: testDatabaseUrl(),
        DB_MIGRATIONS_RUN: 'false',
        REDIS_URL: testRedisUrl(),
        QUEUE_PREFIX: c.queue.prefix,
        STORAGE_LOCAL_DIR: c.storage.localDir,
        DATA_DIR: c.dataDir,
        FILES_SIGNING_SECRET: c.storage.signingSecret,
        AUTH_JWT_SECRET: c.auth.jwtSecret,
        APP_URL: c.appUrl,
        LOG_LEVEL: 'warn',
        WORKER_ALIVE_FILE: path.join(c.dataDir, 'worker.alive'),
        ...env,
      };
      worker = launch('worker.js', workerEnv);
      await waitFor('the worker to start', async () => fs.existsSync(workerEnv.WORKER_ALIVE_FILE), 20_000, 50);

      const who = await signUp(api.http);
      const photo = await uploadPhoto(api, who);
      const starts = watchStarts(c.storage.localDir, who.userId);
      const started = await api.http
        .post('/api/generations')
        .set(bearer(who.accessToken))
        .send({ ...IMAGE_START, upload_ids: [photo] });
      expect(started.status).toBe(202);
      const id = started.body.id as string;

      const { jobId } = await killBetweenPolls(db, id, worker);
      // nobody works on it now: it stays processing
      const polls = (await row(db, id)).polls;
      await new Promise((r) => setTimeout(r, POLL_MS * 2));
      expect(await row(db, id)).toMatchObject({ status: 'processing', polls });

      worker = launch('worker.js', workerEnv);
      await waitFor('the generation to complete', async () => (await row(db, id)).status !== 'processing', 30_000, 50);
      starts.stop();
      await expectFinishedOnce(db, who, id, jobId, starts.jobs);
      const res = await api.http.get(`/api/generations/${id}`).set(bearer(who.accessToken)).expect(200);
      expect(res.body).toMatchObject({ status: 'completed', progress: { stage: 'complete' } });
    } catch (error) {
      process.stderr.write(`worker output:\n${worker?.output() ?? ''}\n`);
      throw error;
    } finally {
      await stop(worker);
      await api?.close();
    }
  }, 90_000);

  it('in-process queue: the API process running the jobs dies; the restarted process resumes it from PostgreSQL', async () => {
    const config = testConfig();
    const port = await freePort();
    const env = {
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: testDatabaseUrl(),
      DATA_DIR: config.dataDir,
      FILES_SIGNING_SECRET: config.storage.signingSecret,
      AUTH_JWT_SECRET: config.auth.jwtSecret,
      AUTH_RATE_LIMIT_IP_MAX: '10000',
      AUTH_RATE_LIMIT_EMAIL_MAX: '10000',
      SERVE_UI: 'false',
      LOG_LEVEL: 'warn',
      AI_PROVIDER: 'preview',
      AI_PREVIEW_DELAY_MS: String(PREVIEW_DELAY_MS),
      AI_POLL_INTERVAL_MS: String(POLL_MS),
      AI_POLL_MAX_INTERVAL_MS: String(POLL_MS), // a check every POLL_MS: the kill lands between two
    };
    const http = request(`http://127.0.0.1:${port}`);
    const healthy = () =>
      waitFor('the API to answer', async () => (await http.get('/api/health').catch(() => ({ status: 0 }))).status === 200, 30_000, 100);
    let proc: Proc | undefined;
    try {
      proc = launch('main.js', env);
      await healthy();
      const who = await signUp(http);
      const photo = await uploadPhoto({ http }, who);
      const starts = watchStarts(config.storage.localDir, who.userId);
      const started = await http
        .post('/api/generations')
        .set(bearer(who.accessToken))
        .send({ ...IMAGE_START, upload_ids: [photo] });
      expect(started.status).toBe(202);
      const id = started.body.id as string;

      const { jobId } = await killBetweenPolls(db, id, proc);
      proc = launch('main.js', env);
      await healthy();
      await waitFor('the generation to complete', async () => (await row(db, id)).status !== 'processing', 30_000, 50);
      starts.stop();
      await expectFinishedOnce(db, who, id, jobId, starts.jobs);
      const res = await http.get(`/api/generations/${id}`).set(bearer(who.accessToken)).expect(200);
      expect(res.body.url).toMatch(new RegExp(`/api/files/users/${who.userId}/results/${id}\\.jpg\\?`));
    } catch (error) {
      process.stderr.write(`API output:\n${proc?.output() ?? ''}\n`);
      throw error;
    } finally {
      await stop(proc);
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
