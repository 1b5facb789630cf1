import { newTestService } from '../../../test/helpers/new-test-service';
import { InsufficientCreditsError, NotFoundError, ValidationError } from '../../common/errors';
import { AuditAction, AuditService } from '../audit/audit.service';
import { SessionRevokeReason } from '../auth/session.entity';
import { SessionsRepository } from '../auth/sessions.repository';
import { CreditsService, type CreditBalance } from '../credits/credits.service';
import { GenerationsService } from '../generations/generations.service';
import { SafetyRefusalsService } from '../generations/safety-refusals.service';
import { UserMailService } from '../users/user-mail.service';
import { UserRole } from '../users/user.entity';
import { UsersRepository, type LockedUser } from '../users/users.repository';
import { AdminUsersRepository, type UserRow } from './admin-users.repository';
import { ADMIN_MESSAGES, AdminUsersService, describeActivity, MAX_ADJUSTMENT } from './admin-users.service';
import type { EntityManager } from 'typeorm';

const ADMIN = '11111111-1111-4111-8111-111111111111';
const USER = '22222222-2222-4222-8222-222222222222';

function userRow(over: Partial<UserRow> = {}): UserRow {
  return {
    id: USER,
    email: 'ada@example.com',
    full_name: 'Ada',
    tier: 'free',
    role: UserRole.User,
    subscription_credits: 5,
    purchased_credits: 0,
    credits: 5,
    total_generations: 0,
    email_verified_at: null,
    totp_enabled_at: null,
    suspended_at: null,
    suspension_reason: null,
    created_at: new Date('2026-01-01T00:00:00Z'),
    ...over,
  };
}

function balance(available: number): CreditBalance {
  return { subscription: available, purchased: 0, held: 0, available };
}

/** The service with its read model answering for USER, and transactions run on a fake manager. */
/** `locked`: what locking the account finds (null: no such account). */
function setup(locked: LockedUser | null = { tier: 'free', suspended_at: null, suspension_reason: null }) {
  const built = newTestService(AdminUsersService);
  const { mock } = built;
  const manager = {} as EntityManager;
  const repo = mock(AdminUsersRepository);
  repo.transaction.mockImplementation((work) => work(manager));
  repo.findRow.mockResolvedValue(userRow());
  repo.generationOutcomes.mockResolvedValue({ successful: 0, failed: 0, cancelled: 0 });
  repo.recentActivity.mockResolvedValue([]);
  repo.latestActorEmail.mockResolvedValue(null);
  mock(SafetyRefusalsService).summary.mockResolvedValue({ total: 0, last_24h: 0, paused_until: null, recent: [] });
  mock(UsersRepository).lockForUpdate.mockResolvedValue(locked ?? undefined);
  return { ...built, manager };
}

describe('the recent activity, in words', () => {
  it('says every type and count right: an image, a video, 1 credit, 2 credits', () => {
    expect(describeActivity('generation_started', { type: 'image', category: 'bikini', cost: 1 })).toBe(
      'Started an image generation in bikini',
    );
    expect(describeActivity('generation_started', { type: 'video', category: 'casual', cost: 4 })).toBe(
      'Started a video generation in casual',
    );
    expect(describeActivity('generation_started', {})).toBe('Started a generation');
    expect(describeActivity('generation_completed', { type: 'image', cost: 1 })).toBe('Image generation completed (1 credit)');
    expect(describeActivity('generation_completed', { type: 'video', cost: 2 })).toBe('Video generation completed (2 credits)');
    expect(describeActivity('generation_completed', { cost: 0 })).toBe('Generation completed (0 credits)');
  });

  it('tells a cancellation apart from a failure', () => {
    expect(describeActivity('generation_failed', { reason: 'Cancelled' })).toBe('Cancelled a generation (no credits taken)');
    expect(describeActivity('generation_failed', { reason: 'Generation failed' })).toBe('Generation failed');
    expect(describeActivity('generation_failed', { reason: 'The vendor refused it' })).toBe('Generation failed: The vendor refused it');
  });
});

