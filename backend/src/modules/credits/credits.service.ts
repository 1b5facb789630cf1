import { plural } from '@fitting-room/shared/wording';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { InsufficientCreditsError, NotFoundError, ValidationError } from '../../common/errors';
import { publishCredits } from '../../common/observability/signals';
import { CreditBucket, CreditEntryKind } from './credit.entities';
import { AccountRow, CreditsRepository, DueCursor, LedgerEntry } from './credits.repository';

/**
 * Which accounts Stripe renews: a live subscription's paid renewals reset its credits, so the
 * time-based monthly reset leaves them alone. The billing module answers it from its own tables
 * (billing-status.repository.ts); the ledger never reads them.
 */
export const PAID_RENEWALS = Symbol('PAID_RENEWALS');
export interface PaidRenewals {
  /** Of these users, those with a live Stripe subscription (within `m`'s transaction when given). */
  renewedByStripe(userIds: readonly string[], m?: EntityManager): Promise<Set<string>>;
}

/** What the plan of a tier grants each month (read from the catalogue; injected to keep this module pure). */
export const MONTHLY_CREDITS_FOR_TIER = Symbol('MONTHLY_CREDITS_FOR_TIER');
export type MonthlyCreditsForTier = (tier: string) => number;

export interface CreditBalance {
  subscription: number;
  purchased: number;
  held: number;
  /** what the user can spend now: both buckets minus open holds (the product's user_credits.credits) */
  available: number;
}

export interface AdjustmentResult {
  balance: CreditBalance;
  amount: number;
  mode: 'add' | 'deduct';
}

/** The ledger entries that give credits (the metrics' `granted` flow). */
const GRANTS = new Set<CreditEntryKind>([
  CreditEntryKind.MonthlyGrant,
  CreditEntryKind.PlanUpgrade,
  CreditEntryKind.Purchase,
  CreditEntryKind.RenewalGrant,
  CreditEntryKind.AdminAdd,
]);

const EMPTY: CreditBalance = { subscription: 0, purchased: 0, held: 0, available: 0 };

/** A credit account's row as balances (no row: all zero). */
export function toBalance(row: AccountRow | undefined): CreditBalance {
  if (!row) return { ...EMPTY };
  const subscription = Number(row.subscription_balance);
  const purchased = Number(row.purchased_balance);
  const held = Number(row.held);
  return { subscription, purchased, held, available: subscription + purchased - held };
}

function assertWholePositive(amount: number, what = 'amount'): void {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new ValidationError(`The ${what} must be a whole number greater than 0`);
}

/**
 * The credit ledger: two buckets per user (subscription credits reset monthly without rollover;
 * purchased credits never expire), holds for running generations, and one immutable ledger entry
 * for every change. All arithmetic happens in single SQL statements or under a row lock, so
 * concurrent operations can neither overspend nor resolve a hold twice.
 */
@Injectable()
export class CreditsService {
  private readonly logger = new Logger('Credits');

  constructor(
    private readonly repo: CreditsRepository,
    @Inject(MONTHLY_CREDITS_FOR_TIER) private readonly monthlyCreditsFor: MonthlyCreditsForTier,
    @Inject(PAID_RENEWALS) private readonly paidRenewals: PaidRenewals,
  ) {}

  private inTransaction<T>(manager: EntityManager | undefined, work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.repo.inTransaction(manager, work);
  }

  /** Books a change; a zero amount is no change, so it leaves no line (the ledger's CHECK refuses 0). */
  private async entry(m: EntityManager, e: LedgerEntry): Promise<void> {
    if (e.amount === 0) return;
    await this.repo.insertEntry(m, e);
    if (GRANTS.has(e.kind)) publishCredits('granted', e.amount);
  }

  /** Creates the user's account with the tier's monthly credits. Safe to call again (no-op). */
  async openAccount(userId: string, tier: string, manager?: EntityManager, now = new Date()): Promise<void> {
    await this.inTransaction(manager, async (m) => {
      if (!(await this.repo.insertAccount(m, userId, this.monthlyCreditsFor(tier), now))) return;
      await this.entry(m, {
        userId,
        kind: CreditEntryKind.MonthlyGrant,
        bucket: CreditBucket.Subscription,
        amount: this.monthlyCreditsFor(tier),
        reason: `Monthly credits (${tier} plan)`,
      });
    });
  }

