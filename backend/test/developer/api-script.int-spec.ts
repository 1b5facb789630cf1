/**
 * The developer API as a third-party script uses it, through the examples of docs/api.md run as
 * they are written, against a live server (the AI vendor replaced by its fake), so that the page
 * cannot go stale: its `sh` blocks in order with bash, curl and jq; its TypeScript blocks through
 * the generated client; and its signature check on a real delivery received by a local endpoint.
 * The app's logs are captured (every line pino writes) and must never hold the token.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module';
import { configureApp } from '../../src/bootstrap/configure-app';
import { REPO_ROOT } from '../../src/bootstrap/static-ui';
import { freePort } from '../../src/common/free-port';
import { LogStream } from '../../src/common/logging/logging.module';
import { AI_PROVIDER } from '../../src/modules/generations/providers/ai-provider';
import { FakeAiProvider } from '../fakes/fake-ai-provider';
import { photoJpeg, waitFor } from '../generations/generation-test-kit';
import { bearer, PASSWORD, signIn, signUp, type SignedIn } from '../helpers/auth';
import { testConfig } from '../helpers/test-app';
import { WebhookReceiver } from './webhook-receiver';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type TestAgent from 'supertest/lib/agent';

const run = promisify(execFile);
const DOC = path.join(REPO_ROOT, 'docs', 'api.md');

/** The fenced blocks of docs/api.md, in order: their language and text. */
function docBlocks(): { lang: string; code: string }[] {
  const text = fs.readFileSync(DOC, 'utf8');
  return [...text.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1], code: m[2] }));
}

/** The TypeScript block whose first line is `// <name>`. */
function tsBlock(name: string): string {
  const block = docBlocks().find((b) => b.lang === 'ts' && b.code.startsWith(`// ${name}\n`));
  if (!block) throw new Error(`docs/api.md has no ts block starting with "// ${name}"`);
  return block.code;
}

/**
 * Loads a TypeScript block as a module (Jest compiles it as it does the tests). A script's top-level
 * statements become the body of its exported `run()`; its imports stay at the top.
 */
async function loadBlock<T>(dir: string, name: string, code: string, asScript: boolean): Promise<T> {
  let source = code;
  if (asScript) {
    const imports = [...code.matchAll(/^import [\s\S]*?;$/gm)].map((m) => m[0]);
    let body = code;
    for (const line of imports) body = body.replace(line, '');
    source = `${imports.join('\n')}\nexport async function run(): Promise<void> {\n${body}\n}\n`;
  }
  const file = path.join(dir, name);
  fs.writeFileSync(file, source);
  return (await import(file)) as T;
}

