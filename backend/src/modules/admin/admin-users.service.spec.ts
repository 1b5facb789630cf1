import { newTestService } from '../../../test/helpers/new-test-service';
import { ConflictError, ForbiddenError, InsufficientCreditsError, NotFoundError, ValidationError } from '../../common/errors';
import { APP_CONFIG } from '../../config/config.module';
import { testConfig } from '../../config/test-config';
import { AuditAction, AuditService } from '../audit/audit.service';
import { SessionRevokeReason } from '../auth/session.entity';
import { SessionsRepository } from '../auth/sessions.repository';
import { CreditsService, type CreditBalance } from '../credits/credits.service';
import { FacesRepository } from '../faces/faces.repository';
import { GenerationsService } from '../generations/generations.service';
import { SafetyRefusalsService } from '../generations/safety-refusals.service';
import { UserMailService } from '../users/user-mail.service';
import { UserRole } from '../users/user.entity';
import { UsersRepository, type LockedUser } from '../users/users.repository';
import { UsersService } from '../users/users.service';
import { AdminUsersRepository, type UserRow } from './admin-users.repository';
import {
  ADMIN_MESSAGES,
  AdminUsersService,
  describeActivity,
  MAX_ADJUSTMENT,
  tierChangeMoved,
  tierChangeSummary,
} from './admin-users.service';
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
/** `locked`: what locking the account finds (null: no such account); `staff2fa`: AUTH_REQUIRE_STAFF_2FA. */
function setup(locked: Partial<LockedUser> | null = {}, staff2fa = false) {
  const built = newTestService(AdminUsersService, {
    provide: APP_CONFIG,
    useValue: testConfig({ auth: { requireStaffTwoFactor: staff2fa } }),
  });
  const { mock } = built;
  const manager = {} as EntityManager;
  const repo = mock(AdminUsersRepository);
  repo.transaction.mockImplementation((work) => work(manager));
  repo.findRow.mockResolvedValue(userRow());
  repo.generationOutcomes.mockResolvedValue({ successful: 0, failed: 0, cancelled: 0 });
  repo.recentActivity.mockResolvedValue([]);
  repo.latestActorEmail.mockResolvedValue(null);
  mock(SafetyRefusalsService).summary.mockResolvedValue({ total: 0, last_24h: 0, paused_until: null, recent: [] });
  const faces = mock(FacesRepository);
  faces.verifiedAt.mockResolvedValue(null);
  faces.countRefusals.mockResolvedValue(0);
  faces.countRefusalsSince.mockResolvedValue(0);
  faces.recentEvents.mockResolvedValue([]);
  mock(UsersRepository).lockForUpdate.mockResolvedValue(
    locked
      ? { email: 'ada@example.com', role: UserRole.User, tier: 'free', suspended_at: null, suspension_reason: null, ...locked }
      : undefined,
  );
  mock(UsersRepository).lockActiveAdmins.mockResolvedValue([ADMIN]);
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
      const { sut, mock } = setup({ suspended_at: new Date(), suspension_reason: 'spam' });
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
      const { sut, mock } = setup({ tier: 'starter' });
      await sut.changeTier(ADMIN, USER, 'starter');
      expect(mock(UsersRepository).setTier).not.toHaveBeenCalled();
      expect(mock(UserMailService).send).not.toHaveBeenCalled();
    });
  });

  describe('previewTierChange', () => {
    const before = { subscription: 0, purchased: 12, held: 0, available: 12 };

    it("states the server's own figure of an upgrade, changing nothing", async () => {
      const { sut, mock } = setup();
      mock(AdminUsersRepository).findRow.mockResolvedValue(userRow({ tier: 'starter' }));
      mock(CreditsService).previewPlanChange.mockResolvedValue({
        added: 70,
        before,
        after: { ...before, subscription: 70, available: 82 },
        renewedByStripe: false,
      });
      const preview = await sut.previewTierChange(USER, 'glow_up');
      expect(mock(CreditsService).previewPlanChange).toHaveBeenCalledWith(USER, 'starter', 'glow_up');
      expect(preview).toMatchObject({
        from_tier: 'starter',
        to_tier: 'glow_up',
        unchanged: false,
        credits_added: 70,
        credits_before: 12,
        credits_after: 82,
        monthly_credits: 70,
        title: 'Change tier from Starter to Glow Up?',
        summary: 'This gives 70 subscription credits now (balance 12 -> 82). The person is told by mail.',
      });
      expect(mock(UsersRepository).setTier).not.toHaveBeenCalled();
      expect(mock(CreditsService).applyPlanChange).not.toHaveBeenCalled();
      expect(mock(AuditService).record).not.toHaveBeenCalled();
    });

    it('says that the same tier changes nothing, and answers 404 for an unknown account', async () => {
      const { sut, mock } = setup();
      mock(CreditsService).previewPlanChange.mockResolvedValue({ added: 0, before, after: before, renewedByStripe: false });
      expect(await sut.previewTierChange(USER, 'free')).toMatchObject({ unchanged: true, credits_added: 0, summary: 'Nothing changes.' });
      mock(AdminUsersRepository).findRow.mockResolvedValue(undefined);
      await expect(sut.previewTierChange(USER, 'starter')).rejects.toBeInstanceOf(NotFoundError);
      await expect(sut.previewTierChange('nope', 'starter')).rejects.toThrow(new ValidationError('Invalid id'));
    });
  });

  describe('the tier change in words', () => {
    const starter = { name: 'Starter', monthlyCredits: 20 };
    const glowUp = { name: 'Glow Up', monthlyCredits: 70 };
    it('an upgrade that adds, one that adds nothing (a fuller balance), a downgrade, and a Stripe subscription', () => {
      expect(tierChangeSummary(starter, glowUp, 1, { subscription: 69, available: 69 }, { subscription: 70, available: 70 }, false)).toBe(
        'This gives 1 subscription credit now (balance 69 -> 70). The person is told by mail.',
      );
      expect(tierChangeSummary(starter, glowUp, 0, { subscription: 95, available: 95 }, { subscription: 95, available: 95 }, false)).toBe(
        "No credits are added: the 95 subscription credits already there are at least Glow Up's 70 (balance stays 95). The person is told by mail.",
      );
      expect(tierChangeSummary(glowUp, starter, 0, { subscription: 82, available: 82 }, { subscription: 82, available: 82 }, true)).toBe(
        'No credits are taken back (balance stays 82); from the next monthly reset, Starter gives 20 subscription credits. ' +
          "The person is told by mail. They pay for a plan at Stripe: the next change of that subscription sets the tier to Stripe's plan again.",
      );
    });
  });

  describe('changeTier with the confirmed figure', () => {
    it('applies when the change gives what the confirmation said', async () => {
      const { sut, mock } = setup({ tier: 'starter' });
      mock(CreditsService).applyPlanChange.mockResolvedValue(70);
      await sut.changeTier(ADMIN, USER, 'glow_up', 70);
      expect(mock(AuditService).record).toHaveBeenCalledWith(
        expect.objectContaining({
          action: AuditAction.TierChange,
          before: { tier: 'starter' },
          after: { tier: 'glow_up', credits_added: 70 },
        }),
        expect.anything(),
      );
    });

    it('refuses (409, inside the transaction) when the balance moved and the change now gives another figure: no audit row, no mail', async () => {
      const { sut, mock } = setup({ tier: 'starter' });
      mock(CreditsService).applyPlanChange.mockResolvedValue(50);
      await expect(sut.changeTier(ADMIN, USER, 'glow_up', 70)).rejects.toThrow(new ConflictError(tierChangeMoved(50)));
      expect(mock(AuditService).record).not.toHaveBeenCalled();
      expect(mock(UserMailService).send).not.toHaveBeenCalled();
    });
  });

  describe('setRole', () => {
    const OTHER_ADMIN = '33333333-3333-4333-8333-333333333333';

    it('makes a user support staff: audited in the transaction, and the person is told', async () => {
      const { sut, mock, manager } = setup({}, true);
      await sut.setRole(ADMIN, USER, UserRole.Support);
      expect(mock(UsersRepository).setRole).toHaveBeenCalledWith(manager, USER, UserRole.Support);
      expect(mock(AuditService).record).toHaveBeenCalledWith(
        {
          actorId: ADMIN,
          action: AuditAction.RoleChange,
          targetType: 'user',
          targetId: USER,
          targetUserId: USER,
          before: { role: UserRole.User },
          after: { role: UserRole.Support },
        },
        manager,
      );
      expect(mock(UserMailService).send).toHaveBeenCalledWith({
        kind: 'account-notice',
        userId: USER,
        title: 'Your account now has the Support role',
        lines: [
          "An admin gave your account the Support role: open the console from the dashboard's menu.",
          'Staff accounts must turn on two-factor authentication first, in Settings.',
        ],
      });
    });

    it('refuses an admin changing their own role, before any lock', async () => {
      const { sut, mock } = setup();
      await expect(sut.setRole(ADMIN, ADMIN, UserRole.User)).rejects.toThrow(new ValidationError(ADMIN_MESSAGES.ownRole));
      await expect(sut.setRole(ADMIN, ADMIN, UserRole.Support)).rejects.toThrow(new ValidationError(ADMIN_MESSAGES.ownRole));
      expect(mock(AdminUsersRepository).transaction).not.toHaveBeenCalled();
      expect(mock(UsersRepository).setRole).not.toHaveBeenCalled();
    });

    it('refuses to take the admin role from an address ADMIN_EMAILS lists (it would come back at the next sign-in)', async () => {
      const { sut, mock } = setup({ role: UserRole.Admin, email: 'listed@example.com' });
      mock(UsersRepository).lockActiveAdmins.mockResolvedValue([ADMIN, USER]);
      mock(UsersService).isListedAdmin.mockImplementation((email) => email === 'listed@example.com');
      await expect(sut.setRole(ADMIN, USER, UserRole.Support)).rejects.toThrow(new ValidationError(ADMIN_MESSAGES.listedAdmin));
      expect(mock(UsersRepository).setRole).not.toHaveBeenCalled();
      expect(mock(AuditService).record).not.toHaveBeenCalled();
    });

    it('an actor who lost the admin role meanwhile (another admin demoted them first) is refused: never no admin left', async () => {
      const { sut, mock } = setup({ role: UserRole.Admin });
      // the other admin's demotion of ADMIN committed while this one waited for the lock
      mock(UsersRepository).lockActiveAdmins.mockResolvedValue([USER]);
      await expect(sut.setRole(ADMIN, USER, UserRole.User)).rejects.toBeInstanceOf(ForbiddenError);
      expect(mock(UsersRepository).setRole).not.toHaveBeenCalled();
    });

    it('takes the admin role from another admin when one stays; the same role changes nothing', async () => {
      const { sut, mock, manager } = setup({ role: UserRole.Admin });
      mock(UsersRepository).lockActiveAdmins.mockResolvedValue([ADMIN, USER, OTHER_ADMIN]);
      await sut.setRole(ADMIN, USER, UserRole.User);
      expect(mock(UsersRepository).setRole).toHaveBeenCalledWith(manager, USER, UserRole.User);
      mock(UsersRepository).setRole.mockClear();
      await sut.setRole(ADMIN, USER, UserRole.Admin);
      expect(mock(UsersRepository).setRole).not.toHaveBeenCalled();
    });

    it('answers 404 for an unknown account', async () => {
      const { sut } = setup(null);
      await expect(sut.setRole(ADMIN, USER, UserRole.Support)).rejects.toBeInstanceOf(NotFoundError);
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
