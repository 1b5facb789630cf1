/**
 * The request log of the real API process (`node dist/main.js`, production logging to stdout):
 * one JSON line per API request with its id, method, path and status, and nothing a person would
 * not want in a log file (tokens, the query string, headers). Lines are buffered, so the test reads
 * them after the process has stopped, as an operator's log shipper would find them.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import { freePort } from '../../src/common/free-port';
import { launch, stop, type Proc } from '../faults/fault-kit';
import { waitFor } from '../generations/generation-test-kit';
import { bearer, signUp } from '../helpers/auth';
import { testDatabaseUrl, testRedisUrl, uniqueId } from '../helpers/test-app';

interface LogLine {
  level: number;
  msg: string;
  req?: { id: string; method: string; url: string };
  res?: { statusCode: number };
  responseTime?: number;
}

describe('request log of the API process', () => {
  let api: Proc | undefined;
  let output = '';
  const secretQueryToken = 'query-token-that-must-never-be-logged';
  let accessToken = '';
  let email = '';

  beforeAll(async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    api = launch('api', 'main.js', {
      NODE_ENV: 'production',
      DATABASE_URL: testDatabaseUrl(),
      REDIS_URL: testRedisUrl(),
      QUEUE_PREFIX: uniqueId('logq'),
      DATA_DIR: `/tmp/${uniqueId('fr-log')}`,
      FILES_SIGNING_SECRET: randomBytes(32).toString('hex'),
      AUTH_JWT_SECRET: randomBytes(32).toString('hex'),
      AUTH_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: base,
      SERVE_UI: 'false',
      LOG_LEVEL: 'info',
    });
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
    const person = await signUp(http, { verified: true });
    accessToken = person.accessToken;
    email = person.email;
    expect((await http.get('/api/me').set(bearer(accessToken)).set('X-Request-Id', 'log-test-request-0001')).status).toBe(200);
    expect((await http.get('/api/generations?page=1').set(bearer(accessToken))).status).toBe(200);
    // the event stream takes its token in the query string (EventSource sends no header)
    expect((await http.get(`/api/generations/${randomUUID()}/events?access_token=${secretQueryToken}`)).status).toBe(401);
    expect((await http.get('/api/me')).status).toBe(401);
    expect((await http.get('/api/health')).status).toBe(200);
    await stop(api); // SIGTERM: the buffered lines are written before the process ends
    output = api.output();
  }, 120_000);

  afterAll(async () => {
    await stop(api);
  });

  const lines = (): LogLine[] =>
    output
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as LogLine);
  const requestLines = () => lines().filter((l) => l.msg === 'request completed' || l.msg === 'request errored');

  it('writes one line per API request with its id, method, path and status', () => {
    const me = requestLines().filter((l) => l.req?.url === '/api/me');
    expect(me.map((l) => [l.req!.method, l.res!.statusCode])).toEqual([
      ['GET', 200],
      ['GET', 401],
    ]);
    expect(me[0].req!.id).toBe('log-test-request-0001');
    expect(me[0].level).toBe(30);
    expect(me[1].level).toBe(40); // a 4xx is a warning
    expect(typeof me[0].responseTime).toBe('number');
    expect(requestLines().filter((l) => l.req?.url === '/api/generations')).toHaveLength(1);
    expect(
      requestLines()
        .filter((l) => l.req?.url.endsWith('/events'))
        .map((l) => l.res!.statusCode),
    ).toEqual([401]);
  });

  it('leaves out the health probe', () => {
    expect(requestLines().filter((l) => l.req?.url?.startsWith('/api/health'))).toEqual([]);
  });

  it('holds no token, query string, header or email address', () => {
    expect(output).not.toContain(secretQueryToken);
    expect(output).not.toContain(accessToken);
    expect(output).not.toContain(email);
    for (const line of requestLines()) {
      expect(line.req!.url).not.toContain('?');
      expect(JSON.stringify(line)).not.toMatch(/authorization|cookie|content-security-policy/i);
    }
  });
});
