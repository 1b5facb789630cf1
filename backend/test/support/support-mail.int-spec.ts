import { DataSource } from 'typeorm';
import { freePort } from '../../src/common/free-port';
import { REPLY_MAIL_JOB_OPTIONS, SupportService } from '../../src/modules/support/support.service';
import { JobName } from '../../src/queue';
import { FakeSmtpServer } from '../fakes/fake-smtp-server';
import { deleteRedisKeys, waitFor } from '../generations/generation-test-kit';
import { bearer, signUp, SignedIn, uniqueEmail } from '../helpers/auth';
import { createTestApp, TestApp, testRedisUrl } from '../helpers/test-app';

/** A TCP port nobody listens on (an SMTP server that is down). */
const closedPort = freePort;

/**
 * Replies go to the requester by mail through SMTP (nodemailer) from a BullMQ job on the real Redis,
 * so the request never waits for SMTP; notes are never mailed. The SMTP server is a local fake.
 */
describe('support replies by mail', () => {
  const smtp = new FakeSmtpServer();
  let t: TestApp;
  let db: DataSource;
  let agent: SignedIn;
  const adminEmail = uniqueEmail('mail-admin');

  beforeAll(async () => {
    const port = await smtp.start();
    t = await createTestApp({
      ADMIN_EMAILS: adminEmail,
      REDIS_URL: testRedisUrl(),
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(port),
      SMTP_SECURE: 'false',
      SMTP_FROM: 'Fitting Room Support <help@fitting-room.test>',
    });
    db = t.app.get(DataSource);
    agent = await signUp(t.http, { email: adminEmail, full_name: 'Mail Admin' });
  });
  afterAll(async () => {
    await t?.close();
    if (t) await deleteRedisKeys(t.config.queue.redisUrl!, t.config.queue.prefix);
    await smtp.stop();
  });

  const delivered = (id: string) =>
    db.query(`SELECT delivered, delivery_error FROM support_messages WHERE id = $1`, [id]).then((r) => r[0]);

  it('mails a reply to the requester from a queue job (delivered "sent"); a note is never mailed', async () => {
    const requester = `requester-${Date.now()}@example.com`;
    const { body: ticket } = await t.http
      .post('/api/support/inquiries')
      .send({ name: 'Grace Hopper', email: requester, subject: 'My credits', message: 'Where are they?' })
      .expect(201);
    const reply = await t.http
      .post(`/api/admin/support-inquiries/${ticket.id}/messages`)
      .set(bearer(agent.accessToken))
      .send({ kind: 'reply', body: 'We added them back.\n.\nA line with a single dot above.' })
      .expect(201);
    expect(['queued', 'sent']).toContain(reply.body.delivered);

    await waitFor('the reply to be sent', async () => (await delivered(reply.body.id)).delivered === 'sent', 15_000);
    // the replies to the requester (the question's receipt, "We received your message", came first)
    const toRequester = () => smtp.received.filter((m) => m.to.includes(requester) && /^Subject: Re: /m.test(m.data));
    expect(smtp.received.filter((m) => m.to.includes(requester) && /^Subject: We received your message/m.test(m.data))).toHaveLength(1);
    expect(toRequester()).toHaveLength(1);
    const [mail] = toRequester();
    expect(mail.from).toBe('help@fitting-room.test');
    expect(mail.to).toEqual([requester]);
    expect(mail.data).toMatch(/^Subject: Re: My credits$/m);
    expect(mail.data).toMatch(/^To: [^\r\n]*requester-/m);
    expect(mail.data).toContain('Hi Grace Hopper,');
    expect(mail.data).toContain('We added them back.\r\n.\r\nA line with a single dot above.');

    const note = await t.http
      .post(`/api/admin/support-inquiries/${ticket.id}/messages`)
      .set(bearer(agent.accessToken))
      .send({ kind: 'note', body: 'Internal: refunded 3 credits' })
      .expect(201);
    expect(note.body.delivered).toBeNull();
    await new Promise((r) => setTimeout(r, 1000));
    expect(toRequester()).toHaveLength(1);
    expect(smtp.received.some((m) => m.data.includes('Internal: refunded'))).toBe(false);

    const details = await t.http.get(`/api/admin/support-inquiries/${ticket.id}`).set(bearer(agent.accessToken)).expect(200);
    expect(details.body.messages.map((m: { kind: string; delivered: string | null }) => [m.kind, m.delivered])).toEqual([
      ['reply', 'sent'],
      ['note', null],
    ]);
  });

  it('answers at once when the SMTP server is down, and the job records the error for a retry', async () => {
    const down = await createTestApp({
      ADMIN_EMAILS: adminEmail,
      REDIS_URL: testRedisUrl(),
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(await closedPort()),
    });
    try {
      const downDb = down.app.get(DataSource);
      const admin = await signUp(down.http, { email: uniqueEmail('down-admin') });
      await downDb.query(`UPDATE users SET role = 'support' WHERE id = $1`, [admin.userId]);
      const { body: ticket } = await down.http
        .post('/api/support/inquiries')
        .send({ name: 'Alan', email: 'alan@example.com', subject: 'Hello', message: 'Hi' })
        .expect(201);
      const started = Date.now();
      const reply = await down.http
        .post(`/api/admin/support-inquiries/${ticket.id}/messages`)
        .set(bearer(admin.accessToken))
        .send({ kind: 'reply', body: 'Answer' })
        .expect(201);
      expect(Date.now() - started).toBeLessThan(3000);
      expect(reply.body.delivered).toBe('queued');
      const row = await waitFor(
        'the failed attempt to be recorded',
        async () => {
          const [r] = await downDb.query(`SELECT delivered, delivery_error FROM support_messages WHERE id = $1`, [reply.body.id]);
          return r.delivery_error ? r : undefined;
        },
        15_000,
      );
      expect(row.delivered).toBe('queued'); // not final: the job retries with backoff
      expect(row.delivery_error).toMatch(/ECONNREFUSED|connect/i);

      // the last attempt (the real backoff would take minutes: its run is called directly) marks the reply failed
      const last = {
        jobId: 'final-attempt',
        attempt: REPLY_MAIL_JOB_OPTIONS.attempts,
        maxAttempts: REPLY_MAIL_JOB_OPTIONS.attempts,
        name: JobName.SupportReplyMail,
      };
      await expect(down.app.get(SupportService).handleReplyMail({ messageId: reply.body.id }, last)).rejects.toThrow(
        /ECONNREFUSED|connect/i,
      );
      const [final] = await downDb.query(`SELECT delivered, delivery_error FROM support_messages WHERE id = $1`, [reply.body.id]);
      expect(final.delivered).toBe('failed');
      expect(final.delivery_error).toMatch(/ECONNREFUSED|connect/i);
      // and the ticket shows it to the support desk
      const shown = await down.http.get(`/api/admin/support-inquiries/${ticket.id}`).set(bearer(admin.accessToken)).expect(200);
      expect(shown.body.messages).toEqual(expect.arrayContaining([expect.objectContaining({ id: reply.body.id, delivered: 'failed' })]));
    } finally {
      await down.close();
      await deleteRedisKeys(down.config.queue.redisUrl!, down.config.queue.prefix);
    }
  });
});
