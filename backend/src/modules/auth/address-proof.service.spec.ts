import { Logger } from '@nestjs/common';
import { newTestService } from '../../../test/helpers/new-test-service';
import { MessageQueueService } from '../../queue';
import { STORAGE } from '../../storage';
import { AnalyticsRepository } from '../analytics/analytics.repository';
import { AuditService } from '../audit/audit.service';
import { CreditsService } from '../credits/credits.service';
import { AccountDeletionService } from '../privacy/account-deletion.service';
import { PrivacyRepository } from '../privacy/privacy.repository';
import { SupportRepository } from '../support/support.repository';
import { UserEntity, UserRole, UserTier } from '../users/user.entity';
import { UsersRepository } from '../users/users.repository';
import { UsersService } from '../users/users.service';
import { ACCOUNT_CLAIMED_ACTION, AddressProofService, type ProvenAddress } from './address-proof.service';
import { SessionRevokeReason } from './session.entity';
import { SessionsService } from './sessions.service';
import { AuthTokenPurpose } from './tokens/auth-token.entity';
import { AuthTokensService } from './tokens/auth-tokens.service';
import { TwoFactorService } from './two-factor/two-factor.service';
import type { EntityManager } from 'typeorm';

function account(overrides: Partial<UserEntity> = {}): UserEntity {
  return Object.assign(new UserEntity(), {
    id: 'made',
    email: 'pat@example.com',
    fullName: 'Not The Owner',
    passwordHash: '$argon2id$makers',
    role: UserRole.User,
    tier: UserTier.Free,
    ageConfirmedAt: new Date(),
    emailVerifiedAt: null,
    totpEnabledAt: new Date(),
    totpSecret: 'sealed',
    googleSub: null,
    createdAt: new Date('2026-11-01T10:00:00Z'),
    ...overrides,
  });
}