describe('the developer API as a script (docs/api.md)', () => {
  let app: NestExpressApplication;
  let http: TestAgent;
  let db: DataSource;
  let base: string;
  let who: SignedIn;
  let token: { id: string; token: string };
  let endpoint: { id: string; secret: string };
  const logLines: string[] = [];
  const fake = new FakeAiProvider();
  const receiver = new WebhookReceiver();
  // inside backend/ so that the blocks' imports (@fitting-room/api-client) resolve as a project file's do
  const work = fs.mkdtempSync(path.join(__dirname, '.docs-run-'));
  let verify: (secret: string, header: string, rawBody: string, now?: number) => boolean;

  beforeAll(async () => {
    await receiver.start();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const config = testConfig({ APP_URL: base, LOG_LEVEL: 'debug', AI_POLL_INTERVAL_MS: '50', API_TOKEN_RATE_LIMIT_MAX: '1000' });
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot(config, 'api')] })
      .overrideProvider(AI_PROVIDER)
      .useValue(fake)
      // every line the app's logger writes, kept here instead of going to stdout
      .overrideProvider(LogStream)
      .useValue({
        open: () => ({ write: (chunk: string) => logLines.push(...chunk.split('\n').filter(Boolean)) }),
        flush: () => undefined,
        onApplicationShutdown: () => undefined,
      })
      .compile();
    app = moduleRef.createNestApplication<NestExpressApplication>({ bodyParser: false, rawBody: true, abortOnError: false });
    configureApp(app, config, { useAppLogger: true, shutdownHooks: false });
    await app.listen(port, '127.0.0.1');
    http = request(app.getHttpServer());
    db = app.get(DataSource);
    fs.writeFileSync(path.join(work, 'me.jpg'), await photoJpeg());
    verify = (
      await loadBlock<{ verifyFittingRoomSignature: typeof verify }>(work, 'verify-signature.ts', tsBlock('verify-signature.ts'), false)
    ).verifyFittingRoomSignature;

    // in Settings: a token for the script, and an endpoint for its webhooks
    who = await signUp(http);
    const created = await http
      .post('/api/me/tokens')
      .set(bearer(who.accessToken))
      .send({ name: 'docs/api.md', scopes: ['account:read', 'uploads:write', 'generations:read', 'generations:write'] })
      .expect(201);
    token = created.body;
    const hook = await http
      .post('/api/me/webhooks')
      .set(bearer(who.accessToken))
      .send({ url: receiver.url, events: ['generation.completed'] })
      .expect(201);
    endpoint = hook.body;
  });

  afterAll(async () => {
    await app?.close();
    await receiver.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  const books = async () => {
    const [row] = await db.query(
      `SELECT (SELECT count(*)::int FROM user_generations WHERE user_id = $1) AS generations,
              (SELECT count(*)::int FROM credit_ledger_entries WHERE user_id = $1 AND kind = 'generation_charge') AS charges,
              (SELECT coalesce(sum(-amount), 0)::int FROM credit_ledger_entries WHERE user_id = $1 AND kind = 'generation_charge') AS charged`,
      [who.userId],
    );
    return row as { generations: number; charges: number; charged: number };
  };

  it("runs docs/api.md's curl examples: one upload, one generation and one charge for a start sent twice, a signed webhook, the download", async () => {
    const shell = docBlocks()
      .filter((b) => b.lang === 'sh')
      .map((b) => b.code)
      .join('\n');
    expect(shell).toContain('Idempotency-Key: $KEY');
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', shell], {
      cwd: work,
      env: { PATH: process.env.PATH, HOME: work, FITTING_ROOM_URL: base, FITTING_ROOM_TOKEN: token.token },
      timeout: 60_000,
    });
    expect(stdout).toContain(who.email);
    const generationId = /^started ([0-9a-f-]{36})$/m.exec(stdout)?.[1];
    expect(generationId).toBeDefined();
    expect(stdout).toMatch(/^event: completed$/m);

    // the start was sent twice with one key: one generation, one charge of its cost
    const generation = (await http.get(`/api/generations/${generationId}`).set(bearer(who.accessToken)).expect(200)).body;
    expect(generation.status).toBe('completed');
    expect(await books()).toEqual({ generations: 1, charges: 1, charged: generation.cost });
    expect(generation.cost).toBeGreaterThan(0);

    // the download is the stored result, a JPEG
    const downloaded = fs.readFileSync(path.join(work, 'result.jpg'));
    expect(downloaded.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));

    // a signed generation.completed at the local endpoint, checked as docs/api.md says
    const delivery = await waitFor('generation.completed', async () =>
      receiver.of('generation.completed').find((d) => d.body.data.generation.id === generationId),
    );
    const header = String(delivery.headers['fitting-room-signature']);
    expect(verify(endpoint.secret, header, delivery.rawBody)).toBe(true);
    expect(delivery.body.data.generation).toMatchObject({ id: generationId, status: 'completed', credits_charged: generation.cost });
    // the check refuses another secret, a changed body, and a replay beyond 5 minutes
    expect(verify('whsec_not-this-one', header, delivery.rawBody)).toBe(false);
    expect(verify(endpoint.secret, header, delivery.rawBody.replace(generation.id, '00000000-0000-4000-8000-000000000000'))).toBe(false);
    expect(verify(endpoint.secret, header, delivery.rawBody, Date.now() / 1000 + 301)).toBe(false);
  });

  it("runs docs/api.md's TypeScript example through the generated client: upload, a start sent twice, the event stream, the download", async () => {
    const before = await books();
    const script = await loadBlock<{ run: () => Promise<void> }>(work, 'script.ts', tsBlock('script.ts'), true);
    fs.rmSync(path.join(work, 'result.jpg'), { force: true });
    const cwd = process.cwd();
    const env = { url: process.env.FITTING_ROOM_URL, token: process.env.FITTING_ROOM_TOKEN };
    process.chdir(work);
    process.env.FITTING_ROOM_URL = base;
    process.env.FITTING_ROOM_TOKEN = token.token;
    const printed: unknown[] = [];
    const logged = jest.spyOn(console, 'log').mockImplementation((line: unknown) => void printed.push(line));
    try {
      await script.run();
    } finally {
      process.chdir(cwd);
      process.env.FITTING_ROOM_URL = env.url;
      process.env.FITTING_ROOM_TOKEN = env.token;
      logged.mockRestore();
    }
    const id = /^downloaded ([0-9a-f-]{36})$/.exec(String(printed.at(-1)))?.[1];
    expect(id).toBeDefined();
    const after = await books();
    const generation = (await http.get(`/api/generations/${id}`).set(bearer(who.accessToken)).expect(200)).body;
    expect(after).toEqual({
      generations: before.generations + 1,
      charges: before.charges + 1,
      charged: before.charged + generation.cost,
    });
    expect(fs.readFileSync(path.join(work, 'result.jpg')).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  });

  it("type-checks docs/api.md's TypeScript examples against the generated client", async () => {
    const dir = fs.mkdtempSync(path.join(work, 'tsc-'));
    for (const name of ['script.ts', 'verify-signature.ts']) fs.writeFileSync(path.join(dir, name), tsBlock(name));
    fs.writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        extends: path.join(REPO_ROOT, 'tsconfig.json'),
        compilerOptions: {
          module: 'esnext',
          moduleResolution: 'bundler',
          target: 'es2022',
          lib: ['ES2023', 'DOM'],
          noEmit: true,
          types: ['node'],
        },
        include: ['*.ts'],
      }),
    );
    const tsc = path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const answer = await run(process.execPath, [tsc, '-p', path.join(dir, 'tsconfig.json')], { timeout: 120_000 }).catch(
      (e: { stdout: string }) => ({ stdout: e.stdout || String(e) }),
    );
    expect(answer.stdout).toBe('');
  }, 150_000);

  it('never lets the token reach the console nor change the password; revoked, it answers 401', async () => {
    const asToken = bearer(token.token);
    const consoleAnswer = await http.get('/api/admin/users').set(asToken);
    expect(consoleAnswer.status).toBe(403);
    expect(consoleAnswer.body.code).toBe('API_TOKEN_NOT_ALLOWED');
    const change = await http
      .post('/api/me/password')
      .set(asToken)
      .send({ current_password: PASSWORD, new_password: 'a-new-password-for-the-script-7' });
    expect(change.status).toBe(403);
    expect(change.body.code).toBe('API_TOKEN_NOT_ALLOWED');
    await signIn(http, who.email, PASSWORD); // the password is still the old one

    await http.get('/api/me').set(asToken).expect(200);
    await http.delete(`/api/me/tokens/${token.id}`).set(bearer(who.accessToken)).expect(204);
    const revoked = await http.get('/api/me').set(asToken);
    expect(revoked.status).toBe(401);
    expect(revoked.body.code).toBe('AUTH_ERROR');
    // as the script sees it
    const { stdout } = await run('curl', [
      '-sS',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      `${base}/api/generations`,
      '-H',
      `Authorization: Bearer ${token.token}`,
    ]);
    expect(stdout).toBe('401');
  });

  it('writes no token into any log line of the app (nor its secret part)', async () => {
    await new Promise((r) => setTimeout(r, 100));
    // the capture works: the requests of the script above are there, by path
    const requestLines = logLines.filter((l) => l.includes('"url":"/api/generations'));
    expect(requestLines.length).toBeGreaterThanOrEqual(4);
    expect(logLines.some((l) => l.includes('api_token_created'))).toBe(true);
    const secretPart = token.token.slice(8);
    expect(logLines.filter((l) => l.includes(token.token) || l.includes(secretPart))).toEqual([]);
    expect(logLines.filter((l) => l.includes(endpoint.secret))).toEqual([]);
  });
});
