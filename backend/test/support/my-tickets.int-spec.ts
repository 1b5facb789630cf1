import { DataSource } from 'typeorm';
import { bearer, signUp, SignedIn, uniqueEmail } from '../helpers/auth';
import { outboxFiles, waitForMail } from '../helpers/mail';
import { createTestApp, TestApp } from '../helpers/test-app';

/**
 * "My tickets" through the real API: readable numbers from a sequence, the person's own tickets
 * only, a receipt for a question, a staff reply that waits for the person, the person's reply
 * that opens it again, and a closed ticket that takes no more; the console sees the numbers and
 * filters accounts on a verified address.
 */
describe('my tickets', () => {
  let t: TestApp;
  let db: DataSource;
  let outbox: string;
  let agent: SignedIn;
  const adminEmail = uniqueEmail('tickets-admin');

  beforeAll(async () => {
    t = await createTestApp({ ADMIN_EMAILS: adminEmail });
    db = t.app.get(DataSource);
    outbox = t.config.mail!.outboxDir;
    agent = await signUp(t.http, { email: adminEmail, full_name: 'Desk Agent' });
  });
  afterAll(async () => t?.close());

  const ask = (who: SignedIn | null, subject: string, kind = 'question') =>
    (who ? t.http.post('/api/support/inquiries').set(bearer(who.accessToken)) : t.http.post('/api/support/inquiries'))
      .send({ name: 'Tess Ticket', email: who?.email ?? uniqueEmail('anon'), subject, message: `About ${subject}`, kind })
      .expect(201);

  it("numbers tickets in order (#1001 up), mails a receipt with the number, and lists only the sender's own", async () => {
    const tess = await signUp(t.http, { full_name: 'Tess Ticket' });
    const other = await signUp(t.http, { full_name: 'Otto Other' });
    const seen = outboxFiles(outbox);
    const first = (await ask(tess, 'Where is my result?')).body;
    // its receipt before the next question (two receipts to one address would race for the wait)
    const receipt = await waitForMail(outbox, { to: tess.email, template: 'support-receipt', after: seen });
    expect(receipt.headers.subject).toBe(`We received your message (ticket #${first.number})`);
    expect(receipt.text).toContain('/dashboard/tickets');
    const second = (await ask(tess, 'A billing question', 'billing')).body;
    await ask(other, 'Not Tess');
    await ask(null, 'Signed out');
    expect(first.number).toBeGreaterThanOrEqual(1001);
    expect(second.number).toBeGreaterThan(first.number);

    const mine = (await t.http.get('/api/me/tickets').set(bearer(tess.accessToken)).expect(200)).body;
    expect(mine.total).toBe(2);
    expect(mine.tickets.map((x: { number: number; status: string }) => [x.number, x.status])).toEqual([
      [second.number, 'open'],
      [first.number, 'open'],
    ]);
    // another person's ticket is not found, whatever its number
    const others = (await t.http.get('/api/me/tickets').set(bearer(other.accessToken)).expect(200)).body;
    expect(others.tickets.map((x: { subject: string }) => x.subject)).toEqual(['Not Tess']);
    await t.http.get(`/api/me/tickets/${first.number}`).set(bearer(other.accessToken)).expect(404);
    await t.http.post(`/api/me/tickets/${first.number}/messages`).set(bearer(other.accessToken)).send({ message: 'Hijack' }).expect(404);
    await t.http.get('/api/me/tickets/not-a-number').set(bearer(tess.accessToken)).expect(400);
    await t.http.get('/api/me/tickets').expect(401);
    // the console lists the number too
    const listed = await t.http.get(`/api/admin/support-inquiries/${first.id}`).set(bearer(agent.accessToken)).expect(200);
    expect(listed.body.number).toBe(first.number);
  });

  it('a staff reply makes it "waiting for you"; the person\'s reply opens it again; a note is never shown; closed takes no more', async () => {
    const tess = await signUp(t.http, { full_name: 'Tess Ticket' });
    const { id, number } = (await ask(tess, 'My photo will not upload')).body;
    const staff = (kind: 'reply' | 'note', body: string) =>
      t.http.post(`/api/admin/support-inquiries/${id}/messages`).set(bearer(agent.accessToken)).send({ kind, body }).expect(201);
    const mine = async () => (await t.http.get(`/api/me/tickets/${number}`).set(bearer(tess.accessToken)).expect(200)).body;

    await staff('note', 'Internal: check the logs');
    expect((await mine()).status).toBe('open');
    await staff('reply', 'Which browser do you use?');
    expect(await mine()).toMatchObject({ status: 'in_progress', messages: [{ kind: 'reply', body: 'Which browser do you use?' }] });

    const answered = await t.http
      .post(`/api/me/tickets/${number}/messages`)
      .set(bearer(tess.accessToken))
      .send({ message: '  Chromium on Linux.  ' })
      .expect(201);
    expect(answered.body).toMatchObject({
      status: 'open',
      messages: [
        { kind: 'reply', body: 'Which browser do you use?' },
        { kind: 'customer', body: 'Chromium on Linux.' },
      ],
    });
    expect(JSON.stringify(answered.body)).not.toContain('Internal');
    const [row] = await db.query(`SELECT status FROM support_inquiries WHERE id = $1`, [id]);
    expect(row.status).toBe('open');
    // an empty message changes nothing
    await t.http.post(`/api/me/tickets/${number}/messages`).set(bearer(tess.accessToken)).send({ message: '  ' }).expect(400);

    // resolved, then the person writes: open again; closed: no more
    const move = (status: string) =>
      t.http.patch(`/api/admin/support-inquiries/${id}`).set(bearer(agent.accessToken)).send({ status }).expect(200);
    await move('in_progress');
    await move('resolved');
    await t.http.post(`/api/me/tickets/${number}/messages`).set(bearer(tess.accessToken)).send({ message: 'It failed again' }).expect(201);
    expect(await mine()).toMatchObject({ status: 'open', resolved_at: null });
    await move('in_progress');
    await move('resolved');
    await move('closed');
    const closed = await t.http.post(`/api/me/tickets/${number}/messages`).set(bearer(tess.accessToken)).send({ message: 'Hello?' });
    expect(closed.body).toEqual({
      statusCode: 409,
      code: 'CONFLICT',
      message: 'This ticket is closed. Please send a new message from the contact page.',
    });
  });

  it('the console filters accounts on a verified address and shows it', async () => {
    const verified = await signUp(t.http, { full_name: 'Vera Verified' });
    const waiting = await signUp(t.http, { full_name: 'Wanda Waiting', verified: false });
    const list = async (verifiedFilter: string) =>
      (
        await t.http
          .get('/api/admin/users')
          .query({ filter: JSON.stringify({ verified: verifiedFilter }), range: '[0,999]' })
          .set(bearer(agent.accessToken))
          .expect(200)
      ).body as Array<{ id: string; email_verified: boolean }>;
    const yes = await list('true');
    const no = await list('false');
    expect(yes.some((u) => u.id === verified.userId)).toBe(true);
    expect(yes.some((u) => u.id === waiting.userId)).toBe(false);
    expect(no.find((u) => u.id === waiting.userId)).toMatchObject({ email_verified: false });
    expect(no.every((u) => !u.email_verified)).toBe(true);
    await t.http
      .get('/api/admin/users')
      .query({ filter: JSON.stringify({ verified: 'maybe' }) })
      .set(bearer(agent.accessToken))
      .expect(400);
  });
});
