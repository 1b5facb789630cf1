import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { SESSIONS_RETENTION_DAYS, SessionsCleanupJob } from '../../src/modules/auth/sessions-cleanup.job';
import { JobName, JobRegistry, MessageQueueService } from '../../src/queue';
import { bearer, refreshWith, signUp } from '../helpers/auth';
import { createTestApp, type TestApp } from '../helpers/test-app';

const DAY = 24 * 3600 * 1000;
const daysFromNow = (n: number) => new Date(Date.now() + n * DAY);

describe('the ended-sessions cleanup', () => {
  let t: TestApp;
  let db: DataSource;
  let job: SessionsCleanupJob;
  let userId: string;

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
    job = t.app.get(SessionsCleanupJob);
    userId = (await signUp(t.http)).userId;
    // the cleanup this app scheduled at start has run: from here on only the tests run it
    const queue = t.app.get(MessageQueueService);
    for (const until = Date.now() + 5000; Date.now() < until;) {
      const c = await queue.counts();
      if (c.active === 0 && c.waiting === 0) break;
      await new Promise((r) => setTimeout(r, 25));
    }
  });
  afterAll(async () => t?.close());

  /** A session row of `userId` with the given absolute expiry and, optionally, revocation time. */
  async function session(expiresAt: Date, revokedAt: Date | null = null): Promise<string> {
    const id = randomUUID();
    await db.query(
      `INSERT INTO sessions (id, user_id, token_hash, expires_at, revoked_at, revoke_reason) VALUES ($1, $2, $3, $4, $5, $6)`,
      [id, userId, 'a'.repeat(64), expiresAt, revokedAt, revokedAt ? 'sign_out' : null],
    );
    return id;
  }
  const exists = async (id: string) => (await db.query(`SELECT 1 FROM sessions WHERE id = $1`, [id])).length === 1;

  it('deletes sessions that expired or were revoked more than the retention ago, and only those', async () => {
    const r = SESSIONS_RETENTION_DAYS;
    const live = await session(daysFromNow(20));
    const expiredRecently = await session(daysFromNow(-(r - 1)));
    const expiredLongAgo = await session(daysFromNow(-(r + 1)));
    const revokedRecently = await session(daysFromNow(10), daysFromNow(-(r - 1)));
    const revokedLongAgo = await session(daysFromNow(10), daysFromNow(-(r + 1)));

    expect(await job.sweep()).toBeGreaterThanOrEqual(2);
    expect(await exists(live)).toBe(true);
    expect(await exists(expiredRecently)).toBe(true);
    expect(await exists(revokedRecently)).toBe(true);
    expect(await exists(expiredLongAgo)).toBe(false);
    expect(await exists(revokedLongAgo)).toBe(false);
    // idempotent: nothing left to delete of these
    await job.sweep();
    expect(await exists(live)).toBe(true);
  });

  it('leaves a signed-in account signed in: its token and refresh still work after a sweep', async () => {
    const person = await signUp(t.http);
    await job.sweep();
    await t.http.get('/api/me').set(bearer(person.accessToken)).expect(200);
    await refreshWith(t.http, person.refreshToken).expect(200);
  });

  it('is a queue job with exactly one handler', () => {
    expect(t.app.get(JobRegistry).get(JobName.SessionsCleanup)?.owner).toBe('SessionsCleanupJob.handleSessionsCleanup');
  });
});
