import { EntityManager } from 'typeorm';
import { newTestService } from '../../../test/helpers/new-test-service';
import { InsufficientCreditsError, NotFoundError, ValidationError } from '../../common/errors';
import { CreditBucket, CreditEntryKind } from './credit.entities';
import { CreditsRepository, LedgerEntry } from './credits.repository';
import { CreditsService, MONTHLY_CREDITS_FOR_TIER, PAID_RENEWALS, type PaidRenewals } from './credits.service';

const PLAN_CREDITS: Record<string, number> = { free: 20, pro: 100, studio: 300 };
const tx = {} as EntityManager;

/** The service over a mocked repository: transactions run at once, and the ledger lines it books are collected. */
function setup(renewedByStripe: string[] = []) {
  const paidRenewals: PaidRenewals = { renewedByStripe: async (ids) => new Set(ids.filter((id) => renewedByStripe.includes(id))) };
  const { sut, mock } = newTestService(
    CreditsService,
    { provide: MONTHLY_CREDITS_FOR_TIER, useValue: (tier: string) => PLAN_CREDITS[tier] ?? 0 },
    { provide: PAID_RENEWALS, useValue: paidRenewals },
  );
  const repo = mock(CreditsRepository);
  repo.inTransaction.mockImplementation((_manager, work) => work(tx) as never);
  const ledger: LedgerEntry[] = [];
  repo.insertEntry.mockImplementation(async (_m, entry) => {
    ledger.push(entry);
  });
  const lines = () => ledger.map((e) => [e.kind, e.bucket, e.amount]);
  return { sut, repo, ledger, lines };
}

const due = (...userIds: string[]) => userIds.map((userId) => ({ userId, periodStart: new Date('2026-01-01') }));

const account = (subscription: number, purchased: number, held = 0) => ({
  subscription_balance: subscription,
  purchased_balance: purchased,
  held,
});