describe('AdminUsersService', () => {
  describe('suspend', () => {
    it('refuses an admin suspending their own account, and changes nothing', async () => {
      const { sut, mock } = setup();
      await expect(sut.suspend(ADMIN, ADMIN, 'spam')).rejects.toThrow(new ValidationError('You cannot suspend your own account.'));
      expect(mock(UsersRepository).suspend).not.toHaveBeenCalled();
      expect(mock(SessionsRepository).revokeAllOf).not.toHaveBeenCalled();
    });

    it('suspends with the trimmed reason, ends every session, audits it and cancels the running generation', async () => {
      const { sut, mock, manager } = setup();
      await sut.suspend(ADMIN, USER, '  abusive prompts  ');
      expect(mock(UsersRepository).suspend).toHaveBeenCalledWith(manager, USER, 'abusive prompts');
      expect(mock(SessionsRepository).revokeAllOf).toHaveBeenCalledWith(manager, USER, SessionRevokeReason.AccountSuspended);
      expect(mock(AuditService).record).toHaveBeenCalledWith(
        expect.objectContaining({
          action: AuditAction.UserSuspend,
          before: { suspended: false },
          after: { suspended: true, reason: 'abusive prompts' },
        }),
        manager,
      );
      expect(mock(GenerationsService).cancelAllOf).toHaveBeenCalledWith(USER);
    });

    it('leaves a suspended account as it was: no second suspension, no audit row', async () => {
      const { sut, mock } = setup({ tier: 'free', suspended_at: new Date(), suspension_reason: 'spam' });
      await sut.suspend(ADMIN, USER, 'again');
      expect(mock(UsersRepository).suspend).not.toHaveBeenCalled();
      expect(mock(AuditService).record).not.toHaveBeenCalled();
    });

    it('answers NOT_FOUND for an unknown account and "Invalid id" for a malformed one', async () => {
      const { sut } = setup(null);
      await expect(sut.suspend(ADMIN, USER, 'spam')).rejects.toBeInstanceOf(NotFoundError);
      await expect(sut.suspend(ADMIN, 'not-a-uuid', 'spam')).rejects.toThrow(new ValidationError('Invalid id'));
    });
  });

  it('lifting a suspension of an account that is not suspended changes nothing', async () => {
    const { sut, mock } = setup();
    await sut.unsuspend(ADMIN, USER);
    expect(mock(UsersRepository).liftSuspension).not.toHaveBeenCalled();
    expect(mock(AuditService).record).not.toHaveBeenCalled();
  });

  describe('changeTier', () => {
    it('tells the person of an upgrade and of the credits it added', async () => {
      const { sut, mock, manager } = setup();
      mock(CreditsService).applyPlanChange.mockResolvedValue(1);
      await sut.changeTier(ADMIN, USER, 'starter');
      expect(mock(UsersRepository).setTier).toHaveBeenCalledWith(manager, USER, 'starter');
      expect(mock(UserMailService).send).toHaveBeenCalledWith({
        kind: 'account-notice',
        userId: USER,
        title: 'Your plan is now Starter Plan',
        lines: ['Our support team changed your plan to Starter Plan.', '1 credit was added to match the new plan.'],
      });
    });

    it('setting the tier the account already has changes nothing and sends no mail', async () => {
      const { sut, mock } = setup({ tier: 'starter', suspended_at: null, suspension_reason: null });
      await sut.changeTier(ADMIN, USER, 'starter');
      expect(mock(UsersRepository).setTier).not.toHaveBeenCalled();
      expect(mock(UserMailService).send).not.toHaveBeenCalled();
    });
  });

  describe('adjustCredits', () => {
    it.each([
      [{ mode: 'add', amount: 5 }, ADMIN_MESSAGES.fillAllFields],
      [{ mode: 'add', amount: 5, reason: '   ' }, ADMIN_MESSAGES.fillAllFields],
      [{ mode: 'gift', amount: 5, reason: 'goodwill' }, ADMIN_MESSAGES.fillAllFields],
      [{ mode: 'add', amount: 0, reason: 'goodwill' }, ADMIN_MESSAGES.validAmount],
      [{ mode: 'add', amount: 2.5, reason: 'goodwill' }, ADMIN_MESSAGES.validAmount],
      [{ mode: 'add', amount: '5 credits', reason: 'goodwill' }, ADMIN_MESSAGES.validAmount],
      [{ mode: 'add', amount: MAX_ADJUSTMENT + 1, reason: 'goodwill' }, ADMIN_MESSAGES.validAmount],
    ])('refuses %j with "%s", before touching the ledger', async (body, message) => {
      const { sut, mock } = setup();
      await expect(sut.adjustCredits(ADMIN, USER, body)).rejects.toThrow(new ValidationError(message));
      expect(mock(CreditsService).adjust).not.toHaveBeenCalled();
    });

    it('answers not found for an account without credits, changing nothing', async () => {
      const { sut, mock } = setup();
      mock(CreditsService).lockedBalance.mockResolvedValue(null);
      await expect(sut.adjustCredits(ADMIN, USER, { mode: 'add', amount: 1, reason: 'goodwill' })).rejects.toBeInstanceOf(NotFoundError);
      expect(mock(CreditsService).adjust).not.toHaveBeenCalled();
    });

    it('refuses to deduct more than the account has, with the amounts', async () => {
      const { sut, mock } = setup();
      mock(CreditsService).lockedBalance.mockResolvedValue(balance(3));
      const refused = sut.adjustCredits(ADMIN, USER, { mode: 'deduct', amount: 4, reason: 'refund reversed' });
      await expect(refused).rejects.toBeInstanceOf(InsufficientCreditsError);
      await expect(refused).rejects.toMatchObject({ required: 4, available: 3 });
      expect(mock(CreditsService).adjust).not.toHaveBeenCalled();
    });

    it('accepts an amount typed as text and tells the person what changed and what they have now', async () => {
      const { sut, mock } = setup();
      mock(CreditsService).lockedBalance.mockResolvedValue(balance(5));
      mock(CreditsService).adjust.mockResolvedValue({ balance: balance(6), amount: 1, mode: 'add' });
      await sut.adjustCredits(ADMIN, USER, { mode: 'add', amount: ' 1 ', reason: ' goodwill ' });
      expect(mock(CreditsService).adjust).toHaveBeenCalledWith(
        { userId: USER, mode: 'add', amount: 1, reason: 'goodwill', actorId: ADMIN },
        expect.anything(),
      );
      expect(mock(UserMailService).send).toHaveBeenCalledWith({
        kind: 'account-notice',
        userId: USER,
        title: '1 credit added to your account',
        lines: ['Our support team added 1 credit: goodwill', 'You now have 6 credits.'],
      });
    });
  });

  it('shows the refused texts to admins only', async () => {
    const { sut, mock } = setup();
    const refusal = { id: 'r1', reasons: ['violence'], text: 'a pose', source: 'check', created_at: '2026-01-01T00:00:00.000Z' };
    mock(SafetyRefusalsService).summary.mockImplementation(async () => ({
      total: 1,
      last_24h: 1,
      paused_until: null,
      recent: [{ ...refusal }],
    }));
    expect((await sut.details(USER, UserRole.Admin)).refusals.recent[0].text).toBe('a pose');
    expect((await sut.details(USER, UserRole.Support)).refusals.recent[0].text).toBeNull();
  });
});