describe('AddressProofService: the one path by which an address gets its owner', () => {
  const m = {} as EntityManager;
  const storage = { deletePrefix: jest.fn(async () => 0) };
  let service: AddressProofService;
  let mock: ReturnType<typeof newTestService<AddressProofService>>['mock'];

  beforeEach(() => {
    for (const level of ['log', 'error'] as const) jest.spyOn(Logger.prototype, level).mockImplementation(() => undefined);
    storage.deletePrefix.mockReset().mockResolvedValue(0);
    ({ sut: service, mock } = newTestService(AddressProofService, { provide: STORAGE, useValue: storage }));
    mock(UsersService).findUnverifiedByEmail.mockResolvedValue([]);
    mock(UsersService).markEmailVerified.mockImplementation(async (_m, user) => ({
      user: Object.assign(user, { emailVerifiedAt: new Date() }),
      displaced: [],
    }));
    mock(PrivacyRepository).deleteContentRows.mockResolvedValue([]);
  });

  afterEach(() => jest.restoreAllMocks());

  const discarded = () => mock(TwoFactorService).reset.mock.calls.length > 0;

  it('confirms the only sign-up of an address through its link as it is', async () => {
    const made = account();
    const proven = await service.prove(m, made, 'verification_link');
    expect(proven).toMatchObject({ claimed: false, displaced: [], proof: 'verification_link' });
    expect(discarded()).toBe(false);
    expect(mock(UsersRepository).update).not.toHaveBeenCalled();
    expect(storage.deletePrefix).not.toHaveBeenCalled();
    expect(mock(AuditService).record).not.toHaveBeenCalled();
    expect(mock(UsersService).markEmailVerified).toHaveBeenCalledWith(m, made);
  });

  it.each([
    [
      'a confirmation link while another sign-up waits',
      'verification_link' as const,
      {},
      { passwordHash: null, googleSub: null, fullName: '' },
    ],
    [
      'a reset link',
      'reset_link' as const,
      { passwordHash: '$argon2id$owners' },
      { passwordHash: '$argon2id$owners', googleSub: null, fullName: '' },
    ],
    ['Google', 'google' as const, { googleSub: 'g1', fullName: 'Pat' }, { passwordHash: null, googleSub: 'g1', fullName: 'Pat' }],
  ])('takes the account over after %s: everything its maker set goes, in the transaction, audited', async (_label, proof, owner, set) => {
    const other = account({ id: 'other', createdAt: new Date('2026-11-02T08:30:00Z') });
    mock(UsersService).findUnverifiedByEmail.mockResolvedValue(proof === 'verification_link' ? [other, account()] : [account()]);
    mock(UsersService).markEmailVerified.mockImplementation(async (_m, user) => ({
      user,
      displaced: proof === 'verification_link' ? ['other'] : [],
    }));
    mock(PrivacyRepository).deleteContentRows.mockResolvedValue(['g-1', 'g-2']);
    const made = account();

    const proven = await service.prove(m, made, proof, owner);

    expect(proven.claimed).toBe(true);
    expect(mock(UsersRepository).lockSignUps).toHaveBeenCalledWith(m, 'pat@example.com');
    expect(mock(UsersRepository).update).toHaveBeenCalledWith('made', { ...set, ageConfirmedAt: null }, m);
    expect(mock(TwoFactorService).reset).toHaveBeenCalledWith(m, 'made');
    expect(mock(SessionsService).revokeAllForUser).toHaveBeenCalledWith('made', SessionRevokeReason.AccountClaimed, { manager: m });
    expect(mock(AuthTokensService).revokeAll).toHaveBeenCalledWith(m, 'made', [
      AuthTokenPurpose.EmailVerification,
      AuthTokenPurpose.PasswordReset,
      AuthTokenPurpose.MfaChallenge,
    ]);
    expect(mock(UsersRepository).deleteSettings).toHaveBeenCalledWith(m, 'made');
    expect(mock(AnalyticsRepository).deleteActivityOf).toHaveBeenCalledWith('made', m);
    expect(mock(SupportRepository).detachUser).toHaveBeenCalledWith('made', m);
    expect(mock(PrivacyRepository).deleteContentRows).toHaveBeenCalledWith(m, 'made');
    expect(mock(CreditsService).release.mock.calls).toEqual([
      ['g-1', m],
      ['g-2', m],
    ]);
    expect(storage.deletePrefix).toHaveBeenCalledWith('users/made/');
    expect(made).toMatchObject({ totpEnabledAt: null, totpSecret: null, fullName: set.fullName, ageConfirmedAt: null });
    expect(mock(AuditService).record).toHaveBeenCalledWith(
      expect.objectContaining({
        action: ACCOUNT_CLAIMED_ACTION,
        targetUserId: 'made',
        after: { proof, removed_sign_ups: proven.displaced.length },
      }),
      m,
    );
    if (proof === 'verification_link') expect(proven.displaced).toEqual([{ id: 'other', createdAt: other.createdAt }]);
  });

  it('fails (and so rolls the proof back) when the files cannot be deleted', async () => {
    storage.deletePrefix.mockRejectedValueOnce(new Error('S3 unavailable'));
    await expect(service.prove(m, account(), 'reset_link', { passwordHash: 'h' })).rejects.toThrow('S3 unavailable');
    expect(mock(UsersService).markEmailVerified).not.toHaveBeenCalled();
  });

  describe('once the proof committed', () => {
    const proven = (overrides: Partial<ProvenAddress>): ProvenAddress => ({
      user: account({ emailVerifiedAt: new Date() }),
      proof: 'verification_link',
      claimed: false,
      displaced: [],
      ...overrides,
    });

    it('removes the other sign-ups as a deletion does and tells the address when and which', async () => {
      const createdAt = new Date('2026-11-02T08:30:00Z');
      await service.settle(proven({ proof: 'reset_link', claimed: true, displaced: [{ id: 'other', createdAt }] }));
      expect(mock(AccountDeletionService).deleteAccount).toHaveBeenCalledWith('other', { notify: false });
      expect(mock(MessageQueueService).add).toHaveBeenCalledWith(
        'auth.account-mail',
        { kind: 'sign-ups-removed', userId: 'made', removed: [createdAt.toISOString()] },
        expect.anything(),
      );
    });

    it('asks whoever opened a confirmation link that took an account over to choose a password', async () => {
      await service.settle(proven({ claimed: true, displaced: [{ id: 'other', createdAt: new Date(0) }] }));
      expect(mock(MessageQueueService).add).toHaveBeenCalledWith(
        'auth.account-mail',
        expect.objectContaining({ kind: 'sign-ups-removed', setPassword: true }),
        expect.anything(),
      );
    });

    it('mails nothing when nothing was removed and no password is to be chosen', async () => {
      await service.settle(proven({ proof: 'google', claimed: true }));
      await service.settle(proven({}));
      expect(mock(AccountDeletionService).deleteAccount).not.toHaveBeenCalled();
      expect(mock(MessageQueueService).add).not.toHaveBeenCalled();
    });

    it('still tells the address when a removal failed, and a queue that refuses fails nothing', async () => {
      mock(AccountDeletionService).deleteAccount.mockRejectedValueOnce(new Error('database away'));
      mock(MessageQueueService).add.mockRejectedValueOnce(new Error('redis away'));
      await expect(service.settle(proven({ displaced: [{ id: 'other', createdAt: new Date(0) }] }))).resolves.toBeUndefined();
      expect(mock(MessageQueueService).add).toHaveBeenCalledTimes(1);
    });
  });
});
