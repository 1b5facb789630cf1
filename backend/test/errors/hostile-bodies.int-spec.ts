import { Logger } from '@nestjs/common';
import { bearer, signUp } from '../helpers/auth';
import { createTestApp, TestApp } from '../helpers/test-app';

/**
 * Bodies that used to end in a 500 (and a log line full of what the person typed): a JSON body
 * nested 10,000 deep, a NUL character in a name or a message, a JSON body over the limit.
 */
describe('hostile request bodies', () => {
  let t: TestApp;
  const logged: string[] = [];
  let spies: jest.SpyInstance[] = [];

  beforeAll(async () => {
    t = await createTestApp({ LOG_LEVEL: 'info' });
    for (const level of ['log', 'error', 'warn'] as const) {
      spies.push(
        jest.spyOn(Logger.prototype, level).mockImplementation(function (this: Logger, ...args: unknown[]) {
          logged.push(JSON.stringify(args, (_k, v) => (v instanceof Error ? { ...v, message: v.message } : v)));
        }),
      );
    }
  });
  afterAll(async () => {
    spies.forEach((s) => s.mockRestore());
    spies = [];
    await t?.close();
  });

  const deep = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

  it('answers a body nested 10,000 deep with a 400, signed out and signed in', async () => {
    const body = deep(10_000);
    const signUpRes = await t.http.post('/api/auth/sign-up').set('Content-Type', 'application/json').send(body);
    expect(signUpRes.body).toEqual({
      statusCode: 400,
      code: 'VALIDATION_ERROR',
      message: 'The request body is nested too deeply (at most 32 levels)',
    });
    const who = await signUp(t.http);
    const patch = await t.http.patch('/api/me').set(bearer(who.accessToken)).set('Content-Type', 'application/json').send(body);
    expect(patch.status).toBe(400);
    // a body of ordinary depth still works
    await t.http.patch('/api/me').set(bearer(who.accessToken)).send({ full_name: 'Still Fine' }).expect(200);
  });

  it('answers a NUL character with a 400 and logs none of the words sent', async () => {
    const who = await signUp(t.http);
    const secretName = `Nul\u0000Name ${Date.now()}`;
    expect((await t.http.patch('/api/me').set(bearer(who.accessToken)).send({ full_name: secretName })).body).toEqual({
      statusCode: 400,
      code: 'VALIDATION_ERROR',
      message: 'Text must not contain the NUL character',
    });
    const contact = { name: 'Zed Private', email: 'zed.private@example.com', subject: 'Hi', message: `my secret\u0000words` };
    expect((await t.http.post('/api/support/inquiries').send(contact)).status).toBe(400);
    // the multipart form of the contact form too
    const multipart = await t.http
      .post('/api/support/inquiries')
      .field('name', 'Zed\u0000Private')
      .field('email', 'zed.private@example.com')
      .field('subject', 'Hi')
      .field('message', 'x');
    expect(multipart.status).toBe(400);
    const all = logged.join('\n');
    for (const word of ['Zed Private', 'zed.private@example.com', 'my secret', 'NulName', secretName]) expect(all).not.toContain(word);
  });

  it('says what was too large when a JSON body passes 1 MB', async () => {
    const res = await t.http
      .post('/api/support/inquiries')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ name: 'x', message: 'y'.repeat(1_100_000) }));
    expect(res.body).toEqual({ statusCode: 413, code: 'PAYLOAD_TOO_LARGE', message: 'The request body is too large (at most 1 MB).' });
  });
});
