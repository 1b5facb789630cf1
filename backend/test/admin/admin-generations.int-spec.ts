/**
 * Moderation and the dashboard on real generations (the real pipeline with the fake AI vendor):
 * the list of every user's generations with signed thumbnails and failure reasons, the removal of
 * any of them with its file (audited), and the dashboard's numbers on a seeded scenario.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AdminGenerationsService } from '../../src/modules/admin/admin-generations.service';
import { AdminStatsService } from '../../src/modules/admin/admin-stats.service';
import { AuditService } from '../../src/modules/audit/audit.service';
import { STORAGE, type StoragePort } from '../../src/storage';
import { FakeAiProvider } from '../fakes/fake-ai-provider';
import {
  createGenerationApp,
  IMAGE_START,
  person,
  startGeneration,
  uploadPhoto,
  waitForEnd,
  type GenerationApp,
} from '../generations/generation-test-kit';
import { bearer, signUp, uniqueEmail, type SignedIn } from '../helpers/auth';

describe('admin: generations and stats', () => {
  let t: GenerationApp;
  let admin: SignedIn;
  const fake = new FakeAiProvider();
  const adminEmail = uniqueEmail('moderator');

  beforeAll(async () => {
    t = await createGenerationApp({
      driver: 'in-process',
      provider: fake,
      env: { AI_POLL_INTERVAL_MS: '30', ADMIN_EMAILS: adminEmail },
    });
    admin = await signUp(t.http, { email: adminEmail });
  });
  afterAll(async () => t?.close());
  beforeEach(() => {
    fake.behaviour = { kind: 'succeed', polls: 0 };
  });

  const stats = async () => (await t.http.get('/api/admin/stats').set(bearer(admin.accessToken)).expect(200)).body;

  it("lists every user's generations with signed thumbnails and failure reasons; removes one with its file, audited", async () => {
    const before = await stats();
    const owner = await person(t, { tier: 'starter', addCredits: 10 });
    const photo = await uploadPhoto(t, owner);
    const ok = await startGeneration(t, owner, { ...IMAGE_START, upload_ids: [photo] });
    expect((await waitForEnd(t, owner, ok.body.id)).status).toBe('completed');
    fake.behaviour = { kind: 'fail' };
    const bad = await startGeneration(t, owner, { ...IMAGE_START, upload_ids: [photo] });
    const failed = await waitForEnd(t, owner, bad.body.id);
    expect(failed.status).toBe('failed');

    // the dashboard counts them (deltas: the suite's other people count too)
    const after = await stats();
    expect(after.total_users).toBe(before.total_users + 1);
    expect(after.new_users_today).toBe(before.new_users_today + 1);
    expect(after.total_generations).toBe(before.total_generations + 2);
    expect(after.successful_generations).toBe(before.successful_generations + 1);
    expect(after.failed_generations).toBe(before.failed_generations + 1);
    expect(after.total_credits_used).toBe(before.total_credits_used + ok.body.cost);
    expect(after.tier_distribution.starter).toBe(before.tier_distribution.starter + 1);
    const today = new Date().toISOString().slice(0, 10);
    const day = (series: { date: string }[]) =>
      series.find((d) => d.date === today) as unknown as { successful: number; failed: number; credits?: number };
    expect(day(after.generations_per_day).successful).toBe(day(before.generations_per_day).successful + 1);
    expect(day(after.generations_per_day).failed).toBe(day(before.generations_per_day).failed + 1);
    expect((day(after.credits_spent_per_day).credits ?? 0) - (day(before.credits_spent_per_day).credits ?? 0)).toBe(ok.body.cost);

    const list = await t.http
      .get('/api/admin/generations')
      .query({ filter: JSON.stringify({ user_id: owner.userId }), sort: '["created_at","ASC"]', range: '[0,49]' })
      .set(bearer(admin.accessToken))
      .expect(200);
    expect(list.headers['content-range']).toBe('generations 0-1/2');
    expect(list.body).toEqual([
      expect.objectContaining({
        id: ok.body.id,
        user_id: owner.userId,
        user_email: owner.email,
        status: 'completed',
        failure_reason: null,
        category: 'bikini',
      }),
      expect.objectContaining({ id: bad.body.id, status: 'failed', failure_reason: failed.error, thumbnail_url: null }),
    ]);
    expect(failed.error).toBeTruthy();
    // the thumbnail is a signed link that works (and is refused once altered)
    const thumb: string = list.body[0].thumbnail_url;
    expect(thumb).toMatch(/^\/api\/files\//); // host-relative, like every link the browser is given
    const link = new URL(thumb, 'http://x');
    const image = await t.http.get(link.pathname + link.search).expect(200);
    expect(image.headers['content-type']).toMatch(/^image\//);
    link.searchParams.set('sig', 'x'.repeat(20));
    expect((await t.http.get(link.pathname + link.search)).status).toBeGreaterThanOrEqual(400);
    // filters
    const onlyFailed = await t.http
      .get('/api/admin/generations')
      .query({ filter: JSON.stringify({ user_id: owner.userId, status: 'failed' }) })
      .set(bearer(admin.accessToken))
      .expect(200);
    expect(onlyFailed.body.map((g: { id: string }) => g.id)).toEqual([bad.body.id]);
    expect((await t.http.get('/api/admin/generations').query({ filter: '{"status":"lost"}' }).set(bearer(admin.accessToken))).status).toBe(
      400,
    );
    const byEmail = await t.http
      .get('/api/admin/generations')
      .query({ filter: JSON.stringify({ q: owner.email.toUpperCase() }) })
      .set(bearer(admin.accessToken))
      .expect(200);
    expect(byEmail.body.map((g: { id: string }) => g.id).sort()).toEqual([ok.body.id, bad.body.id].sort());

    // removal: the record and its file go; the owner no longer sees it; audited
    const key = (await t.db.query(`SELECT result_key FROM user_generations WHERE id = $1`, [ok.body.id]))[0].result_key as string;
    const file = path.join(t.config.storage.localDir, 'objects', key);
    expect(fs.existsSync(file)).toBe(true);
    await t.http.delete(`/api/admin/generations/${ok.body.id}`).set(bearer(admin.accessToken)).expect(204);
    expect(fs.existsSync(file)).toBe(false);
    expect(await t.db.query(`SELECT id FROM user_generations WHERE id = $1`, [ok.body.id])).toEqual([]);
    expect((await t.http.get(`/api/generations/${ok.body.id}`).set(bearer(owner.accessToken))).status).toBe(404);
    const trail = await t.http
      .get('/api/admin/audit-log')
      .query({ filter: JSON.stringify({ target_user_id: owner.userId }) })
      .set(bearer(admin.accessToken))
      .expect(200);
    expect(trail.body).toEqual([
      expect.objectContaining({
        actor_id: admin.userId,
        actor_email: adminEmail,
        action: 'generation.remove',
        target_type: 'generation',
        target_id: ok.body.id,
        target_user_id: owner.userId,
        target_email: owner.email,
        before: expect.objectContaining({ status: 'completed', category: 'bikini' }),
        after: { removed: true },
      }),
    ]);
    // gone: 404; not an id: 400
    expect((await t.http.delete(`/api/admin/generations/${ok.body.id}`).set(bearer(admin.accessToken))).status).toBe(404);
    expect((await t.http.delete('/api/admin/generations/not-a-uuid').set(bearer(admin.accessToken))).status).toBe(400);
  });

  it('removes a generation for the abuse-report flow through the exported service', async () => {
    const owner = await person(t, { tier: 'starter', addCredits: 5 });
    const photo = await uploadPhoto(t, owner);
    const ok = await startGeneration(t, owner, { ...IMAGE_START, upload_ids: [photo] });
    await waitForEnd(t, owner, ok.body.id);
    await t.app.get(AdminGenerationsService).remove(admin.userId, ok.body.id, 'abuse report');
    expect(await t.db.query(`SELECT id FROM user_generations WHERE id = $1`, [ok.body.id])).toEqual([]);
    const [row] = await t.db.query(`SELECT action, after FROM audit_log WHERE target_id = $1`, [ok.body.id]);
    expect(row).toEqual({ action: 'generation.remove', after: { removed: true, reason: 'abuse report' } });
  });

  /** A completed generation of a new person, with the path of its result file. */
  async function completedWithFile(): Promise<{ id: string; file: string }> {
    const owner = await person(t, { tier: 'starter', addCredits: 5 });
    const photo = await uploadPhoto(t, owner);
    const ok = await startGeneration(t, owner, { ...IMAGE_START, upload_ids: [photo] });
    expect((await waitForEnd(t, owner, ok.body.id)).status).toBe('completed');
    const key = (await t.db.query(`SELECT result_key FROM user_generations WHERE id = $1`, [ok.body.id]))[0].result_key as string;
    const file = path.join(t.config.storage.localDir, 'objects', key);
    expect(fs.existsSync(file)).toBe(true);
    return { id: ok.body.id, file };
  }

  it('keeps the generation and its file when the audit row cannot be written (one transaction)', async () => {
    const { id, file } = await completedWithFile();
    const audit = jest.spyOn(t.app.get(AuditService), 'record').mockRejectedValueOnce(new Error('audit_log is unavailable'));
    try {
      expect((await t.http.delete(`/api/admin/generations/${id}`).set(bearer(admin.accessToken))).status).toBe(500);
    } finally {
      audit.mockRestore();
    }
    expect(await t.db.query(`SELECT id FROM user_generations WHERE id = $1`, [id])).toEqual([{ id }]);
    expect(fs.existsSync(file)).toBe(true);
    expect(await t.db.query(`SELECT id FROM audit_log WHERE target_id = $1`, [id])).toEqual([]);
    // and a second try, with the audit trail back, removes it
    await t.http.delete(`/api/admin/generations/${id}`).set(bearer(admin.accessToken)).expect(204);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('removes the generation when storage fails, and a queue job deletes the file afterwards', async () => {
    const { id, file } = await completedWithFile();
    const storage = t.app.get<StoragePort>(STORAGE);
    const del = jest.spyOn(storage, 'delete').mockRejectedValueOnce(new Error('storage unavailable'));
    try {
      await t.http.delete(`/api/admin/generations/${id}`).set(bearer(admin.accessToken)).expect(204);
      expect(await t.db.query(`SELECT id FROM user_generations WHERE id = $1`, [id])).toEqual([]);
      expect(await t.db.query(`SELECT action FROM audit_log WHERE target_id = $1`, [id])).toEqual([{ action: 'generation.remove' }]);
      const deadline = Date.now() + 10_000;
      while (fs.existsSync(file) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(fs.existsSync(file)).toBe(false);
      expect(del).toHaveBeenCalledTimes(2); // the request's attempt, then the job's
    } finally {
      del.mockRestore();
    }
  });

  it('draws 30 days of series, every day present, from a seeded scenario', async () => {
    // a day no one else writes to: the series are computed for "now" = 2031-03-15
    const who = await signUp(t.http);
    const seed = async (status: string, createdAt: string, error: string | null = null) =>
      t.db.query(
        `INSERT INTO user_generations (id, user_id, type, status, cost, category, prompt, metadata, stage, max_polls, provider, tier, created_at, error)
         VALUES (gen_random_uuid(), $1, 'image', $2, 1, 'bikini', 'p', '{}', $5, 60, 'preview', 'free', $3, $4)`,
        [who.userId, status, createdAt, error, status === 'completed' ? 'complete' : 'failed'],
      );
    await seed('completed', '2031-03-15T01:00:00Z');
    await seed('completed', '2031-03-15T23:59:00Z');
    await seed('failed', '2031-03-15T10:00:00Z');
    await seed('failed', '2031-03-15T11:00:00Z', 'Cancelled'); // stopped by the person: counted apart
    await seed('completed', '2031-02-14T12:00:00Z'); // the first day of the window
    await seed('completed', '2031-02-13T12:00:00Z'); // one day before: outside
    await t.db.query(
      `INSERT INTO credit_ledger_entries (user_id, kind, bucket, amount, created_at) VALUES ($1, 'generation_charge', 'subscription', -2, '2031-03-10T08:00:00Z')`,
      [who.userId],
    );
    const s = await t.app.get(AdminStatsService).stats(new Date('2031-03-15T12:00:00Z'));
    expect(s.generations_per_day).toHaveLength(30);
    expect(s.generations_per_day[0]).toEqual({ date: '2031-02-14', successful: 1, failed: 0, cancelled: 0 });
    expect(s.generations_per_day.at(-1)).toEqual({ date: '2031-03-15', successful: 2, failed: 1, cancelled: 1 });
    expect(s.generations_per_day.filter((d) => d.successful + d.failed > 0).map((d) => d.date)).toEqual(['2031-02-14', '2031-03-15']);
    const dates = s.generations_per_day.map((d) => d.date);
    expect(new Set(dates).size).toBe(30);
    expect(s.credits_spent_per_day).toHaveLength(30);
    expect(s.credits_spent_per_day.filter((d) => d.credits !== 0)).toEqual([{ date: '2031-03-10', credits: 2 }]);
    // the rate over every generation ended, cancellations left out: integer-exact for the whole table
    const [{ ok, ko }] = await t.db.query(
      `SELECT count(*) FILTER (WHERE status = 'completed')::int AS ok,
              count(*) FILTER (WHERE status = 'failed' AND coalesce(error, '') <> 'Cancelled')::int AS ko FROM user_generations`,
    );
    expect(s.success_rate).toBe(Math.round((ok / (ok + ko)) * 1000) / 10);
    await t.db.query(`DELETE FROM user_generations WHERE user_id = $1`, [who.userId]);
  });
});
