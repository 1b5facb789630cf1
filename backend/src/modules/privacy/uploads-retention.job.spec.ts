import { ConfigurationError, loadConfig, type AppConfig } from '../../config/app-config';
import { testConfig } from '../../config/test-config';
import { JobName, type MessageQueueService } from '../../queue';
import { UPLOADS_RETENTION_BATCH, UPLOADS_RETENTION_EVERY_MS, UploadsRetentionJob } from './uploads-retention.job';
import type { StoragePort } from '../../storage';
import type { PrivacyRepository, StaleUpload } from './privacy.repository';

const DAY = 24 * 3600 * 1000;

function setup(batches: number[], config: AppConfig = testConfig(), consuming = true) {
  const deleted: string[] = [];
  const cutoffs: Date[] = [];
  let call = 0;
  const repository = {
    deleteStaleUploadsBatch: jest.fn(async (cutoff: Date, limit: number, removeFiles: (u: StaleUpload[]) => Promise<void>) => {
      cutoffs.push(cutoff);
      const n = Math.min(batches[call++] ?? 0, limit);
      await removeFiles(Array.from({ length: n }, (_, i) => ({ id: `${call}-${i}`, storageKey: `users/u/uploads/${call}-${i}.jpg` })));
      return n;
    }),
  };
  const storage = { delete: jest.fn(async (key: string) => void deleted.push(key)) };
  const queue = { consuming, addRepeatable: jest.fn(async () => undefined) };
  const job = new UploadsRetentionJob(
    repository as unknown as PrivacyRepository,
    storage as unknown as StoragePort,
    queue as unknown as MessageQueueService,
    config,
  );
  return { job, repository, storage, queue, deleted, cutoffs };
}

describe('UploadsRetentionJob', () => {
  it('deletes in batches of 500 until a batch is not full, each photo object included', async () => {
    const { job, repository, deleted } = setup([500, 500, 3]);
    await expect(job.sweep()).resolves.toBe(1003);
    expect(repository.deleteStaleUploadsBatch).toHaveBeenCalledTimes(3);
    expect(repository.deleteStaleUploadsBatch.mock.calls.every((c) => c[1] === UPLOADS_RETENTION_BATCH)).toBe(true);
    expect(UPLOADS_RETENTION_BATCH).toBe(500);
    expect(new Set(deleted).size).toBe(1003);
  });

  it('stops after one query when nothing is stale', async () => {
    const { job, repository } = setup([]);
    await expect(job.sweep()).resolves.toBe(0);
    expect(repository.deleteStaleUploadsBatch).toHaveBeenCalledTimes(1);
  });

  it('uses UPLOAD_RETENTION_DAYS for the cutoff, 30 days by default', async () => {
    const now = new Date('2030-06-30T12:00:00Z');
    const seven = setup([0], testConfig({ privacy: { uploadRetentionDays: 7 } }));
    await seven.job.sweep(now);
    expect(seven.cutoffs[0].getTime()).toBe(now.getTime() - 7 * DAY);
    const none = setup([0], testConfig());
    await none.job.sweep(now);
    expect(none.cutoffs[0].getTime()).toBe(now.getTime() - 30 * DAY);
  });

  it('propagates a storage failure, so the batch rolls back and the job is retried', async () => {
    const { job, storage } = setup([2]);
    storage.delete.mockRejectedValueOnce(new Error('S3 unavailable'));
    await expect(job.sweep()).rejects.toThrow('S3 unavailable');
  });

  it('schedules itself every 6 hours, only in a process that consumes jobs', async () => {
    const consumer = setup([]);
    await consumer.job.onApplicationBootstrap();
    expect(consumer.queue.addRepeatable).toHaveBeenCalledWith(
      JobName.UploadsRetentionSweep,
      {},
      6 * 3600 * 1000,
      'uploads-retention-sweep',
    );
    expect(UPLOADS_RETENTION_EVERY_MS).toBe(6 * 3600 * 1000);
    const producer = setup([], undefined, false);
    await producer.job.onApplicationBootstrap();
    expect(producer.queue.addRepeatable).not.toHaveBeenCalled();
  });
});

describe('UPLOAD_RETENTION_DAYS', () => {
  const env = { DATABASE_URL: 'postgres://u@localhost/db', FILES_SIGNING_SECRET: 'x'.repeat(32), AUTH_JWT_SECRET: 'y'.repeat(32) };

  it('defaults to 30 and takes a whole number of days', () => {
    expect(loadConfig(env).privacy).toEqual({ uploadRetentionDays: 30 });
    expect(loadConfig({ ...env, UPLOAD_RETENTION_DAYS: '7' }).privacy).toEqual({ uploadRetentionDays: 7 });
  });

  it.each(['0', '-1', 'abc', '1.5'])('refuses %j', (value) => {
    expect(() => loadConfig({ ...env, UPLOAD_RETENTION_DAYS: value })).toThrow(ConfigurationError);
  });
});