  /** The balance with the account locked until `m`'s transaction ends (a change that must read "before" exactly); null without an account. */
  async lockedBalance(userId: string, m: EntityManager): Promise<CreditBalance | null> {
    const account = await this.repo.lockAccount(m, userId);
    return account ? toBalance(account) : null;
  }

  async getBalance(userId: string, manager?: EntityManager): Promise<CreditBalance> {
    return toBalance(await this.repo.findAccount(userId, manager));
  }

  /** Balances of several users at once (admin lists). */
  async getBalances(userIds: string[]): Promise<Map<string, CreditBalance>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.repo.findAccounts(userIds);
    return new Map(rows.map((r) => [r.user_id, toBalance(r)]));
  }

  /**
   * Reserves `amount` credits for a generation, or throws INSUFFICIENT_CREDITS with the required
   * and available amounts. Holding again for the same generation changes nothing.
   */
  async hold(userId: string, generationId: string, amount: number, manager?: EntityManager): Promise<void> {
    assertWholePositive(amount);
    let held: boolean;
    try {
      held = await this.repo.holdIfAffordable(userId, generationId, amount, manager);
    } catch (error) {
      if ((error as { driverError?: { code?: string } }).driverError?.code === '23505') return; // a concurrent hold of the same generation won
      throw error;
    }
    if (held) {
      publishCredits('held', amount);
      return;
    }
    const owner = await this.repo.findHoldOwner(generationId, manager);
    if (owner !== undefined) {
      if (owner !== userId) throw new ValidationError('This generation belongs to another user');
      return; // already held
    }
    const balance = await this.getBalance(userId, manager);
    throw new InsufficientCreditsError(amount, balance.available);
  }

  /**
   * Charges a held generation: subscription credits first, then purchased. Resolves the hold
   * exactly once; returns false (and changes nothing) when it was already resolved or never held.
   */
  async capture(generationId: string, description = 'Generation', manager?: EntityManager): Promise<boolean> {
    return this.inTransaction(manager, async (m) => {
      // the account first, then the hold (CreditsRepository.lockAccountOfHold says why); a hold's
      // account goes only with its user, who takes the hold along (both cascade)
      const subscription = await this.repo.lockAccountOfHold(m, generationId);
      if (subscription === undefined) return false; // never held
      const hold = await this.repo.captureHold(m, generationId);
      if (!hold) return false;
      const { userId, amount } = hold;
      const fromSubscription = Math.min(subscription, amount);
      const fromPurchased = amount - fromSubscription;
      await this.repo.chargeHeld(m, userId, fromSubscription, fromPurchased, amount);
      const common = { userId, kind: CreditEntryKind.GenerationCharge, generationId, reason: description };
      await this.entry(m, { ...common, bucket: CreditBucket.Subscription, amount: -fromSubscription });
      await this.entry(m, { ...common, bucket: CreditBucket.Purchased, amount: -fromPurchased });
      publishCredits('captured', amount);
      return true;
    });
  }

  /** Gives a held generation's credits back. Exactly once; false when already resolved or never held. */
  async release(generationId: string, manager?: EntityManager): Promise<boolean> {
    const released = await this.repo.releaseHold(generationId, manager);
    publishCredits('released', released);
    return released > 0;
  }

  /**
   * An administrator's adjustment, with a reason. Added credits go to the purchased bucket (they
   * never expire); a deduction takes subscription credits first and can never take more than
   * the available balance. Pass a transaction's manager to commit with the caller's own writes
   * (the admin's audit row).
   */
  async adjust(
    input: { userId: string; mode: 'add' | 'deduct'; amount: number; reason: string; actorId: string },
    manager?: EntityManager,
  ): Promise<AdjustmentResult> {
    assertWholePositive(input.amount);
    const reason = input.reason.trim();
    if (!reason) throw new ValidationError('A reason is required');
    return this.inTransaction(manager, async (m) => {
      const account = await this.repo.lockAccount(m, input.userId);
      if (!account) throw new NotFoundError();
      const before = toBalance(account);
      const common = { userId: input.userId, reason, actorId: input.actorId };
      if (input.mode === 'add') {
        await this.repo.addPurchased(m, input.userId, input.amount);
        await this.entry(m, { ...common, kind: CreditEntryKind.AdminAdd, bucket: CreditBucket.Purchased, amount: input.amount });
      } else {
        if (input.amount > before.available) {
          throw new ValidationError(`Cannot deduct ${plural(input.amount, 'credit')}: only ${before.available} available.`);
        }
        const fromSubscription = Math.min(before.subscription, input.amount);
        const fromPurchased = input.amount - fromSubscription;
        await this.repo.deductBuckets(m, input.userId, fromSubscription, fromPurchased);
        await this.entry(m, { ...common, kind: CreditEntryKind.AdminDeduct, bucket: CreditBucket.Subscription, amount: -fromSubscription });
        await this.entry(m, { ...common, kind: CreditEntryKind.AdminDeduct, bucket: CreditBucket.Purchased, amount: -fromPurchased });
      }
      return { balance: await this.getBalance(input.userId, m), amount: input.amount, mode: input.mode };
    });
  }

  /** The rule of a plan change (applyPlanChange): the subscription credits an upgrade adds to `subscription`; 0 otherwise. */
  planChangeTopUp(from: string, to: string, subscription: number): number {
    if (this.monthlyCreditsFor(to) <= this.monthlyCreditsFor(from)) return 0;
    return Math.max(0, this.monthlyCreditsFor(to) - subscription);
  }

  /**
   * What applyPlanChange would do now, changing nothing: the credits it would add and the balance
   * before and after (the console's confirmation states the server's own figure).
   */
  async previewPlanChange(
    userId: string,
    from: string,
    to: string,
  ): Promise<{ added: number; before: CreditBalance; after: CreditBalance; renewedByStripe: boolean }> {
    const before = await this.getBalance(userId);
    const added = this.planChangeTopUp(from, to, before.subscription);
    const after = { ...before, subscription: before.subscription + added, available: before.available + added };
    // a live Stripe subscription sets the tier again at its next change: the confirmation says so
    const renewedByStripe = (await this.paidRenewals.renewedByStripe([userId])).has(userId);
    return { added, before, after, renewedByStripe };
  }

  /**
   * A plan change (an admin's, until there is a checkout). An upgrade tops the subscription bucket
   * up to the new plan's monthly credits at once, as a person who pays for a bigger plan expects;
   * what is already there is kept when it is more. A downgrade takes nothing back: the new plan's
   * credits come with the next monthly reset. The period does not move. Answers the credits added.
   */
  async applyPlanChange(userId: string, from: string, to: string, actorId: string | null, manager?: EntityManager): Promise<number> {
    if (this.monthlyCreditsFor(to) <= this.monthlyCreditsFor(from)) return 0;
    return this.inTransaction(manager, async (m) => {
      const subscription = await this.repo.lockSubscriptionBalance(m, userId);
      if (subscription === undefined) throw new NotFoundError();
      const added = this.planChangeTopUp(from, to, subscription);
      if (added === 0) return 0;
      await this.repo.addSubscription(m, userId, added);
      await this.entry(m, {
        userId,
        kind: CreditEntryKind.PlanUpgrade,
        bucket: CreditBucket.Subscription,
        amount: added,
        reason: `Upgraded from ${from} to ${to}: monthly credits topped up`,
        actorId,
      });
      return added;
    });
  }

  /**
   * A paid credit pack: `credits` (the pack's credits plus its bonus) into the purchased bucket, with
   * the payment's Stripe id on the ledger line. The caller makes it happen once (its purchase row).
   */
  async addPurchase(userId: string, credits: number, externalId: string, reason: string, manager?: EntityManager): Promise<CreditBalance> {
    assertWholePositive(credits, 'number of credits');
    return this.inTransaction(manager, async (m) => {
      if (!(await this.repo.lockAccount(m, userId))) throw new NotFoundError();
      await this.repo.addPurchased(m, userId, credits);
      await this.entry(m, { userId, kind: CreditEntryKind.Purchase, bucket: CreditBucket.Purchased, amount: credits, reason, externalId });
      return this.getBalance(userId, m);
    });
  }

  /**
   * A refunded or disputed pack: takes up to `credits` back from the purchased bucket, as far as the
   * balance allows (never below zero, never under what running generations hold). Answers what it took.
   */
  async reversePurchase(userId: string, credits: number, externalId: string, reason: string, manager?: EntityManager): Promise<number> {
    if (credits <= 0) return 0;
    return this.inTransaction(manager, async (m) => {
      const account = await this.repo.lockAccount(m, userId);
      if (!account) return 0;
      const b = toBalance(account);
      const taken = Math.max(0, Math.min(credits, b.purchased, b.available));
      if (taken === 0) return 0;
      await this.repo.deductBuckets(m, userId, 0, taken);
      await this.entry(m, {
        userId,
        kind: CreditEntryKind.PurchaseReversal,
        bucket: CreditBucket.Purchased,
        amount: -taken,
        reason,
        externalId,
      });
      return taken;
    });
  }

  /**
   * A paid renewal of a subscription (its Stripe invoice `invoiceId`): the subscription bucket is set
   * to the plan's monthly credits, what was left expires (no rollover), purchased credits are
   * untouched, and a new period starts. Once per invoice: answers false when it was applied before.
   */
  async applyPaidRenewal(userId: string, tier: string, invoiceId: string, now = new Date(), manager?: EntityManager): Promise<boolean> {
    return this.resetSubscriptionBucket(userId, tier, invoiceId, `Monthly credits (${tier} plan, paid renewal)`, now, manager);
  }

  /**
   * A paid plan ended (cancelled at its period end, or unpaid): the account is on the free tier
   * from now, with the free plan's monthly credits and a new period. Once per subscription.
   */
  async applyPlanEnded(userId: string, subscriptionId: string, now = new Date(), manager?: EntityManager): Promise<boolean> {
    return this.resetSubscriptionBucket(userId, 'free', subscriptionId, 'Paid plan ended: monthly credits of the free plan', now, manager);
  }

  private resetSubscriptionBucket(
    userId: string,
    tier: string,
    externalId: string,
    reason: string,
    now: Date,
    manager: EntityManager | undefined,
  ): Promise<boolean> {
    return this.inTransaction(manager, async (m) => {
      const account = await this.repo.lockAccount(m, userId);
      if (!account) throw new NotFoundError();
      if (await this.repo.hasExternalEntry(m, userId, externalId, CreditEntryKind.RenewalGrant)) return false;
      const before = toBalance(account);
      const grant = this.monthlyCreditsFor(tier);
      // credits held by running generations stay covered, as in the monthly reset
      const newSubscription = Math.max(grant, before.held - before.purchased);
      await this.repo.setSubscriptionPeriod(m, userId, newSubscription, now);
      const common = { userId, bucket: CreditBucket.Subscription, externalId };
      await this.entry(m, {
        ...common,
        kind: CreditEntryKind.RenewalExpiry,
        amount: -before.subscription,
        reason: 'Unused monthly credits expired',
      });
      // a grant line even for the same amount (0 is no line): it is what marks the invoice applied
      await this.repo.insertEntry(m, { ...common, kind: CreditEntryKind.RenewalGrant, amount: newSubscription, reason });
      return true;
    });
  }

  /**
   * The monthly reset: every account whose period started a month or more ago gets its plan's
   * credits in the subscription bucket; what was left there expires (no rollover). Purchased
   * credits are untouched. Running it twice changes nothing the second time.
   */
  async resetDueAccounts(now = new Date()): Promise<number> {
    let total = 0;
    let after: DueCursor | undefined;
    for (;;) {
      const due = await this.repo.findDueAccounts(now, after);
      if (due.length === 0) return total;
      after = due[due.length - 1];
      // a paying account's paid renewals reset it instead (free users, and plans that ended, keep this reset)
      const renewed = await this.paidRenewals.renewedByStripe(due.map((d) => d.userId));
      for (const { userId } of due) {
        if (!renewed.has(userId) && (await this.resetAccount(userId, now))) total++;
      }
    }
  }

  private resetAccount(userId: string, now: Date): Promise<boolean> {
    return this.inTransaction(undefined, async (m) => {
      const row = await this.repo.lockDueAccount(m, userId, now);
      if (!row) return false; // another worker reset it first
      if ((await this.paidRenewals.renewedByStripe([userId], m)).has(userId)) return false; // subscribed meanwhile
      const grant = this.monthlyCreditsFor(row.tier);
      const purchased = Number(row.purchased_balance);
      // Credits held by running generations stay covered: never reset below what they need.
      const newSubscription = Math.max(grant, Number(row.held) - purchased);
      const old = Number(row.subscription_balance);
      await this.repo.resetPeriod(m, userId, newSubscription, now);
      await this.entry(m, {
        userId,
        kind: CreditEntryKind.MonthlyExpiry,
        bucket: CreditBucket.Subscription,
        amount: -old,
        reason: 'Unused monthly credits expired',
      });
      await this.entry(m, {
        userId,
        kind: CreditEntryKind.MonthlyGrant,
        bucket: CreditBucket.Subscription,
        amount: newSubscription,
        reason: `Monthly credits (${row.tier} plan)`,
      });
      this.logger.debug?.(`Monthly reset of ${userId}: ${old} -> ${newSubscription}`);
      return true;
    });
  }
}
