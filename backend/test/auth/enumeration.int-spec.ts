import { PASSWORD, signUp, uniqueEmail } from '../helpers/auth';
import { createTestApp, TestApp } from '../helpers/test-app';

type Probe = (email: string) => Promise<{ status: number; body: unknown; ms: number }>;

/**
 * Nothing tells whether an address has an account: sign-in, "Resend" and "Forgot password?" answer
 * a taken address and a free one with the same status, the same body (random ids and tokens aside)
 * and about the same time; sign-up with the same words, status family and time (only a new address
 * gets a session, as the sign-up contract says: docs/accounts.md).
 */
describe('no account enumeration', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  /** The body with what is random per answer (ids, tokens, times, the address itself) blanked. */
  function shape(body: unknown, email: string): unknown {
    return JSON.parse(
      JSON.stringify(body)
        .replaceAll(email, '<email>')
        .replace(/"(id|access_token|mfa_token|created_at)":"[^"]*"/g, '"$1":"<x>"')
        .replace(/"expires_at":\d+/g, '"expires_at":0'),
    );
  }

  const timed =
    (send: (email: string) => Promise<{ status: number; body: unknown }>): Probe =>
    async (email) => {
      const t0 = process.hrtime.bigint();
      const res = await send(email);
      return { status: res.status, body: shape(res.body, email), ms: Number(process.hrtime.bigint() - t0) / 1e6 };
    };

  // 10 rounds: with 5, the fastest of each still held a pause of the loaded CI machine (74 ms against 41)
  async function compare(probe: Probe, taken: () => Promise<string>, rounds = 10): Promise<void> {
    const known: Awaited<ReturnType<Probe>>[] = [];
    const unknown: Awaited<ReturnType<Probe>>[] = [];
    for (let i = 0; i < rounds; i++) {
      known.push(await probe(await taken()));
      unknown.push(await probe(uniqueEmail('free')));
    }
    expect(unknown.map((r) => [r.status, r.body])).toEqual(known.map((r) => [r.status, r.body]));
    // the fastest of each: a stalled machine only adds time, so the minimum leaves its pauses out
    const [k, u] = [Math.min(...known.map((r) => r.ms)), Math.min(...unknown.map((r) => r.ms))];
    // within 40% of each other, or 15 ms for answers that take almost nothing
    expect(Math.abs(k - u)).toBeLessThan(Math.max(15, 0.4 * Math.max(k, u)));
  }

  it('sign-up: the words and the status family (a session only for a new address: docs/accounts.md)', async () => {
    const owner = await signUp(t.http);
    await compare(
      timed(async (email) => {
        const res = await t.http
          .post('/api/auth/sign-up')
          .send({ full_name: 'Probe', email, password: 'probing-password-12', age_confirmed: true });
        // what a person sees: 2xx and the message; the session is the contract's residual signal
        return { status: Math.floor(res.status / 100), body: { message: res.body.message } };
      }),
      async () => owner.email,
    );
  });

  it('sign-in with a wrong password', async () => {
    const owner = await signUp(t.http);
    await compare(
      timed((email) => t.http.post('/api/auth/sign-in').send({ email, password: `not-${PASSWORD}` })),
      async () => owner.email,
    );
  });

  it('"Resend" a verification link, signed out', async () => {
    const waiting = await signUp(t.http, { verified: false });
    await compare(
      timed((email) => t.http.post('/api/auth/verify-email/resend').send({ email })),
      async () => waiting.email,
    );
  });

  it('"Forgot password?"', async () => {
    const owner = await signUp(t.http);
    await compare(
      timed((email) => t.http.post('/api/auth/password/forgot').send({ email })),
      async () => owner.email,
    );
  });
});
