import { DataSource } from 'typeorm';
import { AuditService } from '../../src/modules/audit/audit.service';
import { planForTier } from '../../src/modules/catalog/plans';
import { bearer, PASSWORD, signUp, SignedIn, uniqueEmail } from '../helpers/auth';
import { createTestApp, TestApp } from '../helpers/test-app';

/**
 * The console's API against the real PostgreSQL: search, the credit adjustment's messages and its
 * ledger rows, the tier change and what it unlocks, the stats, the audit trail of every action.
 */
describe('admin API', () => {
  let t: TestApp;
  let db: DataSource;
  let admin: SignedIn;
  const adminEmail = uniqueEmail('console-admin');
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

  beforeAll(async () => {
    t = await createTestApp({ ADMIN_EMAILS: adminEmail });
    db = t.app.get(DataSource);
    admin = await signUp(t.http, { email: adminEmail, full_name: 'Console Admin' });
  });
  afterAll(async () => t?.close());

  const auditRows = (targetUserId: string) =>
    db.query(
      `SELECT actor_id, action, target_type, target_id, target_user_id, before, after FROM audit_log WHERE target_user_id = $1 ORDER BY created_at, id`,
      [targetUserId],
    );

  it('searches users case-insensitively on email or full name, literally, 100 a page with Content-Range', async () => {
    const ann = await signUp(t.http, { email: `ann.${tag}@Example.com`, full_name: `Ann Search${tag}` });
    const bob = await signUp(t.http, { email: `bob.${tag}@example.com`, full_name: `Bob 100%_${tag}` });
    const search = async (q: string) => {
      const res = await t.http
        .get('/api/admin/users')
        .query({ filter: JSON.stringify({ q }) })
        .set(bearer(admin.accessToken))
        .expect(200);
      return res.body.map((u: { id: string }) => u.id).sort();
    };
    expect(await search(`ANN.${tag.toUpperCase()}`)).toEqual([ann.userId]); // email, other case
    expect(await search(`search${tag}`.toUpperCase())).toEqual([ann.userId]); // full name, other case
    expect(await search(tag)).toEqual([ann.userId, bob.userId].sort());
    expect(await search(`100%_${tag}`)).toEqual([bob.userId]);
    expect(await search(`1%0`)).toEqual([]); // % is literal, not a wildcard
    // the plain ?q= form too
    const plain = await t.http
      .get('/api/admin/users')
      .query({ q: `bob.${tag}` })
      .set(bearer(admin.accessToken))
      .expect(200);
    expect(plain.body.map((u: { id: string }) => u.id)).toEqual([bob.userId]);
    expect(plain.body[0]).toMatchObject({ email: `bob.${tag}@example.com`, tier: 'free', credits: 3, total_generations: 0 });
    // react-admin's getMany
    const many = await t.http
      .get('/api/admin/users')
      .query({ filter: JSON.stringify({ id: [ann.userId, bob.userId] }) })
      .set(bearer(admin.accessToken))
      .expect(200);
    expect(many.body.map((u: { id: string }) => u.id).sort()).toEqual([ann.userId, bob.userId].sort());
    // paging
    const page = await t.http.get('/api/admin/users').set(bearer(admin.accessToken)).expect(200);
    expect(page.headers['content-range']).toMatch(/^users 0-\d+\/\d+$/);
    expect(page.body.length).toBeLessThanOrEqual(100);
    const range = await t.http
      .get('/api/admin/users')
      .query({ range: '[0,0]', sort: '["email","ASC"]' })
      .set(bearer(admin.accessToken))
      .expect(200);
    expect(range.body).toHaveLength(1);
    const total = Number(range.headers['content-range'].split('/')[1]);
    expect(total).toBeGreaterThanOrEqual(3);
    // bad list queries are refused with the catalogue's shape
    for (const query of [{ sort: '["password_hash","ASC"]' }, { range: '[5,1]' }, { filter: '{"nope":1}' }, { filter: 'not json' }]) {
      const res = await t.http.get('/api/admin/users').query(query).set(bearer(admin.accessToken));
      expect({ query, status: res.status, code: res.body.code }).toEqual({ query, status: 400, code: 'VALIDATION_ERROR' });
    }
  });

  it('adjusts credits through the ledger with the spec messages, and audits each change', async () => {
    const user = await signUp(t.http, { full_name: 'Credit Person' });
    const adjust = (body: unknown) =>
      t.http
        .post(`/api/admin/users/${user.userId}/credits`)
        .set(bearer(admin.accessToken))
        .send(body as object);

    for (const body of [
      {},
      { mode: 'add', amount: 5 },
      { mode: 'add', reason: 'x' },
      { amount: 5, reason: 'x' },
      { mode: 'add', amount: 5, reason: '   ' },
    ]) {
      const res = await adjust(body);
      expect({ body, status: res.status, res: res.body }).toEqual({
        body,
        status: 400,
        res: { statusCode: 400, code: 'VALIDATION_ERROR', message: 'Please fill in all fields' },
      });
    }
    for (const amount of [0, -3, 2.5, 'abc', '1e3', 1_000_001, true]) {
      const res = await adjust({ mode: 'add', amount, reason: 'test' });
      expect({ amount, status: res.status, message: res.body.message }).toEqual({
        amount,
        status: 400,
        message: 'Please enter a valid amount',
      });
    }
    expect(await auditRows(user.userId)).toEqual([]); // refused: nothing changed
    // an unknown user: 404, a malformed id: 400
    expect(
      (
        await t.http
          .post(`/api/admin/users/00000000-0000-4000-8000-000000000000/credits`)
          .set(bearer(admin.accessToken))
          .send({ mode: 'add', amount: 1, reason: 'x' })
      ).status,
    ).toBe(404);
    expect(
      (await t.http.post(`/api/admin/users/nope/credits`).set(bearer(admin.accessToken)).send({ mode: 'add', amount: 1, reason: 'x' }))
        .status,
    ).toBe(400);

    const added = await adjust({ mode: 'add', amount: 5, reason: 'Sorry for the outage' }).expect(200);
    expect(added.body).toMatchObject({ id: user.userId, credits: 8, purchased_credits: 5 });
    const deducted = await adjust({ mode: 'deduct', amount: 2, reason: 'Correction' }).expect(200);
    expect(deducted.body.credits).toBe(6);
    const tooMuch = await adjust({ mode: 'deduct', amount: 7, reason: 'Too much' });
    expect(tooMuch.body).toEqual({
      statusCode: 400,
      code: 'INSUFFICIENT_CREDITS',
      message: 'Insufficient credits. Required: 7, Available: 6.',
    });
    expect((await t.http.get('/api/me').set(bearer(user.accessToken))).body.credits).toBe(6);

    const ledger = await db.query(
      `SELECT kind, amount, reason, actor_id FROM credit_ledger_entries WHERE user_id = $1 AND kind IN ('admin_add', 'admin_deduct') AND amount <> 0 ORDER BY created_at, id`,
      [user.userId],
    );
    expect(ledger).toEqual([
      { kind: 'admin_add', amount: 5, reason: 'Sorry for the outage', actor_id: admin.userId },
      { kind: 'admin_deduct', amount: -2, reason: 'Correction', actor_id: admin.userId },
    ]);
    expect(await auditRows(user.userId)).toEqual([
      {
        actor_id: admin.userId,
        action: 'user.credits.add',
        target_type: 'user',
        target_id: user.userId,
        target_user_id: user.userId,
        before: { credits: 3, subscription: 3, purchased: 0 },
        after: { credits: 8, subscription: 3, purchased: 5, amount: 5, reason: 'Sorry for the outage' },
      },
      {
        actor_id: admin.userId,
        action: 'user.credits.deduct',
        target_type: 'user',
        target_id: user.userId,
        target_user_id: user.userId,
        before: { credits: 8, subscription: 3, purchased: 5 },
        after: { credits: 6, subscription: 1, purchased: 5, amount: 2, reason: 'Correction' },
      },
    ]);
  });

  it('changes the tier: audited, and the templates of that tier unlock at once', async () => {
    const user = await signUp(t.http, { full_name: 'Tier Person' });
    const lockedOf = async () => {
      const catalog = (await t.http.get('/api/catalog').set(bearer(user.accessToken)).expect(200)).body;
      const lingerie = catalog.categories.find((c: { id: string }) => c.id === 'lingerie') ?? catalog;
      const templates = (lingerie.templates ?? catalog.templates).filter((x: { category?: string; id: string }) =>
        x.id.startsWith('lingerie'),
      );
      return templates.every((x: { locked: boolean }) => x.locked);
    };
    expect(await lockedOf()).toBe(true);
    const bad = await t.http.patch(`/api/admin/users/${user.userId}`).set(bearer(admin.accessToken)).send({ tier: 'platinum' });
    expect(bad.status).toBe(400);
    const res = await t.http.put(`/api/admin/users/${user.userId}`).set(bearer(admin.accessToken)).send({ tier: 'glow_up' }).expect(200);
    expect(res.body.tier).toBe('glow_up');
    expect(await lockedOf()).toBe(false);
    // an upgrade tops the monthly credits up to the new plan's at once, through the ledger
    const glowUp = planForTier('glow_up').monthlyCredits;
    const free = planForTier('free').monthlyCredits;
    expect(res.body.credits).toBe(glowUp);
    expect(await auditRows(user.userId)).toEqual([
      expect.objectContaining({
        actor_id: admin.userId,
        action: 'user.tier.change',
        before: { tier: 'free' },
        after: { tier: 'glow_up', credits_added: glowUp - free },
      }),
    ]);
    expect(
      await db.query(`SELECT kind, bucket, amount, actor_id FROM credit_ledger_entries WHERE user_id = $1 ORDER BY id`, [user.userId]),
    ).toEqual([
      { kind: 'monthly_grant', bucket: 'subscription', amount: free, actor_id: null },
      { kind: 'plan_upgrade', bucket: 'subscription', amount: glowUp - free, actor_id: admin.userId },
    ]);
    const details = await t.http.get(`/api/admin/users/${user.userId}`).set(bearer(admin.accessToken)).expect(200);
    expect(details.body).toMatchObject({ tier: 'glow_up', successful_generations: 0, failed_generations: 0 });
    expect(details.body.recent_activity).toEqual(
      expect.arrayContaining([expect.objectContaining({ activity_type: 'sign_up', description: 'Signed up with email' })]),
    );
    // the audit trail reads back with emails
    const trail = await t.http
      .get('/api/admin/audit-log')
      .query({ filter: JSON.stringify({ target_user_id: user.userId }) })
      .set(bearer(admin.accessToken))
      .expect(200);
    expect(trail.body).toEqual([
      expect.objectContaining({ action: 'user.tier.change', actor_email: adminEmail, target_email: user.email }),
    ]);
  });

  it('a downgrade takes no credits back, and an upgrade never lowers a fuller balance', async () => {
    const user = await signUp(t.http, { full_name: 'Plan Changer' });
    const change = (tier: string) =>
      t.http.patch(`/api/admin/users/${user.userId}`).set(bearer(admin.accessToken)).send({ tier }).expect(200);
    const modelMode = planForTier('model_mode').monthlyCredits;
    expect((await change('model_mode')).body.credits).toBe(modelMode);
    expect((await change('starter')).body.credits).toBe(modelMode); // kept until the monthly reset gives the starter plan's
    // spend below the glow_up amount, then upgrade: topped up to exactly the plan's credits
    await t.http
      .post(`/api/admin/users/${user.userId}/credits`)
      .set(bearer(admin.accessToken))
      .send({ mode: 'deduct', amount: modelMode - 10, reason: 'Spent' })
      .expect(200);
    expect((await change('glow_up')).body.credits).toBe(planForTier('glow_up').monthlyCredits);
    const after = (await auditRows(user.userId))
      .filter((r: { action: string }) => r.action === 'user.tier.change')
      .map((r: { after: unknown }) => r.after);
    expect(after).toEqual([
      { tier: 'model_mode', credits_added: modelMode - planForTier('free').monthlyCredits },
      { tier: 'starter', credits_added: 0 },
      { tier: 'glow_up', credits_added: planForTier('glow_up').monthlyCredits - 10 },
    ]);
  });

  it('counts the dashboard stats from the data', async () => {
    const before = (await t.http.get('/api/admin/stats').set(bearer(admin.accessToken)).expect(200)).body;
    const fresh = await signUp(t.http, { full_name: 'Stats Person' });
    await db.query(`UPDATE users SET tier = 'starter' WHERE id = $1`, [fresh.userId]);
    const after = (await t.http.get('/api/admin/stats').set(bearer(admin.accessToken)).expect(200)).body;
    expect(after.total_users).toBe(before.total_users + 1);
    expect(after.new_users_today).toBe(before.new_users_today + 1);
    expect(after.tier_distribution.starter).toBe(before.tier_distribution.starter + 1);
    expect(after.total_credits_in_system).toBe(before.total_credits_in_system + 3);
    expect(after.generations_per_day).toHaveLength(30);
    expect(after.credits_spent_per_day).toHaveLength(30);
    expect(after.generations_per_day.at(-1).date).toBe(new Date().toISOString().slice(0, 10));
    const [{ users }] = await db.query(`SELECT count(*)::int AS users FROM users`);
    expect(after.total_users).toBe(users);
    // the desk: a new ticket is open; a notification unread until marked read
    await t.http
      .post('/api/support/inquiries')
      .send({ name: 'Stats', email: 'stats@example.com', subject: 'Hi', message: 'A question' })
      .expect(201);
    const [note] = await db.query(
      `INSERT INTO system_notifications (type, title, message, severity) VALUES ('test', 'Stats', 'counted', 'info') RETURNING id`,
    );
    const desk = (await t.http.get('/api/admin/stats').set(bearer(admin.accessToken)).expect(200)).body;
    expect(desk.support_tickets_open).toBe(after.support_tickets_open + 1);
    const [{ unread }] = await db.query(`SELECT count(*)::int AS unread FROM system_notifications WHERE read = false`);
    expect(desk.unread_notifications).toBe(unread);
    expect(desk.unread_notifications).toBeGreaterThan(after.unread_notifications);
    await db.query(`UPDATE system_notifications SET read = true, read_at = now() WHERE id = $1`, [note.id]);
    expect((await t.http.get('/api/admin/stats').set(bearer(admin.accessToken)).expect(200)).body.unread_notifications).toBe(unread - 1);
  });

  it('counts cancelled generations apart from failed ones, in the stats and on the user page; the rate leaves them out', async () => {
    const person = await signUp(t.http, { full_name: 'Cancelling Person' });
    const insert = (status: string, error: string | null) =>
      db.query(
        `INSERT INTO user_generations (id, user_id, type, status, cost, category, prompt, metadata, stage, max_polls, provider, error, tier)
         VALUES (gen_random_uuid(), $1, 'image', $2, 1, 'bikini', 'show the woman', '{}', $3, 60, 'preview', $4, 'free')`,
        [person.userId, status, status === 'completed' ? 'complete' : 'failed', error],
      );
    const stats = async () => (await t.http.get('/api/admin/stats').set(bearer(admin.accessToken)).expect(200)).body;
    const before = await stats();
    await insert('completed', null);
    await insert('failed', 'Generation failed');
    await insert('failed', 'Cancelled');
    await insert('failed', 'Cancelled');
    const after = await stats();
    expect(after.total_generations - before.total_generations).toBe(4);
    expect(after.successful_generations - before.successful_generations).toBe(1);
    expect(after.failed_generations - before.failed_generations).toBe(1);
    expect(after.cancelled_generations - before.cancelled_generations).toBe(2);
    const ended = after.successful_generations + after.failed_generations;
    expect(after.success_rate).toBe(Math.round((after.successful_generations / ended) * 1000) / 10);
    const today = after.generations_per_day.at(-1);
    const yesterday = before.generations_per_day.at(-1);
    expect(today.cancelled - (yesterday.date === today.date ? yesterday.cancelled : 0)).toBe(2);

    const details = (await t.http.get(`/api/admin/users/${person.userId}`).set(bearer(admin.accessToken)).expect(200)).body;
    expect(details).toMatchObject({ total_generations: 4, successful_generations: 1, failed_generations: 1, cancelled_generations: 2 });
  });

  it("words the user's recent activity right for every type and count", async () => {
    const person = await signUp(t.http, { full_name: 'Activity Person' });
    const rows: [string, Record<string, unknown>][] = [
      ['generation_started', { type: 'image', category: 'bikini', cost: 1 }],
      ['generation_completed', { type: 'image', category: 'bikini', cost: 1 }],
      ['generation_started', { type: 'video', category: 'casual', cost: 4 }],
      ['generation_failed', { reason: 'Cancelled', refused: false }],
    ];
    for (const [i, [type, metadata]] of rows.entries())
      await db.query(
        `INSERT INTO user_activity_logs (user_id, activity_type, metadata, created_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
        [person.userId, type, metadata, i + 1],
      );
    const details = (await t.http.get(`/api/admin/users/${person.userId}`).set(bearer(admin.accessToken)).expect(200)).body;
    const words = (details.recent_activity as { description: string }[]).map((a) => a.description);
    expect(words.slice(0, 4)).toEqual([
      'Cancelled a generation (no credits taken)',
      'Started a video generation in casual',
      'Image generation completed (1 credit)',
      'Started an image generation in bikini',
    ]);
  });

  it('removes a failed generation (no file) of any user, audited; a second removal is 404', async () => {
    const user = await signUp(t.http, { full_name: 'Gen Owner' });
    const id = '11111111-2222-4333-8444-' + Date.now().toString(16).padStart(12, '0').slice(-12);
    await db.query(
      `INSERT INTO user_generations (id, user_id, type, status, cost, category, prompt, metadata, stage, max_polls, provider, error, tier)
       VALUES ($1, $2, 'image', 'failed', 1, 'bikini', 'show the woman', '{}', 'failed', 60, 'preview', 'Generation failed', 'free')`,
      [id, user.userId],
    );
    const list = await t.http
      .get('/api/admin/generations')
      .query({ filter: JSON.stringify({ user_id: user.userId }) })
      .set(bearer(admin.accessToken))
      .expect(200);
    expect(list.body).toEqual([
      expect.objectContaining({ id, user_email: user.email, status: 'failed', failure_reason: 'Generation failed', thumbnail_url: null }),
    ]);
    await t.http.delete(`/api/admin/generations/${id}`).set(bearer(admin.accessToken)).expect(204);
    expect(await db.query(`SELECT id FROM user_generations WHERE id = $1`, [id])).toEqual([]);
    expect(await auditRows(user.userId)).toEqual([
      expect.objectContaining({ action: 'generation.remove', target_type: 'generation', target_id: id }),
    ]);
    await t.http.delete(`/api/admin/generations/${id}`).set(bearer(admin.accessToken)).expect(404);
  });

  it("writes an audit row inside the caller's transaction: rolled back with it", async () => {
    const user = await signUp(t.http, { full_name: 'Rollback Person' });
    const audit = t.app.get(AuditService);
    await expect(
      db.transaction(async (m) => {
        await audit.record(
          {
            actorId: admin.userId,
            action: 'user.tier.change',
            targetType: 'user',
            targetId: user.userId,
            targetUserId: user.userId,
            after: { tier: 'starter' },
          },
          m,
        );
        throw new Error('the action failed');
      }),
    ).rejects.toThrow('the action failed');
    expect(await auditRows(user.userId)).toEqual([]);
    await db.transaction((m) =>
      audit.record(
        {
          actorId: admin.userId,
          action: 'user.tier.change',
          targetType: 'user',
          targetId: user.userId,
          targetUserId: user.userId,
          after: { tier: 'starter' },
        },
        m,
      ),
    );
    expect(await auditRows(user.userId)).toHaveLength(1);
  });

  it('lists the audit trail newest first, filtered, with Content-Range', async () => {
    const user = await signUp(t.http, { full_name: 'Trail Person' });
    const send = (body: object) =>
      t.http.post(`/api/admin/users/${user.userId}/credits`).set(bearer(admin.accessToken)).send(body).expect(200);
    await send({ mode: 'add', amount: 2, reason: 'one' });
    await send({ mode: 'add', amount: 3, reason: 'two' });
    await t.http.patch(`/api/admin/users/${user.userId}`).set(bearer(admin.accessToken)).send({ tier: 'starter' }).expect(200);
    const list = (filter: object, extra: Record<string, string> = {}) =>
      t.http
        .get('/api/admin/audit-log')
        .query({ filter: JSON.stringify({ target_user_id: user.userId, ...filter }), ...extra })
        .set(bearer(admin.accessToken));
    const all = await list({}).expect(200);
    expect(all.headers['content-range']).toBe('audit-log 0-2/3');
    expect(all.body.map((r: { action: string }) => r.action)).toEqual(['user.tier.change', 'user.credits.add', 'user.credits.add']);
    expect(all.body[1]).toMatchObject({
      actor_id: admin.userId,
      actor_email: adminEmail,
      target_email: user.email,
      after: { amount: 3, reason: 'two' },
    });
    const adds = await list({ action: 'user.credits.add', actor_id: admin.userId }, { range: '[1,1]' }).expect(200);
    expect(adds.headers['content-range']).toBe('audit-log 1-1/2');
    expect(adds.body.map((r: { after: { reason: string } }) => r.after.reason)).toEqual(['one']);
    expect((await list({ actor_id: 'not-a-uuid' })).status).toBe(400);
    expect((await list({}, { sort: '["before","ASC"]' })).status).toBe(400);
  });

  it('keeps the audit trail when the account goes, naming it by a pseudonym, without its email or the reason typed', async () => {
    const user = await signUp(t.http, { full_name: 'Leaving Person' });
    await t.http
      .post(`/api/admin/users/${user.userId}/credits`)
      .set(bearer(admin.accessToken))
      .send({ mode: 'add', amount: 1, reason: 'gift for Leaving Person' })
      .expect(200);
    const [row] = await db.query(`SELECT id FROM audit_log WHERE target_user_id = $1`, [user.userId]);
    await t.http.delete('/api/me').set(bearer(user.accessToken)).send({ confirm: 'DELETE', password: PASSWORD }).expect(204);
    const [kept] = await db.query(`SELECT action, actor_id, target_id, target_user_id, target_email, after FROM audit_log WHERE id = $1`, [
      row.id,
    ]);
    expect(kept).toMatchObject({
      action: 'user.credits.add',
      actor_id: admin.userId,
      target_id: expect.stringMatching(/^deleted:/),
      target_user_id: null,
      target_email: null,
    });
    expect(kept.after).toMatchObject({ amount: 1, reason: '[removed]' });
  });
});
