import { DataSource } from 'typeorm';
import { GenerationOutcomesService } from '../../src/modules/generations/generation-outcomes.service';
import { NotificationsService } from '../../src/modules/notifications/notifications.service';
import { SystemAlertsService } from '../../src/modules/notifications/system-alerts.service';
import { userIdHash } from '../../src/modules/privacy/account-deletion.service';
import { JobName, JobRegistry, MessageQueueService } from '../../src/queue';
import { deleteRedisKeys } from '../generations/generation-test-kit';
import { bearer, PASSWORD, signUp, SignedIn, uniqueEmail } from '../helpers/auth';
import { createTestApp, TestApp, testRedisUrl } from '../helpers/test-app';

/**
 * The admins' notifications against the real PostgreSQL (and Redis for the backlog): listing,
 * Mark Read with no way back, and the system events that raise them (a burst of failed
 * generations, a queue backlog, an account deletion).
 */
describe('system notifications', () => {
  let t: TestApp;
  let db: DataSource;
  let admin: SignedIn;
  let admin2: SignedIn;
  const adminEmail = uniqueEmail('notes-admin');
  const admin2Email = uniqueEmail('notes-admin2');
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

  beforeAll(async () => {
    t = await createTestApp({ ADMIN_EMAILS: `${adminEmail},${admin2Email}` });
    db = t.app.get(DataSource);
    admin = await signUp(t.http, { email: adminEmail, full_name: 'Notes Admin' });
    admin2 = await signUp(t.http, { email: admin2Email, full_name: 'Second Admin' });
  });
  afterAll(async () => t?.close());

  const notifications = () => t.app.get(NotificationsService);

  it('lists newest first, 50 a page, with filters and Content-Range', async () => {
    for (let i = 0; i < 55; i++) {
      await notifications().notify({
        type: `test_${tag}`,
        title: `Test ${i}`,
        message: `number ${i}`,
        severity: i % 10 === 0 ? 'critical' : 'info',
      });
    }
    const page = await t.http
      .get('/api/admin/notifications')
      .query({ filter: JSON.stringify({ type: `test_${tag}` }) })
      .set(bearer(admin.accessToken))
      .expect(200);
    expect(page.body).toHaveLength(50);
    expect(page.headers['content-range']).toBe('notifications 0-49/55');
    expect(page.body[0]).toEqual({
      id: expect.any(String),
      type: `test_${tag}`,
      title: 'Test 54',
      message: 'number 54',
      severity: 'info',
      read: false,
      read_by: null,
      read_by_email: null,
      read_at: null,
      created_at: expect.any(String),
    });
    expect(page.body.map((n: { title: string }) => n.title).slice(0, 3)).toEqual(['Test 54', 'Test 53', 'Test 52']);
    const critical = await t.http
      .get('/api/admin/notifications')
      .query({ filter: JSON.stringify({ type: `test_${tag}`, severity: 'critical' }) })
      .set(bearer(admin.accessToken))
      .expect(200);
    expect(critical.body.map((n: { title: string }) => n.title)).toEqual(['Test 50', 'Test 40', 'Test 30', 'Test 20', 'Test 10', 'Test 0']);
    const bad = await t.http
      .get('/api/admin/notifications')
      .query({ filter: JSON.stringify({ severity: 'loud' }) })
      .set(bearer(admin.accessToken));
    expect(bad.body).toEqual({
      statusCode: 400,
      code: 'VALIDATION_ERROR',
      message: 'Invalid severity: expected one of info, warning, critical',
    });
  });

  it('marks read once (read_by, read_at, audit row); marking again keeps the first reader; there is no way back', async () => {
    const note = (await notifications().notify({ type: `read_${tag}`, title: 'Read me', message: 'once', severity: 'warning' }))!;
    const bad = await t.http.patch(`/api/admin/notifications/${note.id}`).set(bearer(admin.accessToken)).send({ read: false });
    expect(bad.body).toEqual({ statusCode: 400, code: 'VALIDATION_ERROR', message: 'A notification cannot be marked unread' });
    const missing = await t.http.patch(`/api/admin/notifications/${note.id}`).set(bearer(admin.accessToken)).send({});
    expect(missing.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_ERROR' });

    const before = Date.now();
    const res = await t.http.patch(`/api/admin/notifications/${note.id}`).set(bearer(admin.accessToken)).send({ read: true }).expect(200);
    expect(res.body).toMatchObject({ id: note.id, read: true, read_by: admin.userId, read_by_email: adminEmail });
    expect(new Date(res.body.read_at).getTime()).toBeGreaterThanOrEqual(before - 5000);

    // another admin marks it again (PUT, as ra-data-simple-rest sends it): nothing changes
    const again = await t.http.put(`/api/admin/notifications/${note.id}`).set(bearer(admin2.accessToken)).send({ read: true }).expect(200);
    expect(again.body).toMatchObject({ read: true, read_by: admin.userId, read_at: res.body.read_at });
    const unread = await t.http.put(`/api/admin/notifications/${note.id}`).set(bearer(admin2.accessToken)).send({ read: false });
    expect(unread.status).toBe(400);
    const [row] = await db.query(`SELECT read, read_by, read_at FROM system_notifications WHERE id = $1`, [note.id]);
    expect(row).toEqual({ read: true, read_by: admin.userId, read_at: new Date(res.body.read_at) });

    expect(
      await db.query(`SELECT actor_id, actor_email, action, target_type, before, after FROM audit_log WHERE target_id = $1`, [note.id]),
    ).toEqual([
      {
        actor_id: admin.userId,
        actor_email: adminEmail,
        action: 'notification.read',
        target_type: 'notification',
        before: { read: false },
        after: { read: true },
      },
    ]);
    const unreadList = await t.http
      .get('/api/admin/notifications')
      .query({ filter: JSON.stringify({ type: `read_${tag}`, read: false }) })
      .set(bearer(admin.accessToken))
      .expect(200);
    expect(unreadList.body).toEqual([]);
    await t.http
      .patch('/api/admin/notifications/00000000-0000-4000-8000-000000000000')
      .set(bearer(admin.accessToken))
      .send({ read: true })
      .expect(404);
    await t.http.patch('/api/admin/notifications/nope').set(bearer(admin.accessToken)).send({ read: true }).expect(400);
  });

  it('a burst of failed generations raises exactly one critical notification per window; cancellations do not count', async () => {
    const outcomes = t.app.get(GenerationOutcomesService, { strict: false });
    const alerts = t.app.get(SystemAlertsService);
    await db.query(`DELETE FROM system_notifications WHERE type = 'generation_failures'`);
    // failures of earlier test files of this run (the database is shared, files run one at a time)
    // would count too: move them out of the window first
    await db.query(
      `UPDATE user_generations SET completed_at = now() - interval '1 day' WHERE status = 'failed' AND completed_at > now() - interval '1 day'`,
    );
    const [{ n: already }] = await db.query(
      `SELECT count(*)::int AS n FROM user_generations WHERE status = 'failed' AND completed_at > now() - interval '10 minutes' AND error <> 'Cancelled'`,
    );
    expect(already).toBeLessThan(5);
    const user = await signUp(t.http, { full_name: 'Unlucky Person' });
    const failOne = async (reason: string) => {
      const [{ id }] = await db.query(
        `INSERT INTO user_generations (id, user_id, type, cost, category, prompt, tier, max_polls, provider)
         VALUES (gen_random_uuid(), $1, 'image', 1, 'bikini', 'p', 'free', 60, 'preview') RETURNING id`,
        [user.userId],
      );
      expect(await outcomes.fail(id, reason)).toBe(true);
    };
    const bursts = () => db.query(`SELECT severity, title, message FROM system_notifications WHERE type = 'generation_failures'`);

    for (let i = 0; i < 3; i++) await failOne('Cancelled'); // a person cancelling is not a failure of the system
    for (let i = already; i < 4; i++) await failOne('The provider did not answer');
    expect(await bursts()).toEqual([]);
    await failOne('The provider did not answer'); // the 5th within 10 minutes
    expect(await bursts()).toEqual([
      { severity: 'critical', title: 'Generations are failing', message: expect.stringContaining('failed in the last 10 minutes') },
    ]);
    for (let i = 0; i < 4; i++) await failOne('Generation failed');
    expect(await bursts()).toHaveLength(1);
    // a new window: the next burst is told again
    await db.query(`UPDATE system_notifications SET created_at = now() - interval '11 minutes' WHERE type = 'generation_failures'`);
    expect(await alerts.checkFailedGenerations()).not.toBeNull();
    expect(await bursts()).toHaveLength(2);
  });

  it('an account deletion raises an info notification with a pseudonym only', async () => {
    const leaving = await signUp(t.http, { full_name: `Leaving ${tag}` });
    await t.http.delete('/api/me').set(bearer(leaving.accessToken)).send({ confirm: 'DELETE', password: PASSWORD }).expect(204);
    const rows = await db.query(
      `SELECT severity, title, message FROM system_notifications WHERE type = 'account_deleted' AND message LIKE $1`,
      [`%${userIdHash(leaving.userId)}%`],
    );
    expect(rows).toEqual([{ severity: 'info', title: 'An account was deleted', message: expect.any(String) }]);
    for (const personal of [leaving.userId, leaving.email, `Leaving ${tag}`]) expect(rows[0].message).not.toContain(personal);
  });

  it('schedules the queue backlog check as a queue job', () => {
    expect(t.app.get(JobRegistry).list()).toContainEqual({
      name: JobName.NotificationsQueueBacklogCheck,
      owner: 'SystemAlertsService.handleQueueBacklogCheck',
    });
  });

  it('a queue backlog above the threshold raises one warning an hour (BullMQ, jobs waiting with no worker)', async () => {
    const producer = await createTestApp({ REDIS_URL: testRedisUrl(), QUEUE_CONSUME_IN_API: 'false', ALERT_QUEUE_BACKLOG_THRESHOLD: '2' });
    try {
      const pdb = producer.app.get(DataSource);
      await pdb.query(`DELETE FROM system_notifications WHERE type = 'queue_backlog'`);
      const queue = producer.app.get(MessageQueueService);
      const alerts = producer.app.get(SystemAlertsService);
      const backlog = () => pdb.query(`SELECT severity, title, message FROM system_notifications WHERE type = 'queue_backlog'`);
      for (let i = 0; i < 2; i++) await queue.add(JobName.UploadsRetentionSweep, {}, { jobId: `backlog-${i}` });
      await alerts.handleQueueBacklogCheck();
      expect(await backlog()).toEqual([]); // 2 waiting: not above 2
      await queue.add(JobName.UploadsRetentionSweep, {}, { jobId: 'backlog-2' });
      await alerts.handleQueueBacklogCheck();
      expect(await backlog()).toEqual([
        { severity: 'warning', title: 'Queue backlog', message: expect.stringContaining('3 jobs are waiting in the queue (threshold 2') },
      ]);
      await queue.add(JobName.UploadsRetentionSweep, {}, { jobId: 'backlog-3' });
      await alerts.handleQueueBacklogCheck();
      expect(await backlog()).toHaveLength(1); // at most once an hour
      await pdb.query(`UPDATE system_notifications SET created_at = now() - interval '61 minutes' WHERE type = 'queue_backlog'`);
      await alerts.handleQueueBacklogCheck();
      expect(await backlog()).toHaveLength(2);
    } finally {
      await producer.close();
      await deleteRedisKeys(producer.config.queue.redisUrl!, producer.config.queue.prefix);
    }
  });
});