describe('CreditsService', () => {
  describe('opening an account', () => {
    it("grants the tier's monthly credits once, booked as a monthly grant", async () => {
      const { sut, repo, ledger } = setup();
      repo.insertAccount.mockResolvedValue(true);
      await sut.openAccount('u1', 'pro');
      expect(repo.insertAccount).toHaveBeenCalledWith(tx, 'u1', 100, expect.any(Date));
      expect(ledger).toEqual([
        {
          userId: 'u1',
          kind: CreditEntryKind.MonthlyGrant,
          bucket: CreditBucket.Subscription,
          amount: 100,
          reason: 'Monthly credits (pro plan)',
        },
      ]);
    });

    it('books nothing when the account already exists', async () => {
      const { sut, repo, ledger } = setup();
      repo.insertAccount.mockResolvedValue(false);
      await sut.openAccount('u1', 'free');
      expect(ledger).toEqual([]);
    });
  });

  it('answers both buckets, the held credits and what is available (zeros without an account)', async () => {
    const { sut, repo } = setup();
    repo.findAccount.mockResolvedValueOnce(account(12, 5, 4)).mockResolvedValueOnce(undefined);
    expect(await sut.getBalance('u1')).toEqual({ subscription: 12, purchased: 5, held: 4, available: 13 });
    expect(await sut.getBalance('u2')).toEqual({ subscription: 0, purchased: 0, held: 0, available: 0 });
  });

  describe('holding credits for a generation', () => {
    it.each([0, -2, 1.5])('refuses an amount of %p before touching the account', async (amount) => {
      const { sut, repo } = setup();
      await expect(sut.hold('u1', 'g1', amount)).rejects.toThrow(new ValidationError('The amount must be a whole number greater than 0'));
      expect(repo.holdIfAffordable).not.toHaveBeenCalled();
    });

    it('refuses with INSUFFICIENT_CREDITS, the required and the available amounts, when the balance does not cover it', async () => {
      const { sut, repo } = setup();
      repo.holdIfAffordable.mockResolvedValue(false);
      repo.findHoldOwner.mockResolvedValue(undefined);
      repo.findAccount.mockResolvedValue(account(2, 3, 1));
      const refusal = await sut.hold('u1', 'g1', 5).catch((e: unknown) => e);
      expect(refusal).toBeInstanceOf(InsufficientCreditsError);
      expect(refusal).toMatchObject({ required: 5, available: 4 });
    });

    it("refuses to hold another user's generation, and accepts holding one's own again as a no-op", async () => {
      const { sut, repo } = setup();
      repo.holdIfAffordable.mockResolvedValue(false);
      repo.findHoldOwner.mockResolvedValue('u2');
      await expect(sut.hold('u1', 'g1', 3)).rejects.toThrow(new ValidationError('This generation belongs to another user'));
      await expect(sut.hold('u2', 'g1', 3)).resolves.toBeUndefined();
    });

    it('treats losing a race to hold the same generation as held, but passes other database errors on', async () => {
      const { sut, repo } = setup();
      repo.holdIfAffordable.mockRejectedValueOnce(Object.assign(new Error('duplicate key'), { driverError: { code: '23505' } }));
      await expect(sut.hold('u1', 'g1', 3)).resolves.toBeUndefined();
      repo.holdIfAffordable.mockRejectedValueOnce(Object.assign(new Error('deadlock'), { driverError: { code: '40P01' } }));
      await expect(sut.hold('u1', 'g1', 3)).rejects.toThrow('deadlock');
    });
  });

  describe('capturing a hold', () => {
    it('charges subscription credits first and the rest from purchased credits, one ledger line per bucket', async () => {
      const { sut, repo, lines, ledger } = setup();
      repo.lockAccountOfHold.mockResolvedValue(3);
      repo.captureHold.mockResolvedValue({ userId: 'u1', amount: 5 });
      expect(await sut.capture('g1', 'Image generation')).toBe(true);
      expect(repo.chargeHeld).toHaveBeenCalledWith(tx, 'u1', 3, 2, 5);
      expect(lines()).toEqual([
        [CreditEntryKind.GenerationCharge, CreditBucket.Subscription, -3],
        [CreditEntryKind.GenerationCharge, CreditBucket.Purchased, -2],
      ]);
      expect(ledger.every((e) => e.generationId === 'g1' && e.reason === 'Image generation')).toBe(true);
    });

    it('books no empty line for a bucket it did not touch', async () => {
      const { sut, repo, lines } = setup();
      repo.lockAccountOfHold.mockResolvedValue(10);
      repo.captureHold.mockResolvedValue({ userId: 'u1', amount: 4 });
      await sut.capture('g1');
      expect(repo.chargeHeld).toHaveBeenCalledWith(tx, 'u1', 4, 0, 4);
      expect(lines()).toEqual([[CreditEntryKind.GenerationCharge, CreditBucket.Subscription, -4]]);
    });

    it('answers false and charges nothing when the hold was already resolved', async () => {
      const { sut, repo, ledger } = setup();
      repo.lockAccountOfHold.mockResolvedValue(10);
      repo.captureHold.mockResolvedValue(undefined);
      expect(await sut.capture('g1')).toBe(false);
      expect(repo.chargeHeld).not.toHaveBeenCalled();
      expect(ledger).toEqual([]);
    });

    it('answers false and touches no hold when the generation was never held', async () => {
      const { sut, repo, ledger } = setup();
      repo.lockAccountOfHold.mockResolvedValue(undefined);
      expect(await sut.capture('g1')).toBe(false);
      expect(repo.captureHold).not.toHaveBeenCalled();
      expect(ledger).toEqual([]);
    });
  });

  describe('administrator adjustments', () => {
    const input = { userId: 'u1', amount: 6, reason: '  goodwill  ', actorId: 'admin' };

    it('adds to the purchased bucket (never expires), with the trimmed reason and the admin as actor', async () => {
      const { sut, repo, ledger } = setup();
      repo.lockAccount.mockResolvedValue(account(1, 2));
      repo.findAccount.mockResolvedValue(account(1, 8));
      const result = await sut.adjust({ ...input, mode: 'add' });
      expect(repo.addPurchased).toHaveBeenCalledWith(tx, 'u1', 6);
      expect(ledger).toEqual([
        { userId: 'u1', kind: CreditEntryKind.AdminAdd, bucket: CreditBucket.Purchased, amount: 6, reason: 'goodwill', actorId: 'admin' },
      ]);
      expect(result).toEqual({ balance: { subscription: 1, purchased: 8, held: 0, available: 9 }, amount: 6, mode: 'add' });
    });

    it('deducts subscription credits first', async () => {
      const { sut, repo, lines } = setup();
      repo.lockAccount.mockResolvedValue(account(4, 10));
      repo.findAccount.mockResolvedValue(account(0, 8));
      await sut.adjust({ ...input, mode: 'deduct' });
      expect(repo.deductBuckets).toHaveBeenCalledWith(tx, 'u1', 4, 2);
      expect(lines()).toEqual([
        [CreditEntryKind.AdminDeduct, CreditBucket.Subscription, -4],
        [CreditEntryKind.AdminDeduct, CreditBucket.Purchased, -2],
      ]);
    });

    it('never deducts more than the available balance (held credits are not available)', async () => {
      const { sut, repo, ledger } = setup();
      repo.lockAccount.mockResolvedValue(account(4, 4, 3));
      await expect(sut.adjust({ ...input, amount: 6, mode: 'deduct' })).rejects.toThrow(
        new ValidationError('Cannot deduct 6 credits: only 5 available.'),
      );
      expect(repo.deductBuckets).not.toHaveBeenCalled();
      expect(ledger).toEqual([]);
    });

    it('requires a reason and a whole positive amount, and an existing account', async () => {
      const { sut, repo } = setup();
      await expect(sut.adjust({ ...input, reason: '   ', mode: 'add' })).rejects.toThrow(new ValidationError('A reason is required'));
      await expect(sut.adjust({ ...input, amount: 0, mode: 'add' })).rejects.toThrow(
        new ValidationError('The amount must be a whole number greater than 0'),
      );
      repo.lockAccount.mockResolvedValue(undefined);
      await expect(sut.adjust({ ...input, mode: 'add' })).rejects.toThrow(NotFoundError);
    });
  });

  describe('plan changes', () => {
    it("tops an upgrade's subscription bucket up to the new plan's monthly credits", async () => {
      const { sut, repo, ledger } = setup();
      repo.lockSubscriptionBalance.mockResolvedValue(15);
      expect(await sut.applyPlanChange('u1', 'free', 'pro', 'admin')).toBe(85);
      expect(repo.addSubscription).toHaveBeenCalledWith(tx, 'u1', 85);
      expect(ledger).toEqual([
        {
          userId: 'u1',
          kind: CreditEntryKind.PlanUpgrade,
          bucket: CreditBucket.Subscription,
          amount: 85,
          reason: 'Upgraded from free to pro: monthly credits topped up',
          actorId: 'admin',
        },
      ]);
    });

    it('keeps more than the new plan grants, and takes nothing back on a downgrade', async () => {
      const { sut, repo, ledger } = setup();
      repo.lockSubscriptionBalance.mockResolvedValue(150);
      expect(await sut.applyPlanChange('u1', 'free', 'pro', null)).toBe(0);
      expect(await sut.applyPlanChange('u1', 'studio', 'free', null)).toBe(0);
      expect(repo.addSubscription).not.toHaveBeenCalled();
      expect(ledger).toEqual([]);
    });
  });

  describe('the monthly reset', () => {
    it("replaces unused subscription credits with the tier's grant (no rollover) and counts only the accounts it reset", async () => {
      const { sut, repo, lines } = setup();
      repo.findDueAccounts.mockResolvedValueOnce(due('u1', 'u2')).mockResolvedValueOnce([]);
      repo.lockDueAccount.mockImplementation(async (_m, userId) =>
        userId === 'u1' ? { ...account(7, 40), period_start: new Date('2026-01-01'), tier: 'pro' } : undefined,
      );
      const now = new Date('2026-02-02T00:00:00Z');
      expect(await sut.resetDueAccounts(now)).toBe(1);
      expect(repo.resetPeriod).toHaveBeenCalledTimes(1);
      expect(repo.resetPeriod).toHaveBeenCalledWith(tx, 'u1', 100, now);
      expect(lines()).toEqual([
        [CreditEntryKind.MonthlyExpiry, CreditBucket.Subscription, -7],
        [CreditEntryKind.MonthlyGrant, CreditBucket.Subscription, 100],
      ]);
    });

    it('never resets below what running generations hold beyond the purchased credits', async () => {
      const { sut, repo } = setup();
      repo.findDueAccounts.mockResolvedValueOnce(due('u1')).mockResolvedValueOnce([]);
      repo.lockDueAccount.mockResolvedValue({ ...account(30, 5, 30), period_start: new Date('2026-01-01'), tier: 'free' });
      await sut.resetDueAccounts(new Date('2026-02-02T00:00:00Z'));
      expect(repo.resetPeriod).toHaveBeenCalledWith(tx, 'u1', 25, expect.any(Date));
    });

    it('leaves the accounts Stripe renews to their paid renewals, and pages on past them', async () => {
      const { sut, repo } = setup(['u2']);
      const first = due('u1', 'u2');
      repo.findDueAccounts.mockResolvedValueOnce(first).mockResolvedValueOnce([]);
      repo.lockDueAccount.mockResolvedValue({ ...account(1, 0), period_start: new Date('2026-01-01'), tier: 'free' });
      const now = new Date('2026-02-02T00:00:00Z');
      expect(await sut.resetDueAccounts(now)).toBe(1);
      expect(repo.lockDueAccount).toHaveBeenCalledTimes(1);
      expect(repo.lockDueAccount).toHaveBeenCalledWith(tx, 'u1', now);
      // the next page starts after the last account of this one, so a renewed account is not found again and again
      expect(repo.findDueAccounts).toHaveBeenLastCalledWith(now, first[1]);
    });
  });
});
