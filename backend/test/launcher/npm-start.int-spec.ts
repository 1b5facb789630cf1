import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort } from '../../src/common/free-port';

/**
 * `npm start` on embedded defaults, as a newcomer runs it: no DATABASE_URL, no REDIS_URL, no S3.
 * Runs the compiled launcher (the root test script builds the backend first).
 */
const START = path.resolve(__dirname, '..', '..', 'dist', 'cli', 'start.js');

function processesUsing(dataDir: string): string[] {
  const out = execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' });
  return out.split('\n').filter((line) => line.includes(dataDir));
}

interface Started {
  child: ChildProcess;
  output: () => string;
  seconds: number;
}

async function start(dataDir: string, port: number, embeddedPgPort: number, logLevel = 'warn'): Promise<Started> {
  const t0 = Date.now();
  let output = '';
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(embeddedPgPort),
    LOG_LEVEL: logLevel,
  };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'S3_BUCKET', 'FILES_SIGNING_SECRET', 'NODE_ENV', 'JEST_WORKER_ID']) delete env[name];
  const child = spawn(process.execPath, [START], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d) => (output += d.toString()));
  child.stderr!.on('data', (d) => (output += d.toString()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited early (${child.exitCode}):\n${output}`);
    if (Date.now() > deadline) throw new Error(`npm start did not answer /api/health within 60 s:\n${output}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.status === 200 && ((await res.json()) as { status: string }).status === 'ok' && output.includes('Press Ctrl-C to stop'))
        break;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { child, output: () => output, seconds: (Date.now() - t0) / 1000 };
}

async function stop(started: Started, signal: NodeJS.Signals): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => started.child.once('exit', (code) => resolve(code)));
  started.child.kill(signal);
  return exited;
}

describe('npm start on embedded defaults', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fr-start-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('starts PostgreSQL itself, prints the admin once, keeps the data, and leaves nothing running after SIGINT/SIGTERM', async () => {
    const port = await freePort();
    const pgPort = 55000 + Math.floor(Math.random() * 2000);

    // the start-up logs at their usual level (a few hundred lines): the password must not scroll away under them
    const first = await start(dataDir, port, pgPort, 'info');
    const output = first.output();
    expect(output).toContain(`is running at http://localhost:${port}`);
    // no AI_PROVIDER: the banner says that no AI renders anything
    expect(output).toContain('AI        preview: NO AI is configured. Results are local previews (a collage), not AI try-ons');
    const password = output.match(/\|\s+password\s+(\S+)\s+\|/)?.[1];
    expect(password).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(output).toMatch(/\|\s+email\s+admin@localhost\s+\|/);
    // printed once, in a box that is the last thing printed, after the "running" lines and every log line
    expect(output.split(password!).length - 1).toBe(1);
    const running = output.indexOf('is running at');
    const box = output.lastIndexOf('First start: an admin account was created.');
    expect(running).toBeGreaterThan(-1);
    expect(box).toBeGreaterThan(running);
    expect(output.indexOf('{"level"', box)).toBe(-1);
    const lines = output.trimEnd().split('\n');
    expect(lines.at(-1)).toMatch(/^\s*\+-+\+$/);
    expect(lines.at(-2)).toContain(`Log in at http://localhost:${port}/admin`);
    expect(lines.filter((line) => line.startsWith('{"level"')).length).toBeGreaterThan(100); // the logs it must not hide under
    const docs = await fetch(`http://127.0.0.1:${port}/api/docs`);
    expect(docs.status).toBe(200);
    expect(processesUsing(dataDir).length).toBeGreaterThan(0); // the embedded PostgreSQL
    expect(await stop(first, 'SIGINT')).toBe(0);
    expect(processesUsing(dataDir)).toEqual([]);

    const second = await start(dataDir, port, pgPort);
    expect(second.seconds).toBeLessThan(30); // no cluster to create, no first build: a restart, not an install
    expect(second.output()).not.toContain('Admin account created'); // the data (and the admin) were kept
    expect(second.output()).not.toContain('Creating the embedded PostgreSQL cluster');
    expect(await stop(second, 'SIGTERM')).toBe(0);
    expect(processesUsing(dataDir)).toEqual([]);
  });

  it('stops a PostgreSQL left behind by a launcher that was killed, and starts again', async () => {
    const port = await freePort();
    const pgPort = 57000 + Math.floor(Math.random() * 2000);
    const first = await start(dataDir, port, pgPort);
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    expect(processesUsing(dataDir).length).toBeGreaterThan(0); // orphaned server
    const again = await start(dataDir, port, pgPort);
    expect(await stop(again, 'SIGINT')).toBe(0);
    expect(processesUsing(dataDir)).toEqual([]);
  });
});

describe('npm start builds the user interfaces for production', () => {
  const ROOT = path.resolve(__dirname, '..', '..', '..');
  const dist = path.join(ROOT, 'frontend', 'dist');
  /** React's development build says this in the console; its production build does not carry the text. */
  const DEV_MARKER = 'Download the React DevTools';

  function bundleText(): string {
    const assets = path.join(dist, 'assets');
    return fs
      .readdirSync(assets)
      .filter((f) => f.endsWith('.js'))
      .map((f) => fs.readFileSync(path.join(assets, f), 'utf8'))
      .join('\n');
  }

  /** What scripts/build-if-needed.mjs's `stale()` says of a UI part whose build is stamped `stamp`. */
  function staleWithStamp(stamp: string): boolean {
    // a part of this test's own: rebuilding frontend/dist in place pulled it from under the browser
    // tests of the other Jest worker (their pages came without scripts while it was rebuilt)
    const dir = fs.mkdtempSync(path.join(ROOT, 'frontend', '.stale-check-'));
    try {
      fs.mkdirSync(path.join(dir, 'dist'));
      fs.writeFileSync(path.join(dir, 'dist', '.build-stamp'), stamp);
      const part = JSON.stringify({ name: path.relative(ROOT, dir), ui: true, inputs: [] });
      const script = `import { stale } from ${JSON.stringify(path.join(ROOT, 'scripts', 'build-if-needed.mjs'))}; process.stdout.write(String(stale(${part})));`;
      return execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }) === 'true';
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  it("redoes a development build left behind, and the build it serves is React's production build", () => {
    // what an older launcher left: a build stamped without the production mark
    expect(staleWithStamp(new Date().toISOString())).toBe(true);
    expect(staleWithStamp(`production ${new Date().toISOString()}`)).toBe(false);
    // the user app's build, made by the same script (npm test's first step) whatever NODE_ENV the shell has
    expect(fs.readFileSync(path.join(dist, '.build-stamp'), 'utf8')).toMatch(/^production /);
    expect(bundleText()).not.toContain(DEV_MARKER);
  });
});
