import { createTestApp, TestApp, testRedisUrl } from '../helpers/test-app';

describe.each([
  ['in-process queue', {}],
  ['BullMQ queue', { REDIS_URL: testRedisUrl() }],
])('the API with the %s', (_label, overrides: Record<string, string>) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(overrides);
  });
  afterAll(async () => t?.close());

  it('answers GET /api/health with status ok and the database, queue and storage checks', async () => {
    const res = await t.http.get('/api/health').expect(200);
    expect(res.body.status).toBe('ok');
    expect(res.body.details).toMatchObject({
      database: { status: 'up' },
      queue: { status: 'up', driver: overrides.REDIS_URL ? 'bullmq' : 'in-process' },
      storage: { status: 'up', driver: 'local' },
    });
    // what renders generations: here the default, the local preview renderer, which is no AI
    expect(res.body.ai).toEqual({ provider: 'preview', generates_with_ai: false });
  });

  it('serves the OpenAPI document with operation ids named after controller methods', async () => {
    const res = await t.http.get('/api/docs-json').expect(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(res.body.paths['/api/health'].get.operationId).toBe('getHealth');
    await t.http.get('/api/docs').expect(200).expect('content-type', /html/);
  });

  it('echoes a caller-supplied request id and generates one otherwise', async () => {
    const given = await t.http.get('/api/health').set('X-Request-Id', 'req-1234567890');
    expect(given.headers['x-request-id']).toBe('req-1234567890');
    const generated = await t.http.get('/api/health').set('X-Request-Id', 'bad id with spaces');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sets the security headers (helmet) and no X-Powered-By', async () => {
    const res = await t.http.get('/api/health');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('allows CORS only for configured origins', async () => {
    const allowed = await t.http.options('/api/health').set('Origin', 'http://127.0.0.1:3000').set('Access-Control-Request-Method', 'GET');
    expect(allowed.headers['access-control-allow-origin']).toBe('http://127.0.0.1:3000');
    expect(allowed.headers['access-control-allow-credentials']).toBe('true');
    const refused = await t.http.options('/api/health').set('Origin', 'https://evil.example').set('Access-Control-Request-Method', 'GET');
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers malformed JSON with a validation error, not a crash', async () => {
    const res = await t.http.post('/api/health').set('Content-Type', 'application/json').send('{"oops":');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, code: 'VALIDATION_ERROR', message: 'Request body is not valid JSON' });
  });
});

describe('the API when a dependency is down', () => {
  it('reports the queue down (503) when Redis does not answer, keeping the details', async () => {
    const t = await createTestApp({ REDIS_URL: 'redis://127.0.0.1:1', QUEUE_CONSUME_IN_API: 'false' });
    try {
      const res = await t.http.get('/api/health');
      expect(res.status).toBe(503);
      expect(res.body.status).toBe('error');
      expect(res.body.details.database.status).toBe('up');
      expect(res.body.details.queue.status).toBe('down');
      expect(res.body.ai).toEqual({ provider: 'preview', generates_with_ai: false }); // the app can still tell
    } finally {
      await t.close();
    }
  });
});

describe('the API with an AI vendor configured', () => {
  it('says in GET /api/health that a vendor renders generations (the user app then shows no preview note)', async () => {
    const t = await createTestApp({ AI_PROVIDER: 'fashn', FASHN_API_KEY: 'fa-test-key' });
    try {
      const res = await t.http.get('/api/health').expect(200);
      expect(res.body.ai).toEqual({ provider: 'fashn', generates_with_ai: true });
    } finally {
      await t.close();
    }
  });
});
