import { FULL_NAME_MAX_LENGTH, FullNameMessages } from '@fitting-room/shared/profile-rules';
import { DataSource } from 'typeorm';
import { bearer, signUp, SignedIn } from '../helpers/auth';
import { createTestApp, TestApp } from '../helpers/test-app';
import type { Pool } from 'pg';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

describe('my profile, settings and stats', () => {
  let t: TestApp;
  let db: DataSource;
  let a: SignedIn;

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
    a = await signUp(t.http, { full_name: 'Ada Lovelace' });
  });
  afterAll(async () => t?.close());

  const me = () => t.http.get('/api/me').set(bearer(a.accessToken));

  it('answers the profile with tier and credits', async () => {
    const res = await me().expect(200);
    expect(res.body).toEqual({
      id: a.userId,
      email: a.email,
      full_name: 'Ada Lovelace',
      tier: 'free',
      credits: 3,
      credit_balance: { subscription: 3, purchased: 0, held: 0 },
      role: 'user',
      age_confirmed: true,
      email_verified: true,
      two_factor_enabled: false,
      has_password: true,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      billing: { payments_enabled: false, portal_available: false, payment_failed: false },
    });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('reads the profile with the session in one statement, and answers the account as it is at that moment', async () => {
    const pool = (db.driver as PostgresDriver).master as Pool;
    const queries = jest.spyOn(pool, 'query');
    try {
      const before = (await me().expect(200)).body;
      expect(queries).toHaveBeenCalledTimes(1); // the session check, which reads the profile too
      // what PATCH answers (the profile's own query) is what GET answers (read with the session)
      const patched = (await t.http.patch('/api/me').set(bearer(a.accessToken)).send({}).expect(200)).body;
      expect(patched).toEqual(before);
    } finally {
      queries.mockRestore();
    }
    // changed behind the API's back: the next read shows it, nothing is kept between requests
    await db.query(`UPDATE credit_accounts SET purchased_balance = purchased_balance + 5, held = held + 2 WHERE user_id = $1`, [a.userId]);
    await db.query(`UPDATE users SET tier = 'starter' WHERE id = $1`, [a.userId]);
    try {
      expect((await me().expect(200)).body).toMatchObject({
        tier: 'starter',
        credits: 3 + 5 - 2,
        credit_balance: { subscription: 3, purchased: 5, held: 2 },
      });
    } finally {
      await db.query(`UPDATE credit_accounts SET purchased_balance = purchased_balance - 5, held = held - 2 WHERE user_id = $1`, [
        a.userId,
      ]);
      await db.query(`UPDATE users SET tier = 'free' WHERE id = $1`, [a.userId]);
    }
  });

  it('changes the full name (trimmed), persists it and records a profile_update activity', async () => {
    const res = await t.http.patch('/api/me').set(bearer(a.accessToken)).send({ full_name: '  Augusta Ada King  ' });
    expect(res.status).toBe(200);
    expect(res.body.full_name).toBe('Augusta Ada King');
    expect((await me()).body.full_name).toBe('Augusta Ada King');
    const rows = await db.query(`SELECT metadata FROM user_activity_logs WHERE user_id = $1 AND activity_type = 'profile_update'`, [
      a.userId,
    ]);
    expect(rows).toEqual([{ metadata: { fields: ['full_name'] } }]);
  });

  it('does not let the email (or role, tier, credits) be changed: 400 and nothing saved', async () => {
    for (const body of [
      { email: 'new@example.com' },
      { full_name: 'Mallory', email: 'new@example.com' },
      { role: 'admin' },
      { tier: 'model_mode' },
      { credits: 500 },
    ]) {
      const res = await t.http.patch('/api/me').set(bearer(a.accessToken)).send(body);
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status: 400, code: 'VALIDATION_ERROR' });
      expect(res.body.message).toMatch(/should not exist/);
    }
    const after = (await me()).body;
    expect(after).toMatchObject({ email: a.email, full_name: 'Augusta Ada King', role: 'user', tier: 'free', credits: 3 });
  });

  it('refuses an empty, blank, too long or non-string full name with a clear message, and keeps the saved one (issue 18, item 9)', async () => {
    const patch = (full_name: unknown) => t.http.patch('/api/me').set(bearer(a.accessToken)).send({ full_name });
    const cases: [unknown, string][] = [
      ['', FullNameMessages.required],
      ['   ', FullNameMessages.required],
      ['x'.repeat(FULL_NAME_MAX_LENGTH + 1), FullNameMessages.tooLong],
      ['x'.repeat(300), FullNameMessages.tooLong],
      [42, FullNameMessages.required],
    ];
    for (const [value, message] of cases) {
      const res = await patch(value);
      expect({ value, status: res.status, code: res.body.code, message: res.body.message }).toEqual({
        value,
        status: 400,
        code: 'VALIDATION_ERROR',
        message,
      });
    }
    expect(FullNameMessages).toEqual({ required: 'Full name is required', tooLong: 'Full name must be at most 200 characters' });
    expect((await me()).body.full_name).toBe('Augusta Ada King');
    // the longest name allowed is saved, and so is the name again
    expect((await patch('y'.repeat(FULL_NAME_MAX_LENGTH))).status).toBe(200);
    expect((await patch('Augusta Ada King')).body.full_name).toBe('Augusta Ada King');
  });

  it('has the default settings (on, on, off) until saved, then keeps what was saved', async () => {
    const s = await signUp(t.http);
    const get = () => t.http.get('/api/me/settings').set(bearer(s.accessToken));
    expect((await get()).body).toEqual({ email_notifications: true, generation_notifications: true, marketing_emails: false });
    const saved = { email_notifications: false, generation_notifications: true, marketing_emails: true };
    const put = await t.http.put('/api/me/settings').set(bearer(s.accessToken)).send(saved);
    expect(put.status).toBe(200);
    expect(put.body).toEqual(saved);
    expect((await get()).body).toEqual(saved);
    const [row] = await db.query(
      `SELECT email_notifications, generation_notifications, marketing_emails FROM user_settings WHERE user_id = $1`,
      [s.userId],
    );
    expect(row).toEqual(saved);
    const again = { email_notifications: true, generation_notifications: false, marketing_emails: false };
    await t.http.put('/api/me/settings').set(bearer(s.accessToken)).send(again).expect(200);
    expect((await get()).body).toEqual(again);
    const activity = await db.query(
      `SELECT metadata FROM user_activity_logs WHERE user_id = $1 AND activity_type = 'settings_update' ORDER BY created_at`,
      [s.userId],
    );
    expect(activity.map((r: { metadata: unknown }) => r.metadata)).toEqual([saved, again]);
  });

  it('refuses incomplete or non-boolean settings', async () => {
    for (const body of [
      { email_notifications: false },
      { email_notifications: 'no', generation_notifications: true, marketing_emails: false },
      {},
    ]) {
      const res = await t.http.put('/api/me/settings').set(bearer(a.accessToken)).send(body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
  });

  it('answers zero stats, with the last recorded activity or null', async () => {
    const s = await signUp(t.http);
    const stats = await t.http.get('/api/me/stats').set(bearer(s.accessToken)).expect(200);
    expect(stats.body).toEqual({
      total_generations: 0,
      successful_generations: 0,
      failed_generations: 0,
      total_credits_spent: 0,
      last_activity: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    await db.query(`DELETE FROM user_activity_logs WHERE user_id = $1`, [s.userId]);
    expect((await t.http.get('/api/me/stats').set(bearer(s.accessToken))).body.last_activity).toBeNull();
  });

  it('lets an account confirm 18+ once (Google accounts start unconfirmed), and never unconfirm', async () => {
    const s = await signUp(t.http);
    await db.query(`UPDATE users SET age_confirmed_at = NULL WHERE id = $1`, [s.userId]);
    expect((await t.http.get('/api/me').set(bearer(s.accessToken))).body.age_confirmed).toBe(false);
    expect((await t.http.patch('/api/me').set(bearer(s.accessToken)).send({ age_confirmed: false })).body).toEqual({
      statusCode: 400,
      code: 'VALIDATION_ERROR',
      message: 'You must confirm that you are 18 or older',
    });
    const res = await t.http.patch('/api/me').set(bearer(s.accessToken)).send({ age_confirmed: true }).expect(200);
    expect(res.body.age_confirmed).toBe(true);
    const [row] = await db.query(`SELECT age_confirmed_at FROM users WHERE id = $1`, [s.userId]);
    expect(row.age_confirmed_at).not.toBeNull();
  });
});
