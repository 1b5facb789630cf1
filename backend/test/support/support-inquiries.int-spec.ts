import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { STORAGE, type StoragePort } from '../../src/storage';
import { bearer, signUp, SignedIn, uniqueEmail } from '../helpers/auth';
import { waitForMail } from '../helpers/mail';
import { createTestApp, TestApp } from '../helpers/test-app';

async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The public contact form and the console's support desk against the real PostgreSQL: the form's
 * validation messages, the abuse report's priority and notification, the workflow, the list's
 * filters and SLA, notes, and removing a reported generation. Mail: see support-mail.int-spec.ts.
 */
describe('support inquiries', () => {
  let t: TestApp;
  let db: DataSource;
  let admin: SignedIn;
  let agent: SignedIn;
  const adminEmail = uniqueEmail('support-admin');
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const valid = { name: 'Ada Lovelace', email: 'ada@example.com', subject: `Credits ${tag}`, message: 'Where did my credits go?' };

  beforeAll(async () => {
    t = await createTestApp({ ADMIN_EMAILS: adminEmail });
    db = t.app.get(DataSource);
    admin = await signUp(t.http, { email: adminEmail, full_name: 'Desk Admin' });
    agent = await signUp(t.http, { full_name: 'Desk Agent' });
    await db.query(`UPDATE users SET role = 'support' WHERE id = $1`, [agent.userId]);
  });
  afterAll(async () => t?.close());

  const send = (body: object, token?: string) => {
    const req = t.http.post('/api/support/inquiries');
    return (token ? req.set(bearer(token)) : req).send(body);
  };
  const audit = (id: string) =>
    db.query(`SELECT actor_id, action, before, after FROM audit_log WHERE target_id = $1 ORDER BY created_at, action DESC`, [id]);
  const notificationsAbout = (id: string) =>
    db.query(`SELECT type, severity, title, message, read FROM system_notifications WHERE message LIKE $1`, [`%${id}%`]);

  it('answers each invalid field with a clear VALIDATION_ERROR message and stores nothing', async () => {
    const cases: [string, object, string][] = [
      ['nothing', {}, 'Name is required; Email is required; Subject is required; Message is required'],
      ['blank name', { ...valid, name: '   ' }, 'Name is required'],
      ['long name', { ...valid, name: 'x'.repeat(101) }, 'Name must be at most 100 characters'],
      ['bad email', { ...valid, email: 'ada-at-example' }, 'Please enter a valid email address'],
      ['long subject', { ...valid, subject: 's'.repeat(201) }, 'Subject must be at most 200 characters'],
      ['long message', { ...valid, message: 'm'.repeat(5001) }, 'Message must be at most 5000 characters'],
      ['unknown kind', { ...valid, kind: 'spam' }, 'Kind must be one of question, billing, abuse_report'],
      [
        'report with a bad id',
        { ...valid, kind: 'abuse_report', generation_id: 'my-photo' },
        'Generation id must be a valid id (for example 0b0f3c4e-6a3e-4a57-9d6c-2d0b8f1e4c11)',
      ],
      [
        'id on a question',
        { ...valid, generation_id: '0b0f3c4e-6a3e-4a57-9d6c-2d0b8f1e4c11' },
        'A generation id can only be sent with a report of an image (kind abuse_report)',
      ],
      ['unknown field', { ...valid, priority: 'urgent' }, 'property priority should not exist'],
    ];
    for (const [what, body, message] of cases) {
      const res = await send(body);
      expect({ what, status: res.status, body: res.body }).toEqual({
        what,
        status: 400,
        body: { statusCode: 400, code: 'VALIDATION_ERROR', message },
      });
    }
    // the limits themselves are accepted
    const edge = await send({ ...valid, name: 'x'.repeat(100), subject: `${tag}`.padEnd(200, 's'), message: 'm'.repeat(5000) });
    expect(edge.status).toBe(201);
    expect(await db.query(`SELECT count(*)::int AS n FROM support_inquiries WHERE subject LIKE $1`, [`${tag}%`])).toEqual([{ n: 1 }]);
  });

  it('stores a question (normal priority, open), links a signed-in sender, and tells the admins (info)', async () => {
    const anonymous = await send({ ...valid, subject: `Anon ${tag}` }).expect(201);
    expect(anonymous.body).toEqual({
      id: expect.any(String),
      // the number people read (#1001 up)
      number: expect.any(Number),
      status: 'open',
      kind: 'question',
      priority: 'normal',
      created_at: expect.any(String),
    });
    const sender = await signUp(t.http, { full_name: 'Signed Sender' });
    const signed = await send({ ...valid, kind: 'billing', subject: `Billing ${tag}` }, sender.accessToken).expect(201);
    const rows = await db.query(
      `SELECT id, user_id, kind, priority, status FROM support_inquiries WHERE id = ANY($1::uuid[]) ORDER BY subject`,
      [[anonymous.body.id, signed.body.id]],
    );
    expect(rows).toEqual([
      { id: anonymous.body.id, user_id: null, kind: 'question', priority: 'normal', status: 'open' },
      { id: signed.body.id, user_id: sender.userId, kind: 'billing', priority: 'normal', status: 'open' },
    ]);
    expect(await notificationsAbout(anonymous.body.id)).toEqual([
      expect.objectContaining({ type: 'support_inquiry', severity: 'info', title: 'New support inquiry', read: false }),
    ]);
    expect(await notificationsAbout(signed.body.id)).toEqual([
      expect.objectContaining({ type: 'support_inquiry', severity: 'info', title: 'New billing inquiry' }),
    ]);
    // an invalid token on the public form is simply anonymous
    const stale = await send({ ...valid, subject: `Stale ${tag}` }, 'not-a-token').expect(201);
    expect(await db.query(`SELECT user_id FROM support_inquiries WHERE id = $1`, [stale.body.id])).toEqual([{ user_id: null }]);
  });

  it("starts an abuse report at priority high with a critical notification; the generation need not exist or be the reporter's", async () => {
    const generationId = '7d1f7c3a-0b7e-4c55-9a55-3f0f8b0c2d11';
    const res = await send({
      ...valid,
      kind: 'abuse_report',
      subject: `Report ${tag}`,
      message: 'This image shows me without consent',
      generation_id: generationId,
    }).expect(201);
    expect(res.body).toMatchObject({ kind: 'abuse_report', priority: 'high', status: 'open' });
    const [row] = await db.query(`SELECT priority, generation_id FROM support_inquiries WHERE id = $1`, [res.body.id]);
    expect(row).toEqual({ priority: 'high', generation_id: generationId });
    const [note] = await notificationsAbout(res.body.id);
    expect(note).toMatchObject({ type: 'abuse_report', severity: 'critical', title: 'An image was reported' });
    expect(note.message).toContain(generationId);
    // the console shows it as critical, newest first
    const list = await t.http
      .get('/api/admin/notifications')
      .query({ filter: JSON.stringify({ severity: 'critical', type: 'abuse_report' }) })
      .set(bearer(admin.accessToken))
      .expect(200);
    expect(list.body[0]).toMatchObject({ severity: 'critical', read: false, read_by: null });
  });

  it('moves a ticket through the workflow, refuses invalid moves with a clear message, and audits each change', async () => {
    const { body } = await send({ ...valid, subject: `Flow ${tag}` }).expect(201);
    const move = (to: object, who = agent) => t.http.patch(`/api/admin/support-inquiries/${body.id}`).set(bearer(who.accessToken)).send(to);
    const refused = async (to: object, message: string) => {
      const res = await move(to);
      expect({ to, status: res.status, body: res.body }).toEqual({
        to,
        status: 400,
        body: { statusCode: 400, code: 'VALIDATION_ERROR', message },
      });
    };
    await refused({ status: 'resolved' }, 'Cannot move a ticket from open to resolved: from open it can only move to in_progress');
    await refused({ status: 'closed' }, 'Cannot move a ticket from open to closed: from open it can only move to in_progress');
    await refused({ status: 'done' }, 'Status must be one of open, in_progress, resolved, closed');
    await refused({ priority: 'asap' }, 'Priority must be one of low, normal, high, urgent');
    await refused({}, 'Nothing to change: send status and/or priority');
    expect(await audit(body.id)).toEqual([]);

    expect((await move({ status: 'in_progress' }).expect(200)).body).toMatchObject({ status: 'in_progress', resolved_at: null });
    await refused({ status: 'open' }, 'Cannot move a ticket from in_progress to open: from in_progress it can only move to resolved');
    const resolved = await move({ status: 'resolved', priority: 'urgent' }).expect(200);
    expect(resolved.body).toMatchObject({ status: 'resolved', priority: 'urgent', sla: null, resolved_at: expect.any(String) });
    // reopen, then resolve and close (PUT as ra-data-simple-rest sends it)
    expect((await move({ status: 'in_progress' }).expect(200)).body).toMatchObject({ status: 'in_progress', resolved_at: null, sla: 'ok' });
    await move({ status: 'resolved' }).expect(200);
    const closed = await t.http
      .put(`/api/admin/support-inquiries/${body.id}`)
      .set(bearer(admin.accessToken))
      .send({ status: 'closed' })
      .expect(200);
    expect(closed.body.status).toBe('closed');
    await refused({ status: 'in_progress' }, 'Cannot move a ticket from closed to in_progress: a closed ticket cannot change status');

    expect(await audit(body.id)).toEqual([
      { actor_id: agent.userId, action: 'support.status.change', before: { status: 'open' }, after: { status: 'in_progress' } },
      { actor_id: agent.userId, action: 'support.status.change', before: { status: 'in_progress' }, after: { status: 'resolved' } },
      { actor_id: agent.userId, action: 'support.priority.change', before: { priority: 'normal' }, after: { priority: 'urgent' } },
      { actor_id: agent.userId, action: 'support.status.change', before: { status: 'resolved' }, after: { status: 'in_progress' } },
      { actor_id: agent.userId, action: 'support.status.change', before: { status: 'in_progress' }, after: { status: 'resolved' } },
      { actor_id: admin.userId, action: 'support.status.change', before: { status: 'resolved' }, after: { status: 'closed' } },
    ]);
    await t.http
      .patch(`/api/admin/support-inquiries/00000000-0000-4000-8000-000000000000`)
      .set(bearer(agent.accessToken))
      .send({ status: 'in_progress' })
      .expect(404);
    await t.http.get(`/api/admin/support-inquiries/not-a-uuid`).set(bearer(agent.accessToken)).expect(400);
  });

  it('lists tickets newest first with filters, Content-Range, age and SLA against the 24-48 h promise', async () => {
    const q = `List${tag}`;
    const ids: Record<string, string> = {};
    for (const [key, kind] of [
      ['fresh', 'question'],
      ['day', 'billing'],
      ['old', 'question'],
      ['report', 'abuse_report'],
    ] as const) {
      ids[key] = (await send({ ...valid, kind, subject: `${q} ${key}` }).expect(201)).body.id;
    }
    await db.query(`UPDATE support_inquiries SET created_at = now() - interval '30 hours' WHERE id = $1`, [ids.day]);
    await db.query(`UPDATE support_inquiries SET created_at = now() - interval '50 hours' WHERE id = $1`, [ids.old]);
    const list = (filter: object, query: object = {}) =>
      t.http
        .get('/api/admin/support-inquiries')
        .query({ filter: JSON.stringify({ q, ...filter }), ...query })
        .set(bearer(agent.accessToken))
        .expect(200);

    const all = await list({});
    expect(all.body.map((r: { id: string }) => r.id)).toEqual([ids.report, ids.fresh, ids.day, ids.old]);
    expect(all.headers['content-range']).toBe('support-inquiries 0-3/4');
    const byId = Object.fromEntries(all.body.map((r: { id: string }) => [r.id, r]));
    expect(byId[ids.fresh]).toMatchObject({
      status: 'open',
      priority: 'normal',
      age_hours: 0,
      sla: 'ok',
      email: valid.email,
      name: valid.name,
    });
    expect(byId[ids.day]).toMatchObject({ age_hours: 30, sla: 'due_soon' });
    expect(byId[ids.old]).toMatchObject({ age_hours: 50, sla: 'overdue' });

    expect((await list({ kind: 'abuse_report' })).body.map((r: { id: string }) => r.id)).toEqual([ids.report]);
    expect((await list({ priority: 'high' })).body.map((r: { id: string }) => r.id)).toEqual([ids.report]);
    await t.http
      .patch(`/api/admin/support-inquiries/${ids.old}`)
      .set(bearer(agent.accessToken))
      .send({ status: 'in_progress' })
      .expect(200);
    expect((await list({ status: 'in_progress' })).body.map((r: { id: string; sla: string }) => [r.id, r.sla])).toEqual([
      [ids.old, 'overdue'],
    ]);
    expect(
      (await list({}, { q: undefined, filter: JSON.stringify({ q: `${q.toUpperCase()} DAY` }) })).body.map((r: { id: string }) => r.id),
    ).toEqual([ids.day]);
    const page = await list({}, { range: '[1,2]', sort: '["created_at","DESC"]' });
    expect(page.body.map((r: { id: string }) => r.id)).toEqual([ids.fresh, ids.day]);
    expect(page.headers['content-range']).toBe('support-inquiries 1-2/4');
    for (const filter of [{ status: 'nope' }, { color: 'red' }]) {
      const res = await t.http
        .get('/api/admin/support-inquiries')
        .query({ filter: JSON.stringify(filter) })
        .set(bearer(agent.accessToken));
      expect({ filter, status: res.status, code: res.body.code }).toEqual({ filter, status: 400, code: 'VALIDATION_ERROR' });
    }
  });

  it('adds internal notes (never mailed, delivered null) and shows them with the ticket, audited', async () => {
    const { body } = await send({ ...valid, subject: `Note ${tag}` }).expect(201);
    const note = await t.http
      .post(`/api/admin/support-inquiries/${body.id}/messages`)
      .set(bearer(agent.accessToken))
      .send({ kind: 'note', body: 'Checked the ledger: fine.' })
      .expect(201);
    expect(note.body).toMatchObject({
      kind: 'note',
      body: 'Checked the ledger: fine.',
      author_id: agent.userId,
      author_email: agent.email,
      delivered: null,
    });
    const bad = await t.http
      .post(`/api/admin/support-inquiries/${body.id}/messages`)
      .set(bearer(agent.accessToken))
      .send({ kind: 'email', body: '  ' });
    expect(bad.body).toEqual({ statusCode: 400, code: 'VALIDATION_ERROR', message: 'Kind must be reply or note; Message is required' });
    const details = await t.http.get(`/api/admin/support-inquiries/${body.id}`).set(bearer(admin.accessToken)).expect(200);
    expect(details.body.messages).toEqual([expect.objectContaining({ id: note.body.id, kind: 'note', delivered: null })]);
    expect(await audit(body.id)).toEqual([
      {
        actor_id: agent.userId,
        action: 'support.note',
        before: null,
        after: { message_id: note.body.id, kind: 'note', length: 'Checked the ledger: fine.'.length },
      },
    ]);
  });

  it('removes the generation an abuse report names, with its file, notes it on the ticket and audits it (admins only)', async () => {
    const owner = await signUp(t.http, { full_name: 'Image Owner' });
    const id = '22222222-3333-4444-8555-' + Date.now().toString(16).padStart(12, '0').slice(-12);
    const key = `users/${owner.userId}/results/${id}.jpg`;
    const storage = t.app.get<StoragePort>(STORAGE);
    await storage.put(key, Buffer.from('jpeg bytes'), { contentType: 'image/jpeg' });
    await db.query(
      `INSERT INTO user_generations (id, user_id, type, status, cost, category, prompt, metadata, stage, max_polls, provider, tier, result_key, completed_at)
       VALUES ($1, $2, 'image', 'completed', 1, 'bikini', 'show the woman', '{}', 'complete', 60, 'preview', 'free', $3, now())`,
      [id, owner.userId, key],
    );
    // someone else reports it
    const report = await send({ ...valid, kind: 'abuse_report', subject: `Take down ${tag}`, generation_id: id }).expect(201);
    const question = await send({ ...valid, subject: `Not a report ${tag}` }).expect(201);

    await t.http.post(`/api/admin/support-inquiries/${report.body.id}/remove-generation`).set(bearer(agent.accessToken)).expect(403);
    const wrongKind = await t.http
      .post(`/api/admin/support-inquiries/${question.body.id}/remove-generation`)
      .set(bearer(admin.accessToken))
      .expect(400);
    expect(wrongKind.body.message).toBe('Only a report of an image can remove a generation');
    expect(await storage.exists(key)).toBe(true);

    const done = await t.http
      .post(`/api/admin/support-inquiries/${report.body.id}/remove-generation`)
      .set(bearer(admin.accessToken))
      .expect(200);
    expect(done.body.messages).toEqual([
      expect.objectContaining({ kind: 'note', body: `Removed the reported generation ${id} and its files.`, author_id: admin.userId }),
    ]);
    expect(await storage.exists(key)).toBe(false);
    expect(await db.query(`SELECT id FROM user_generations WHERE id = $1`, [id])).toEqual([]);
    await t.http.get(`/api/generations/${id}`).set(bearer(owner.accessToken)).expect(404);
    expect(await db.query(`SELECT actor_id, action, target_user_id, after FROM audit_log WHERE target_id = $1`, [id])).toEqual([
      {
        actor_id: admin.userId,
        action: 'generation.remove',
        target_user_id: owner.userId,
        after: { removed: true, reason: `abuse report ${report.body.id}` },
      },
    ]);
    expect((await audit(report.body.id)).map((r: { action: string }) => r.action)).toEqual(['support.note']);
    // the ticket remembers it, when and by whom, as read again later
    const ticket = (await t.http.get(`/api/admin/support-inquiries/${report.body.id}`).set(bearer(admin.accessToken)).expect(200)).body;
    expect(ticket.generation_removed_by_email).toBe(admin.email);
    expect(Date.now() - Date.parse(ticket.generation_removed_at)).toBeLessThan(60_000);
    expect(done.body.generation_removed_at).toBe(ticket.generation_removed_at);
    // twice: the ticket says it removed it already, when and by whom
    const again = await t.http
      .post(`/api/admin/support-inquiries/${report.body.id}/remove-generation`)
      .set(bearer(admin.accessToken))
      .expect(409);
    expect(again.body.message).toBe(`The reported generation was already removed by ${admin.email} at ${ticket.generation_removed_at}`);
    expect((await audit(report.body.id)).map((r: { action: string }) => r.action)).toEqual(['support.note']);
  });

  it("rate limits the contact form per IP with a 429 in the catalogue's shape", async () => {
    const limited = await createTestApp({ SUPPORT_RATE_LIMIT_MAX: '3', SUPPORT_RATE_LIMIT_WINDOW_SECONDS: '600', TRUST_PROXY: 'loopback' });
    try {
      const subject = `Limit ${tag}`;
      for (let i = 0; i < 3; i++)
        await limited.http
          .post('/api/support/inquiries')
          .send({ ...valid, subject })
          .expect(201);
      const res = await limited.http.post('/api/support/inquiries').send({ ...valid, subject });
      expect(res.status).toBe(429);
      expect(res.body).toEqual({ statusCode: 429, code: 'RATE_LIMITED', message: 'Too many requests. Please try again later.' });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      // another client IP is not affected (TRUST_PROXY=loopback: the app believes X-Forwarded-For from a loopback proxy)
      await limited.http
        .post('/api/support/inquiries')
        .set('X-Forwarded-For', '203.0.113.9')
        .send({ ...valid, subject })
        .expect(201);
      expect(await db.query(`SELECT count(*)::int AS n FROM support_inquiries WHERE subject = $1`, [subject])).toEqual([{ n: 4 }]);
      // the sign-in limits are separate: signing in still works
      await limited.http.post('/api/auth/sign-in').send({ email: admin.email, password: admin.password }).expect(200);
    } finally {
      await limited.close();
    }
  });

  it('writes a reply to the outbox when SMTP is not configured (delivered "logged"), audited, and logs no address or words', async () => {
    const logged: unknown[][] = [];
    const spy = jest.spyOn(Logger.prototype, 'log').mockImplementation(function (this: Logger, ...args: unknown[]) {
      logged.push(args);
    });
    try {
      const requester = { ...valid, email: `outbox-${tag}@example.com`, subject: `Logged ${tag}` };
      const { body } = await send(requester).expect(201);
      const reply = await t.http
        .post(`/api/admin/support-inquiries/${body.id}/messages`)
        .set(bearer(agent.accessToken))
        .send({ kind: 'reply', body: 'Your credits are back.' })
        .expect(201);
      expect(reply.body).toMatchObject({ kind: 'reply', author_id: agent.userId });
      const mail = await waitForMail(t.config.mail!.outboxDir, { to: requester.email, template: 'support-reply' });
      expect(mail.headers.subject).toBe(`Re: Logged ${tag}`);
      expect(mail.text).toContain('Your credits are back.');
      await waitFor(
        async () =>
          (await t.http.get(`/api/admin/support-inquiries/${body.id}`).set(bearer(agent.accessToken))).body.messages?.[0]?.delivered ===
          'logged',
      );
      // the reply moves an open ticket on (in progress), audited with it
      expect(await audit(body.id)).toEqual([
        {
          actor_id: agent.userId,
          action: 'support.status.change',
          before: { status: 'open' },
          after: { status: 'in_progress', by: 'reply' },
        },
        { actor_id: agent.userId, action: 'support.reply', before: null, after: { message_id: reply.body.id, kind: 'reply', length: 22 } },
      ]);
      const everything = JSON.stringify(logged);
      expect(everything).not.toContain(requester.email);
      expect(everything).not.toContain('Your credits are back.');
    } finally {
      spy.mockRestore();
    }
  });
});
