import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createApiApp } from '../bootstrap/api';
import { REPO_ROOT } from '../bootstrap/static-ui';
import { LogStream } from '../common/logging/logging.module';
import { startTracing } from '../common/observability/tracing';
import { ConfigurationError, loadConfig } from '../config/app-config';
import { FaceChecksService } from '../modules/faces/face-checks.service';
import { AI_PROVIDER, aiModeBanner, type AiProvider } from '../modules/generations';
import { FirstAdminService } from '../modules/users/first-admin.service';
import { EmbeddedPostgresHandle, startEmbeddedPostgres } from './embedded-postgres';
import { firstAdminBox } from './first-admin-box';

/**
 * `npm start`: the whole product on one port with embedded defaults.
 *  - no DATABASE_URL: PostgreSQL from the embedded-postgres package, data under .data/postgres
 *  - no REDIS_URL: queue jobs run in this process
 *  - no S3_BUCKET: files under .data/files
 * Secrets that are not set are generated once and kept in .data/secrets.json (never in production).
 * Ctrl-C (SIGINT) or SIGTERM stops the API gracefully, then PostgreSQL, and leaves no process behind.
 */
const SECRET_NAMES = ['FILES_SIGNING_SECRET', 'AUTH_JWT_SECRET', 'EMBEDDED_PG_PASSWORD'] as const;

function loadOrCreateSecrets(dataDir: string): Record<(typeof SECRET_NAMES)[number], string> {
  const file = path.join(dataDir, 'secrets.json');
  const existing = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>) : {};
  let changed = false;
  for (const name of SECRET_NAMES) {
    if (!existing[name]) {
      existing[name] = randomBytes(32).toString('base64url');
      changed = true;
    }
  }
  if (changed) fs.writeFileSync(file, JSON.stringify(existing, null, 2), { mode: 0o600 });
  return existing as Record<(typeof SECRET_NAMES)[number], string>;
}

async function main(): Promise<void> {
  const started = Date.now();
  const env: NodeJS.ProcessEnv = { ...process.env };
  const production = env.NODE_ENV === 'production';
  const dataDir = path.resolve(REPO_ROOT, env.DATA_DIR ?? '.data');
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // As root, PostgreSQL runs as the `postgres` user, which must be able to pass through (not list) the folder.
  if (process.getuid?.() === 0) fs.chmodSync(dataDir, 0o711);
  env.DATA_DIR = dataDir;

  const secrets = loadOrCreateSecrets(dataDir);
  if (!production && !env.FILES_SIGNING_SECRET) env.FILES_SIGNING_SECRET = secrets.FILES_SIGNING_SECRET;
  if (!production && !env.AUTH_JWT_SECRET) env.AUTH_JWT_SECRET = secrets.AUTH_JWT_SECRET;
  if (env.LOG_PRETTY === undefined && process.stdout.isTTY) env.LOG_PRETTY = 'true';

  let pg: EmbeddedPostgresHandle | undefined;
  let app: Awaited<ReturnType<typeof createApiApp>> | undefined;
  let shuttingDown = false;

  const shutdown = async (reason: string, code = 0) => {
    if (shuttingDown) return;
    shuttingDown = true;
    process.stdout.write(`\nStopping (${reason})...\n`);
    const force = setTimeout(() => {
      process.stderr.write('Shutdown took too long; forcing exit.\n');
      process.exit(1);
    }, 45_000);
    try {
      if (app) await app.close();
    } catch (error) {
      process.stderr.write(`Error while stopping the API: ${String(error)}\n`);
    }
    try {
      if (pg) await pg.stop();
    } catch (error) {
      process.stderr.write(`Error while stopping PostgreSQL: ${String(error)}\n`);
    }
    clearTimeout(force);
    process.stdout.write('Stopped.\n');
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGHUP', () => void shutdown('SIGHUP'));
  // `npm start` runs us under a shell; if that shell is killed we are re-parented: stop too.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) void shutdown('parent process exited');
  }, 1000).unref();

  try {
    if (!env.DATABASE_URL) {
      // the embedded server is for trying the product out; production images do not even ship it
      if (production) {
        throw new ConfigurationError([
          'DATABASE_URL is required in production (postgres://user:password@host:5432/database): the embedded PostgreSQL is only for `npm start` outside production',
        ]);
      }
      pg = await startEmbeddedPostgres({
        dataDir: path.join(dataDir, 'postgres'),
        password: secrets.EMBEDDED_PG_PASSWORD,
        port: env.EMBEDDED_PG_PORT ? Number(env.EMBEDDED_PG_PORT) : undefined,
        database: 'fitting_room',
      });
      env.DATABASE_URL = pg.url;
      env.EMBEDDED = 'true';
    }
    const config = loadConfig(env);
    startTracing(config, 'api');
    app = await createApiApp(config, { shutdownHooks: false });
    await app.listen(config.port, config.host);
    // the face model loads in the background at boot and logs when it is in: wait for it (a few
    // seconds at most), so that its line comes before the box below, not under it
    const faces = app.get(FaceChecksService, { strict: false });
    await Promise.race([faces.warmed, new Promise((r) => setTimeout(r, 20_000).unref())]);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    // the start-up logs first: pino-pretty's thread gets a moment, the buffered JSON stream is written out
    await new Promise((r) => setTimeout(r, 200));
    app.get(LogStream, { strict: false }).flush();
    // last, where it does not scroll away: the first admin's password, shown once (docs/console.md)
    const firstAdmin = app.get(FirstAdminService, { strict: false }).takeCreated();
    process.stdout.write(
      `\n  ${config.appName} is running at ${config.appUrl}  (started in ${seconds} s)\n` +
        `    user app  ${config.appUrl}/\n    console   ${config.appUrl}/admin\n    API docs  ${config.appUrl}/api/docs\n` +
        `    database  ${pg ? `embedded PostgreSQL on 127.0.0.1:${pg.port} (data in ${path.relative(process.cwd(), dataDir) || '.'}/postgres)` : 'DATABASE_URL'}\n` +
        `    queue     ${config.queue.driver === 'bullmq' ? 'BullMQ on REDIS_URL' : 'in-process (set REDIS_URL for BullMQ)'}\n` +
        `    files     ${config.storage.driver === 's3' ? `S3 bucket ${config.storage.s3?.bucket}` : config.storage.localDir}\n` +
        `    AI        ${aiModeBanner(app.get<AiProvider>(AI_PROVIDER)).join('\n              ')}\n` +
        `  Press Ctrl-C to stop.\n\n` +
        (firstAdmin ? `${firstAdminBox(firstAdmin, config.appUrl)}\n\n` : ''),
    );
  } catch (error) {
    if (error instanceof ConfigurationError) process.stderr.write(`${error.message}\nSee docs/configuration.md and .env.example.\n`);
    else process.stderr.write(`Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    await shutdown('start failed', error instanceof ConfigurationError ? 78 : 1);
  }
}

void main();
