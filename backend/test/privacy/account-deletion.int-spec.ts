import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CreditsService } from '../../src/modules/credits/credits.service';
import { UploadEntity } from '../../src/modules/uploads/upload.entity';
import { STORAGE, type StoragePort } from '../../src/storage';
import { bearer, cookieValue, PASSWORD, refreshWith, signIn, signUp, type SignedIn, turnOnTwoFactor, uniqueEmail } from '../helpers/auth';
import { createTestApp, type TestApp, uniqueId } from '../helpers/test-app';

const CONFIRM_MESSAGE = 'To delete your account and all its data, send confirm: "DELETE".';

/** Every table of the schema whose rows could hold personal data (all but TypeORM's own). */
async function userTables(db: DataSource): Promise<string[]> {
  const rows: Array<{ table_name: string }> = await db.query(
    `SELECT table_name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name NOT IN ('migrations', 'typeorm_metadata')
      ORDER BY table_name`,
  );
  return rows.map((r) => r.table_name);
}

/** For each table, how many rows mention any of `needles` anywhere (every column, JSON included). */
async function rowsMentioning(db: DataSource, needles: string[]): Promise<Record<string, number>> {
  const found: Record<string, number> = {};
  for (const table of await userTables(db)) {
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM "${table}" t WHERE t::text ILIKE ANY($1)`, [
      needles.map((s) => `%${s}%`),
    ]);
    if (n > 0) found[table] = n;
  }
  return found;
}

async function ledgerOf(db: DataSource, userId: string): Promise<Array<{ id: string; amount: number; bucket: string }>> {
  return db.query(`SELECT id, amount, bucket FROM credit_ledger_entries WHERE user_id = $1 ORDER BY id`, [userId]);
}

/** For each bucket, the ledger of `userId` sums to its balance. */
async function expectBooksBalance(db: DataSource, userId: string): Promise<void> {
  const [account] = await db.query(`SELECT subscription_balance, purchased_balance FROM credit_accounts WHERE user_id = $1`, [userId]);
  const [sums] = await db.query(
    `SELECT coalesce(sum(amount) FILTER (WHERE bucket = 'subscription'), 0)::int AS subscription,
            coalesce(sum(amount) FILTER (WHERE bucket = 'purchased'), 0)::int AS purchased
       FROM credit_ledger_entries WHERE user_id = $1`,
    [userId],
  );
  expect({ subscription: account.subscription_balance, purchased: account.purchased_balance }).toEqual(sums);
}

async function waitFor(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('DELETE /api/me: "Delete All My Data"', () => {
  let t: TestApp;
  let db: DataSource;
  let storage: StoragePort;
  let credits: CreditsService;

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
    storage = t.app.get<StoragePort>(STORAGE);
    credits = t.app.get(CreditsService);
  });
  afterAll(async () => t?.close());

  const jpeg = Buffer.from('not really a jpeg, the storage does not care');

  /** A user with a bit of everything: two sessions, a renamed profile, settings, activity, credits spent and added, files. */
  async function busyUser(): Promise<{ me: SignedIn; second: SignedIn; fullName: string; files: string[] }> {
    const fullName = `Person ${uniqueId('name')}`;
    const me = await signUp(t.http, { full_name: fullName });
    const second = await signIn(t.http, me.email);
    await t.http
      .patch('/api/me')
      .set(bearer(me.accessToken))
      .send({ full_name: `${fullName} Renamed` })
      .expect(200);
    await t.http
      .put('/api/me/settings')
      .set(bearer(me.accessToken))
      .send({ email_notifications: false, generation_notifications: true, marketing_emails: true })
      .expect(200);
    const generationId = randomUUID();
    await credits.hold(me.userId, generationId, 1);
    await credits.capture(generationId, 'Image generation');
    await credits.adjust({ userId: me.userId, mode: 'add', amount: 7, reason: 'goodwill', actorId: me.userId });
    const files = [`users/${me.userId}/uploads/a.jpg`, `users/${me.userId}/uploads/b.jpg`, `users/${me.userId}/results/c/result.jpg`];
    for (const key of files) await storage.put(key, jpeg, { contentType: 'image/jpeg' });
    await db.getRepository(UploadEntity).insert({
      id: randomUUID(),
      userId: me.userId,
      storageKey: files[0],
      width: 10,
      height: 10,
      sizeBytes: jpeg.length,
      receivedBytes: jpeg.length,
    });
    return { me, second, fullName, files };
  }

  it('refuses without the confirmation and changes nothing', async () => {
    const { me } = await busyUser();
    for (const body of [undefined, {}, { confirm: 'delete' }, { confirm: 'yes' }, { confirm: true }, { confirm: 'DELETE', also: 'this' }]) {
      let req = t.http.delete('/api/me').set(bearer(me.accessToken));
      if (body !== undefined) req = req.send(body);
      const res = await req;
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status: 400, code: 'VALIDATION_ERROR' });
    }
    const res = await t.http.delete('/api/me').set(bearer(me.accessToken)).send({});
    expect(res.body).toEqual({ statusCode: 400, code: 'VALIDATION_ERROR', message: CONFIRM_MESSAGE });
    await t.http.get('/api/me').set(bearer(me.accessToken)).expect(200);
    expect(await storage.exists(`users/${me.userId}/uploads/a.jpg`)).toBe(true);
  });

  it('asks again who it is: the password, else a two-factor code, else (Google only) a fresh Google sign-in; wrong or missing deletes nothing', async () => {
    const still = async (who: SignedIn) => {
      expect((await db.query(`SELECT count(*)::int AS n FROM users WHERE id = $1`, [who.userId]))[0].n).toBe(1);
    };
    const remove = (who: SignedIn, body: Record<string, unknown>) =>
      t.http
        .delete('/api/me')
        .set(bearer(who.accessToken))
        .send({ confirm: 'DELETE', ...body });

    // a password account
    const me = await signUp(t.http);
    expect((await remove(me, {})).body).toEqual({
      statusCode: 400,
      code: 'VALIDATION_ERROR',
      message: 'Please enter your password to delete your account.',
    });
    expect((await remove(me, { password: 'not-my-password-1' })).body).toEqual({
      statusCode: 400,
      code: 'WRONG_PASSWORD',
      message: 'Your current password is not right.',
    });
    await still(me);

    // two-factor on: a code of the app or a recovery code, the password alone is not enough
    const careful = await signUp(t.http);
    const { recoveryCodes } = await turnOnTwoFactor(t.http, careful.accessToken);
    expect((await remove(careful, { password: PASSWORD })).body).toMatchObject({ statusCode: 400, code: 'VALIDATION_ERROR' });
    expect((await remove(careful, { code: '000000' })).body).toMatchObject({ statusCode: 400, code: 'INVALID_CODE' });
    await still(careful);
    await remove(careful, { code: recoveryCodes[0] }).expect(204);
    expect((await db.query(`SELECT count(*)::int AS n FROM users WHERE id = $1`, [careful.userId]))[0].n).toBe(0);

    // Google only: a session older than five minutes is refused, a fresh one may delete
    const google = await signUp(t.http);
    await db.query(`UPDATE users SET password_hash = NULL, google_sub = $2 WHERE id = $1`, [google.userId, `g-${google.userId}`]);
    await db.query(`UPDATE sessions SET created_at = now() - interval '6 minutes' WHERE user_id = $1`, [google.userId]);
    expect((await remove(google, {})).body).toEqual({
      statusCode: 403,
      code: 'REAUTH_REQUIRED',
      message: 'For your safety, sign in with Google again, then delete your account within 5 minutes.',
    });
    await still(google);
    await db.query(`UPDATE sessions SET created_at = now() - interval '1 minute' WHERE user_id = $1`, [google.userId]);
    await remove(google, {}).expect(204);

    // the password one, with its password
    await remove(me, { password: PASSWORD }).expect(204);
  });

  it('deletes an account while one of its generations completes: both finish, neither meets a deadlock', async () => {
    const me = await signUp(t.http);
    const [{ id }] = await db.query(
      `INSERT INTO user_generations (id, user_id, type, status, cost, category, prompt, metadata, stage, max_polls, provider, tier)
       VALUES (gen_random_uuid(), $1, 'image', 'processing', 1, 'bikini', 'show the woman', '{}', 'finalizing', 60, 'preview', 'free')
       RETURNING id`,
      [me.userId],
    );
    // the completion's order: the generation's row first, then (the gallery's version trigger) the account's row
    const completion = db.createQueryRunner();
    await completion.connect();
    try {
      await completion.startTransaction();
      await completion.query(`SELECT id FROM user_generations WHERE id = $1 FOR UPDATE`, [id]);
      const deletion = t.http
        .delete('/api/me')
        .set(bearer(me.accessToken))
        .send({ confirm: 'DELETE', password: PASSWORD })
        .then((res) => res.status);
      // the deletion is under way and waits for a lock
      await waitFor(async () => {
        const [{ n }] = await db.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        return n > 0;
      });
      await completion.query(
        `UPDATE user_generations SET status = 'completed', stage = 'complete', result_key = 'k', completed_at = now() WHERE id = $1`,
        [id],
      );
      await completion.commitTransaction();
      expect(await deletion).toBe(204);
    } finally {
      if (completion.isTransactionActive) await completion.rollbackTransaction();
      await completion.release();
    }
    expect(await db.query(`SELECT id FROM users WHERE id = $1`, [me.userId])).toEqual([]);
  });

  it('refuses an anonymous caller (401)', async () => {
    const res = await t.http.delete('/api/me').send({ confirm: 'DELETE', password: PASSWORD });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('AUTH_ERROR');
  });

  it('deletes the account: no sign-in, no token, no file, no row holds its id, email or name; ledger kept anonymous; others untouched', async () => {
    const victim = await busyUser();
    const other = await busyUser();
    const { me } = victim;
    const ledgerBefore = await ledgerOf(db, me.userId);
    expect(ledgerBefore.length).toBeGreaterThanOrEqual(3); // monthly grant, generation charge, admin add
    const [{ total: ledgerTotalBefore }] = await db.query(`SELECT sum(amount)::int AS total FROM credit_ledger_entries`);
    const analyticsBefore: Array<{ id: string }> = await db.query(`SELECT id FROM analytics_events WHERE user_id = $1`, [me.userId]);
    expect(analyticsBefore.length).toBeGreaterThan(0);
    const [{ n: signupsBefore }] = await db.query(`SELECT count(*)::int AS n FROM analytics_events WHERE event = 'user_signup'`);
    // the victim's data really is there before, so the "nothing left" check below can fail
    const needles = [me.userId, me.email, victim.fullName];
    const before = await rowsMentioning(db, needles);
    expect(Object.keys(before)).toEqual(
      expect.arrayContaining([
        'users',
        'sessions',
        'user_settings',
        'user_activity_logs',
        'analytics_events',
        'credit_accounts',
        'credit_ledger_entries',
        'credit_holds',
        'uploads',
      ]),
    );

    const res = await t.http
      .delete('/api/me')
      .set(bearer(me.accessToken))
      .set('Cookie', `fr_refresh=${me.refreshToken}`)
      .send({ confirm: 'DELETE', password: PASSWORD });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(cookieValue(res, 'fr_refresh')).toBe('');

    // signed out everywhere, and cannot come back
    const signInAgain = await t.http.post('/api/auth/sign-in').send({ email: me.email, password: PASSWORD });
    expect(signInAgain.status).toBe(401);
    for (const token of [me.accessToken, victim.second.accessToken]) {
      const r = await t.http.get('/api/me').set(bearer(token));
      expect(r.status).toBe(401);
      expect(r.body.code).toBe('AUTH_ERROR');
    }
    for (const refresh of [me.refreshToken, victim.second.refreshToken]) expect((await refreshWith(t.http, refresh)).status).toBe(401);
    expect(
      (await t.http.delete('/api/me').set(bearer(victim.second.accessToken)).send({ confirm: 'DELETE', password: PASSWORD })).status,
    ).toBe(401);

    // files gone
    for (const key of victim.files) expect({ key, exists: await storage.exists(key) }).toEqual({ key, exists: false });

    // no row anywhere holds the id, the email or the name
    expect(await rowsMentioning(db, needles)).toEqual({});

    // the books: the same entries, anonymised, and every total unchanged
    const kept: Array<{ id: string; amount: number; bucket: string; user_id: string | null }> = await db.query(
      `SELECT id, amount, bucket, user_id FROM credit_ledger_entries WHERE id = ANY($1::bigint[]) ORDER BY id`,
      [ledgerBefore.map((e) => e.id)],
    );
    expect(kept).toEqual(ledgerBefore.map((e) => ({ ...e, user_id: null })));
    const [{ total: ledgerTotalAfter }] = await db.query(`SELECT sum(amount)::int AS total FROM credit_ledger_entries`);
    expect(ledgerTotalAfter).toBe(ledgerTotalBefore);

    // analytics keep their rows (counts) but nothing personal
    const events: Array<{ user_id: string | null; properties: object }> = await db.query(
      `SELECT user_id, properties FROM analytics_events WHERE id = ANY($1::uuid[])`,
      [analyticsBefore.map((e) => e.id)],
    );
    expect(events).toEqual(analyticsBefore.map(() => ({ user_id: null, properties: {} })));
    const [{ n: signupsAfter }] = await db.query(`SELECT count(*)::int AS n FROM analytics_events WHERE event = 'user_signup'`);
    expect(signupsAfter).toBe(signupsBefore);

    // the other user: untouched
    const o = other.me;
    const profile = await t.http.get('/api/me').set(bearer(o.accessToken)).expect(200);
    expect(profile.body).toMatchObject({ id: o.userId, email: o.email, full_name: `${other.fullName} Renamed` });
    expect((await t.http.get('/api/me/settings').set(bearer(o.accessToken)).expect(200)).body).toEqual({
      email_notifications: false,
      generation_notifications: true,
      marketing_emails: true,
    });
    for (const key of other.files) expect(await storage.exists(key)).toBe(true);
    expect((await refreshWith(t.http, other.second.refreshToken)).status).toBe(200);
    expect(await rowsMentioning(db, [o.userId])).toEqual(expect.objectContaining({ users: 1, user_settings: 1, credit_accounts: 1 }));
    const [signup] = await db.query(`SELECT properties FROM analytics_events WHERE user_id = $1 AND event = 'user_signup'`, [o.userId]);
    expect(signup.properties).toMatchObject({ email: o.email });
    await expectBooksBalance(db, o.userId);
    await signIn(t.http, o.email);
  });

  it('leaves no email, name or words of the person in the audit trail, notifications, ledger reasons or tickets; a report of another image stays, anonymised', async () => {
    const staff = await signUp(t.http, { email: uniqueEmail('deletion-admin'), full_name: 'Desk Admin' });
    await db.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [staff.userId]);
    const fullName = `Orla ${uniqueId('surname').replace(/[^a-z]/gi, '')}`;
    const person = await signUp(t.http, { full_name: fullName });
    const words = `my cousin filmed me ${uniqueId('secret')}`;
    // an admin adjusts their credits, typing their name and address in the reason (audit + ledger)
    await t.http
      .post(`/api/admin/users/${person.userId}/credits`)
      .set(bearer(staff.accessToken))
      .send({ mode: 'add', amount: 2, reason: `refund for ${fullName} (${person.email})` })
      .expect(200);
    // they write to support twice, signed in: a question, and a report about someone else's image
    const question = await t.http
      .post('/api/support/inquiries')
      .set(bearer(person.accessToken))
      .send({ name: fullName, email: person.email, subject: `Billing for ${fullName}`, message: words })
      .expect(201);
    const reportedImage = randomUUID();
    const report = await t.http
      .post('/api/support/inquiries')
      .set(bearer(person.accessToken))
      .send({
        name: fullName,
        email: person.email,
        subject: 'Please remove this picture',
        message: `It shows me. ${fullName}, ${person.email}`,
        kind: 'abuse_report',
        generation_id: reportedImage,
      })
      .expect(201);
    // an admin answers the question by name, and changes its status (audited)
    await t.http
      .post(`/api/admin/support-inquiries/${question.body.id}/messages`)
      .set(bearer(staff.accessToken))
      .send({ kind: 'note', body: `Called ${fullName} back` })
      .expect(201);
    await t.http
      .patch(`/api/admin/support-inquiries/${question.body.id}`)
      .set(bearer(staff.accessToken))
      .send({ status: 'in_progress' })
      .expect(200);
    const needles = [person.email, fullName, ...fullName.split(' ').filter((p) => p.length > 3), words, `Billing for ${fullName}`];
    const before = await rowsMentioning(db, needles);
    expect(Object.keys(before)).toEqual(
      expect.arrayContaining(['audit_log', 'credit_ledger_entries', 'support_inquiries', 'support_messages', 'system_notifications']),
    );

    await t.http.delete('/api/me').set(bearer(person.accessToken)).send({ confirm: 'DELETE', password: PASSWORD }).expect(204);

    expect(await rowsMentioning(db, needles)).toEqual({});
    expect(await rowsMentioning(db, [person.userId])).toEqual({});
    // the report stays, for its takedown, without its sender; the question stays as a record, emptied
    const [kept] = await db.query(
      `SELECT kind, name, email, user_id, generation_id, priority, subject, message FROM support_inquiries WHERE id = $1`,
      [report.body.id],
    );
    expect(kept).toEqual({
      kind: 'abuse_report',
      name: '',
      email: '',
      user_id: null,
      generation_id: reportedImage,
      priority: 'high',
      subject: 'Please remove this picture',
      message: 'It shows me. [removed], [removed]',
    });
    const [emptied] = await db.query(`SELECT name, email, subject, message FROM support_inquiries WHERE id = $1`, [question.body.id]);
    expect(emptied).toEqual({ name: '', email: '', subject: '[removed]', message: '[removed] (the sender deleted their account)' });
    // the audit trail still reads: who did what, to a pseudonym
    const trail = await db.query(
      `SELECT action, actor_id, target_id, target_user_id, target_email FROM audit_log WHERE actor_id = $1 AND action = 'user.credits.add'`,
      [staff.userId],
    );
    expect(trail).toEqual([
      {
        action: 'user.credits.add',
        actor_id: staff.userId,
        target_id: expect.stringMatching(/^deleted:[0-9a-f]{16}$/),
        target_user_id: null,
        target_email: null,
      },
    ]);
  });

  it("an admin who adjusted someone's credits can delete their account: the entry keeps its amount, without the actor", async () => {
    const admin = await signUp(t.http, { email: uniqueEmail('actor') });
    const customer = await signUp(t.http);
    await credits.adjust({ userId: customer.userId, mode: 'add', amount: 5, reason: 'support goodwill', actorId: admin.userId });
    await t.http.delete('/api/me').set(bearer(admin.accessToken)).send({ confirm: 'DELETE', password: PASSWORD }).expect(204);
    const entries = await db.query(`SELECT kind, amount, actor_id FROM credit_ledger_entries WHERE user_id = $1 AND kind = 'admin_add'`, [
      customer.userId,
    ]);
    expect(entries).toEqual([{ kind: 'admin_add', amount: 5, actor_id: null }]);
    await expectBooksBalance(db, customer.userId);
  });

  it('deletes the rows even when the storage fails, and a queued cleanup job removes the files afterwards', async () => {
    const { me, files } = await busyUser();
    const spy = jest.spyOn(storage, 'deletePrefix').mockRejectedValueOnce(new Error('storage unavailable'));
    try {
      await t.http.delete('/api/me').set(bearer(me.accessToken)).send({ confirm: 'DELETE', password: PASSWORD }).expect(204);
      const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM users WHERE id = $1`, [me.userId]);
      expect(n).toBe(0);
      // the in-process queue runs the cleanup job in this process
      // the job deletes the files one by one: wait for the last
      await waitFor(async () => (await Promise.all(files.map((key) => storage.exists(key)))).every((exists) => !exists));
      for (const key of files) expect(await storage.exists(key)).toBe(false);
      // the request's attempt (failed) and the job's
      expect(spy.mock.calls.length).toBeGreaterThanOrEqual(2);
      await expect(spy.mock.results[0].value).rejects.toThrow('storage unavailable');
      expect(spy.mock.calls.every(([prefix]) => prefix === `users/${me.userId}/`)).toBe(true);
    } finally {
      spy.mockRestore();
    }
  });

  it('every foreign key to users is ON DELETE CASCADE or SET NULL, so that no table can block or outlive a deletion', async () => {
    const fks: Array<{ table: string; column: string; constraint: string; on_delete: string }> = await db.query(
      `SELECT rel.relname AS table, att.attname AS column, con.conname AS constraint,
              CASE con.confdeltype WHEN 'c' THEN 'CASCADE' WHEN 'n' THEN 'SET NULL' WHEN 'd' THEN 'SET DEFAULT'
                                   WHEN 'r' THEN 'RESTRICT' WHEN 'a' THEN 'NO ACTION' END AS on_delete
         FROM pg_constraint con
         JOIN pg_class rel ON rel.oid = con.conrelid
         JOIN pg_namespace ns ON ns.oid = rel.relnamespace
         JOIN pg_attribute att ON att.attrelid = con.conrelid AND att.attnum = ANY (con.conkey)
        WHERE con.contype = 'f' AND con.confrelid = 'public.users'::regclass AND ns.nspname = 'public'
        ORDER BY 1, 2`,
    );
    const tables = new Set(fks.map((f) => f.table));
    for (const known of [
      'sessions',
      'user_settings',
      'user_activity_logs',
      'analytics_events',
      'credit_accounts',
      'credit_ledger_entries',
      'credit_holds',
      'uploads',
      'user_generations',
    ]) {
      expect(tables).toContain(known);
    }
    expect(fks.filter((f) => f.on_delete !== 'CASCADE' && f.on_delete !== 'SET NULL')).toEqual([]);
    // the ledger and analytics outlive the account anonymised; everything else of the account goes with it
    expect(
      fks
        .filter((f) => f.on_delete === 'SET NULL')
        .map((f) => `${f.table}.${f.column}`)
        .sort(),
    ).toEqual(expect.arrayContaining(['analytics_events.user_id', 'credit_ledger_entries.actor_id', 'credit_ledger_entries.user_id']));
    // a SET NULL column that outlives the account must not be NOT NULL (the delete would fail)
    for (const fk of fks.filter((f) => f.on_delete === 'SET NULL')) {
      const [{ is_nullable }] = await db.query(
        `SELECT is_nullable FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1 AND column_name = $2`,
        [fk.table, fk.column],
      );
      expect({ fk: fk.constraint, is_nullable }).toEqual({ fk: fk.constraint, is_nullable: 'YES' });
    }
  });

  it('every table with a user_id column refers to users, so that the deletion reaches it', async () => {
    const columns: Array<{ table_name: string }> = await db.query(
      `SELECT c.table_name FROM information_schema.columns c
         JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
        WHERE c.table_schema = 'public' AND c.column_name = 'user_id' ORDER BY 1`,
    );
    const referencing: Array<{ table: string }> = await db.query(
      `SELECT DISTINCT rel.relname AS table FROM pg_constraint con JOIN pg_class rel ON rel.oid = con.conrelid
        JOIN pg_attribute att ON att.attrelid = con.conrelid AND att.attnum = ANY (con.conkey)
       WHERE con.contype = 'f' AND con.confrelid = 'public.users'::regclass AND att.attname = 'user_id'`,
    );
    const withFk = new Set(referencing.map((r) => r.table));
    expect(columns.map((c) => c.table_name).filter((table) => !withFk.has(table))).toEqual([]);
  });
});
