import { randomUUID } from 'node:crypto';
import { DataSource, In } from 'typeorm';
import { UploadsRetentionJob } from '../../src/modules/privacy/uploads-retention.job';
import { UploadEntity } from '../../src/modules/uploads/upload.entity';
import { JobName, JobRegistry, MessageQueueService } from '../../src/queue';
import { STORAGE, type StoragePort } from '../../src/storage';
import { signUp } from '../helpers/auth';
import { createTestApp, type TestApp } from '../helpers/test-app';

const DAY = 24 * 3600 * 1000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY);

async function waitFor(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('the uploads retention sweep', () => {
  let t: TestApp;
  let db: DataSource;
  let storage: StoragePort;
  let job: UploadsRetentionJob;
  let userId: string;
  let otherUserId: string;

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
    storage = t.app.get<StoragePort>(STORAGE);
    job = t.app.get(UploadsRetentionJob);
    userId = (await signUp(t.http)).userId;
    otherUserId = (await signUp(t.http)).userId;
    // the sweep this app scheduled at start has run: from here on only the tests run it
    const queue = t.app.get(MessageQueueService);
    await waitFor(async () => {
      const c = await queue.counts();
      return c.active === 0 && c.waiting === 0;
    });
  });
  afterAll(async () => t?.close());

  /** An upload row and its object, created and last used the given number of days ago. */
  async function upload(owner: string, createdDaysAgo: number, lastUsedDaysAgo: number, withObject = true): Promise<UploadEntity> {
    const id = randomUUID();
    const row = { id, userId: owner, storageKey: `users/${owner}/uploads/${id}.jpg`, width: 8, height: 8, sizeBytes: 3, receivedBytes: 3 };
    await db.getRepository(UploadEntity).insert(row);
    await db.query(`UPDATE uploads SET created_at = $2, last_used_at = $3 WHERE id = $1`, [
      id,
      daysAgo(createdDaysAgo),
      daysAgo(lastUsedDaysAgo),
    ]);
    if (withObject) await storage.put(row.storageKey, Buffer.from('jpg'), { contentType: 'image/jpeg' });
    return db.getRepository(UploadEntity).findOneByOrFail({ id });
  }

  async function remaining(rows: UploadEntity[]): Promise<Array<{ id: string; row: boolean; object: boolean }>> {
    const present = new Set((await db.getRepository(UploadEntity).findBy({ id: In(rows.map((r) => r.id)) })).map((r) => r.id));
    return Promise.all(rows.map(async (r) => ({ id: r.id, row: present.has(r.id), object: await storage.exists(r.storageKey) })));
  }

  it('deletes exactly the photos unused for 30 days (row and object), and a second run changes nothing', async () => {
    await job.sweep(); // whatever earlier tests left
    const stale = [await upload(userId, 31, 31), await upload(userId, 90, 45), await upload(otherUserId, 31, 31)];
    const fresh = [
      await upload(userId, 31, 1), // old, but used yesterday
      await upload(userId, 31, 29), // used 29 days ago
      await upload(userId, 0, 0), // new
      await upload(otherUserId, 29, 29),
    ];

    await expect(job.sweep()).resolves.toBe(stale.length);
    expect(await remaining(stale)).toEqual(stale.map((r) => ({ id: r.id, row: false, object: false })));
    expect(await remaining(fresh)).toEqual(fresh.map((r) => ({ id: r.id, row: true, object: true })));

    await expect(job.sweep()).resolves.toBe(0);
    expect(await remaining(fresh)).toEqual(fresh.map((r) => ({ id: r.id, row: true, object: true })));
  });

  it('deletes a stale row whose object is already gone (a retry after a partial run)', async () => {
    const orphan = await upload(userId, 40, 40, false);
    await expect(job.sweep()).resolves.toBe(1);
    expect(await remaining([orphan])).toEqual([{ id: orphan.id, row: false, object: false }]);
  });

  it('keeps the rows when the storage fails, and finishes on the next run', async () => {
    const rows = [await upload(userId, 35, 35), await upload(userId, 35, 35)];
    const spy = jest.spyOn(storage, 'delete').mockRejectedValueOnce(new Error('storage unavailable'));
    try {
      await expect(job.sweep()).rejects.toThrow('storage unavailable');
      expect((await remaining(rows)).map((r) => r.row)).toEqual([true, true]);
    } finally {
      spy.mockRestore();
    }
    await expect(job.sweep()).resolves.toBe(2);
    expect(await remaining(rows)).toEqual(rows.map((r) => ({ id: r.id, row: false, object: false })));
  });

  it('works through more than one batch of 500', async () => {
    const ids = Array.from({ length: 1203 }, () => randomUUID());
    await db.getRepository(UploadEntity).insert(
      ids.map((id) => ({
        id,
        userId: otherUserId,
        storageKey: `users/${otherUserId}/uploads/${id}.jpg`,
        width: 1,
        height: 1,
        sizeBytes: 1,
        receivedBytes: 1,
        createdAt: daysAgo(60),
        lastUsedAt: daysAgo(60),
      })),
    );
    await db.query(`UPDATE uploads SET created_at = $2, last_used_at = $2 WHERE id = ANY($1::uuid[])`, [ids, daysAgo(60)]);
    const keep = await upload(otherUserId, 60, 2);
    await expect(job.sweep()).resolves.toBe(1203);
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM uploads WHERE id = ANY($1::uuid[])`, [ids]);
    expect(n).toBe(0);
    expect(await remaining([keep])).toEqual([{ id: keep.id, row: true, object: true }]);
  });

  it('runs as the queue job uploads.retention-sweep', async () => {
    expect(t.app.get(JobRegistry).get(JobName.UploadsRetentionSweep)?.owner).toBe('UploadsRetentionJob.handleUploadsRetentionSweep');
    const stale = await upload(userId, 31, 31);
    await t.app.get(MessageQueueService).add(JobName.UploadsRetentionSweep, {});
    await waitFor(async () => !(await remaining([stale]))[0].row);
    expect(await remaining([stale])).toEqual([{ id: stale.id, row: false, object: false }]);
  });

  it('follows UPLOAD_RETENTION_DAYS', async () => {
    const seven = await createTestApp({ UPLOAD_RETENTION_DAYS: '7' });
    try {
      const rows = [await upload(userId, 8, 8), await upload(userId, 6, 6)];
      // (the count is not asserted: this app's own scheduled first run may get there first)
      await seven.app.get(UploadsRetentionJob).sweep();
      expect((await remaining(rows)).map((r) => r.row)).toEqual([false, true]);
    } finally {
      await seven.close();
    }
  });
});
