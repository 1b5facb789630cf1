import { Logger } from '@nestjs/common';
import { JobName, type MessageQueueService } from '../../queue';
import { ACCOUNT_FILES_CLEANUP_OPTIONS, AccountDeletionService, accountFilesPrefix, userIdHash } from './account-deletion.service';
import type { StoragePort } from '../../storage';
import type { OutboxService } from '../mail/outbox.service';
import type { DeletedAccount, PrivacyRepository } from './privacy.repository';

const USER = '0b0f3c4e-6a3e-4a57-9d6c-2d0b8f1e4c11';

function setup() {
  const calls: string[] = [];
  const repository = {
    deleteAccountRows: jest.fn(
      async (): Promise<DeletedAccount | null> => (calls.push('rows'), { email: 'ada@example.com', verified: true, addressInUse: false }),
    ),
  };
  const storage = { deletePrefix: jest.fn(async () => (calls.push('files'), 3)) };
  const queue = { add: jest.fn(async () => undefined) };
  const service = new AccountDeletionService(
    repository as unknown as PrivacyRepository,
    storage as unknown as StoragePort,
    queue as unknown as MessageQueueService,
  );
  return { service, repository, storage, queue, calls };
}

describe('AccountDeletionService', () => {
  let logged: unknown[][];
  beforeEach(() => {
    logged = [];
    for (const level of ['log', 'warn', 'error'] as const) {
      jest.spyOn(Logger.prototype, level).mockImplementation((...args: unknown[]) => void logged.push(args));
    }
  });
  afterEach(() => jest.restoreAllMocks());

  it('deletes the rows first (committed), then every file under users/<id>/', async () => {
    const { service, repository, storage, queue, calls } = setup();
    await service.deleteAccount(USER);
    expect(calls).toEqual(['rows', 'files']);
    expect(repository.deleteAccountRows).toHaveBeenCalledWith(USER);
    expect(storage.deletePrefix).toHaveBeenCalledWith(`users/${USER}/`);
    expect(queue.add).not.toHaveBeenCalled();
  });

  it('never touches files when the rows could not be deleted', async () => {
    const { service, repository, storage } = setup();
    repository.deleteAccountRows.mockRejectedValueOnce(new Error('database down'));
    await expect(service.deleteAccount(USER)).rejects.toThrow('database down');
    expect(storage.deletePrefix).not.toHaveBeenCalled();
  });

  it('when the files cannot be deleted, still succeeds and queues a retrying cleanup job', async () => {
    const { service, storage, queue } = setup();
    storage.deletePrefix.mockRejectedValueOnce(new Error('S3 unavailable'));
    await expect(service.deleteAccount(USER)).resolves.toBeUndefined();
    expect(queue.add).toHaveBeenCalledWith(
      JobName.AccountFilesCleanup,
      { userId: USER },
      { ...ACCOUNT_FILES_CLEANUP_OPTIONS, jobId: `account-files-${USER}` },
    );
    expect(ACCOUNT_FILES_CLEANUP_OPTIONS.attempts).toBeGreaterThan(3);
  });

  it('still succeeds when neither the files nor the cleanup job work, and says so in the log', async () => {
    const { service, storage, queue } = setup();
    storage.deletePrefix.mockRejectedValueOnce(new Error('S3 unavailable'));
    queue.add.mockRejectedValueOnce(new Error('Redis unavailable'));
    await expect(service.deleteAccount(USER)).resolves.toBeUndefined();
    expect(logged.some((args) => (args[0] as { event?: string }).event === 'account_files_cleanup_not_queued')).toBe(true);
  });

  it('logs a pseudonym, never the account id', async () => {
    const { service, storage } = setup();
    await service.deleteAccount(USER);
    storage.deletePrefix.mockRejectedValueOnce(new Error('S3 unavailable'));
    await service.deleteAccount(USER);
    expect(logged.length).toBeGreaterThanOrEqual(3);
    const text = JSON.stringify(logged, (_k, v) => (v instanceof Error ? v.message : v));
    expect(text).not.toContain(USER);
    expect(text).toContain(userIdHash(USER));
    expect(userIdHash(USER)).toMatch(/^[0-9a-f]{16}$/);
    expect(userIdHash(USER)).not.toBe(userIdHash('another-id'));
  });

  it('the cleanup job deletes the prefix, and throws (to be retried) while storage fails', async () => {
    const { service, storage } = setup();
    await service.handleAccountFilesCleanup({ userId: USER });
    expect(storage.deletePrefix).toHaveBeenCalledWith(accountFilesPrefix(USER));
    storage.deletePrefix.mockRejectedValueOnce(new Error('S3 unavailable'));
    await expect(service.handleAccountFilesCleanup({ userId: USER })).rejects.toThrow('S3 unavailable');
  });

  describe("the outbox's mail files (no SMTP)", () => {
    function withOutbox() {
      const parts = setup();
      const outbox = { forget: jest.fn(async () => (parts.calls.push('mail'), 2)) };
      const service = new AccountDeletionService(
        parts.repository as unknown as PrivacyRepository,
        parts.storage as unknown as StoragePort,
        parts.queue as unknown as MessageQueueService,
        undefined,
        undefined,
        outbox as unknown as OutboxService,
      );
      return { ...parts, service, outbox };
    }

    it.each([
      ['a verified account: its mailbox, every message of the address', { verified: true, addressInUse: true }, true],
      ['an unverified account alone on its address', { verified: false, addressInUse: false }, true],
      ['an unverified account whose address someone else keeps: only its own mail', { verified: false, addressInUse: true }, false],
    ])('goes after the rows and files: %s', async (_label, who, wholeAddress) => {
      const { service, repository, outbox, calls } = withOutbox();
      repository.deleteAccountRows.mockImplementationOnce(async () => (calls.push('rows'), { email: 'ada@example.com', ...who }));
      await service.deleteAccount(USER);
      expect(calls).toEqual(['rows', 'files', 'mail']);
      expect(outbox.forget).toHaveBeenCalledWith({ userId: USER, email: 'ada@example.com', wholeAddress });
    });

    it('is not asked when there was no such account, and a failure of it fails nothing', async () => {
      const { service, repository, outbox } = withOutbox();
      repository.deleteAccountRows.mockResolvedValueOnce(null);
      await service.deleteAccount(USER);
      expect(outbox.forget).not.toHaveBeenCalled();
      outbox.forget.mockRejectedValueOnce(new Error('EACCES'));
      await expect(service.deleteAccount(USER)).resolves.toBeUndefined();
      expect(logged.some((args) => (args[0] as { event?: string }).event === 'account_mail_delete_failed')).toBe(true);
    });
  });
});
