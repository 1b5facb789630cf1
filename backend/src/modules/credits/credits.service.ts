import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { InsufficientCreditsError, NotFoundError, ValidationError } from '../../common/errors';
import { CreditBucket, CreditEntryKind } from './credit.entities';

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

/** TypeORM answers an UPDATE ... RETURNING on PostgreSQL as [rows, affectedCount]; other statements as rows. */
function returnedRows<T>(result: unknown): T[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') return result[0] as T[];
  return result as T[];
}

const EMPTY: CreditBalance = { subscription: 0, purchased: 0, held: 0, available: 0 };

function toBalance(row: { subscription_balance: number; purchased_balance: number; held: number } | undefined): CreditBalance {
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
    @InjectDataSource() private readonly db: DataSource,
    @Inject(MONTHLY_CREDITS_FOR_TIER) private readonly monthlyCreditsFor: MonthlyCreditsForTier,
  ) {}

  private inTransaction<T>(manager: EntityManager | undefined, work: (m: EntityManager) => Promise<T>): Promise<T> {
    if (manager?.queryRunner?.isTransactionActive) return work(manager);
    return (manager ?? this.db.manager).transaction(work);
  }

  private async entry(
    m: EntityManager,
    e: { userId: string; kind: CreditEntryKind; bucket: CreditBucket; amount: number; generationId?: string | null; reason?: string | null; actorId?: string | null },
  ): Promise<void> {
    if (e.amount === 0) return;
    await m.query(
      `INSERT INTO credit_ledger_entries (user_id, kind, bucket, amount, generation_id, reason, actor_id) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [e.userId, e.kind, e.bucket, e.amount, e.generationId ?? null, e.reason ?? null, e.actorId ?? null],
    );
  }

  /** Creates the user's account with the tier's monthly credits. Safe to call again (no-op). */
  async openAccount(userId: string, tier: string, manager?: EntityManager, now = new Date()): Promise<void> {
    await this.inTransaction(manager, async (m) => {
      const inserted: unknown[] = await m.query(
        `INSERT INTO credit_accounts (user_id, subscription_balance, purchased_balance, held, period_start)
         VALUES ($1, $2, 0, 0, $3) ON CONFLICT (user_id) DO NOTHING RETURNING user_id`,
        [userId, this.monthlyCreditsFor(tier), now],
      );
      if (inserted.length === 0) return;
      await this.entry(m, {
        userId,
        kind: CreditEntryKind.MonthlyGrant,
        bucket: CreditBucket.Subscription,
        amount: this.monthlyCreditsFor(tier),
        reason: `Monthly credits (${tier} plan)`,
      });
    });
  }

  async getBalance(userId: string, manager: EntityManager = this.db.manager): Promise<CreditBalance> {
    const rows = await manager.query(`SELECT subscription_balance, purchased_balance, held FROM credit_accounts WHERE user_id = $1`, [userId]);
    return toBalance(rows[0]);
  }

  /** Balances of several users at once (admin lists). */
  async getBalances(userIds: string[]): Promise<Map<string, CreditBalance>> {
    if (userIds.length === 0) return new Map();
    const rows: { user_id: string; subscription_balance: number; purchased_balance: number; held: number }[] = await this.db.query(
      `SELECT user_id, subscription_balance, purchased_balance, held FROM credit_accounts WHERE user_id = ANY($1::uuid[])`,
      [userIds],
    );
    return new Map(rows.map((r) => [r.user_id, toBalance(r)]));
  }

  /**
   * Reserves `amount` credits for a generation, or throws INSUFFICIENT_CREDITS with the required
   * and available amounts. Holding again for the same generation changes nothing.
   */
  async hold(userId: string, generationId: string, amount: number, manager?: EntityManager): Promise<void> {
    assertWholePositive(amount);
    const m = manager ?? this.db.manager;
    let rows: unknown[];
    try {
      rows = await m.query(
        `WITH account AS (
           UPDATE credit_accounts SET held = held + $3, updated_at = now()
            WHERE user_id = $1 AND subscription_balance + purchased_balance - held >= $3
              AND NOT EXISTS (SELECT 1 FROM credit_holds WHERE generation_id = $2)
           RETURNING user_id)
         INSERT INTO credit_holds (generation_id, user_id, amount, status)
         SELECT $2, user_id, $3, 'held' FROM account RETURNING generation_id`,
        [userId, generationId, amount],
      );
    } catch (error) {
      if ((error as { driverError?: { code?: string } }).driverError?.code === '23505') return; // a concurrent hold of the same generation won
      throw error;
    }
    if (rows.length > 0) return;
    const existing = await m.query(`SELECT user_id FROM credit_holds WHERE generation_id = $1`, [generationId]);
    if (existing.length > 0) {
      if (existing[0].user_id !== userId) throw new ValidationError('This generation belongs to another user');
      return; // already held
    }
    const balance = await this.getBalance(userId, m);
    throw new InsufficientCreditsError(amount, balance.available);
  }

  /**
   * Charges a held generation: subscription credits first, then purchased. Resolves the hold
   * exactly once; returns false (and changes nothing) when it was already resolved or never held.
   */
  async capture(generationId: string, description = 'Generation', manager?: EntityManager): Promise<boolean> {
    return this.inTransaction(manager, async (m) => {
      const holds = returnedRows<{ user_id: string; amount: number }>(
        await m.query(
          `UPDATE credit_holds SET status = 'captured', resolved_at = now()
            WHERE generation_id = $1 AND status = 'held' RETURNING user_id, amount`,
          [generationId],
        ),
      );
      if (holds.length === 0) return false;
      const { user_id: userId, amount } = holds[0];
      const [account] = await m.query(`SELECT subscription_balance FROM credit_accounts WHERE user_id = $1 FOR UPDATE`, [userId]);
      const fromSubscription = Math.min(Number(account.subscription_balance), amount);
      const fromPurchased = amount - fromSubscription;
      await m.query(
        `UPDATE credit_accounts SET subscription_balance = subscription_balance - $2, purchased_balance = purchased_balance - $3,
                held = held - $4, updated_at = now() WHERE user_id = $1`,
        [userId, fromSubscription, fromPurchased, amount],
      );
      const common = { userId, kind: CreditEntryKind.GenerationCharge, generationId, reason: description };
      await this.entry(m, { ...common, bucket: CreditBucket.Subscription, amount: -fromSubscription });
      await this.entry(m, { ...common, bucket: CreditBucket.Purchased, amount: -fromPurchased });
      return true;
    });
  }

  /** Gives a held generation's credits back. Exactly once; false when already resolved or never held. */
  async release(generationId: string, manager?: EntityManager): Promise<boolean> {
    const rows = returnedRows(
      await (manager ?? this.db.manager).query(
        `WITH released AS (
           UPDATE credit_holds SET status = 'released', resolved_at = now()
            WHERE generation_id = $1 AND status = 'held' RETURNING user_id, amount)
         UPDATE credit_accounts a SET held = a.held - r.amount, updated_at = now()
           FROM released r WHERE a.user_id = r.user_id RETURNING a.user_id`,
        [generationId],
      ),
    );
    return rows.length > 0;
  }

  /**
   * An administrator's adjustment, with a reason. Added credits go to the purchased bucket (they
   * never expire); a deduction takes subscription credits first and can never take more than
   * the available balance. Pass a transaction's manager to commit with the caller's own writes
   * (the admin's audit row).
   */
  async adjust(input: { userId: string; mode: 'add' | 'deduct'; amount: number; reason: string; actorId: string }, manager?: EntityManager): Promise<AdjustmentResult> {
    assertWholePositive(input.amount);
    const reason = input.reason.trim();
    if (!reason) throw new ValidationError('A reason is required');
    return this.inTransaction(manager, async (m) => {
      const [account] = await m.query(
        `SELECT subscription_balance, purchased_balance, held FROM credit_accounts WHERE user_id = $1 FOR UPDATE`,
        [input.userId],
      );
      if (!account) throw new NotFoundError();
      const before = toBalance(account);
      const common = { userId: input.userId, reason, actorId: input.actorId };
      if (input.mode === 'add') {
        await m.query(`UPDATE credit_accounts SET purchased_balance = purchased_balance + $2, updated_at = now() WHERE user_id = $1`, [
          input.userId,
          input.amount,
        ]);
        await this.entry(m, { ...common, kind: CreditEntryKind.AdminAdd, bucket: CreditBucket.Purchased, amount: input.amount });
      } else {
        if (input.amount > before.available) {
          throw new ValidationError(`Cannot deduct ${input.amount} credits: only ${before.available} available.`);
        }
        const fromSubscription = Math.min(before.subscription, input.amount);
        const fromPurchased = input.amount - fromSubscription;
        await m.query(
          `UPDATE credit_accounts SET subscription_balance = subscription_balance - $2, purchased_balance = purchased_balance - $3, updated_at = now()
            WHERE user_id = $1`,
          [input.userId, fromSubscription, fromPurchased],
        );
        await this.entry(m, { ...common, kind: CreditEntryKind.AdminDeduct, bucket: CreditBucket.Subscription, amount: -fromSubscription });
        await this.entry(m, { ...common, kind: CreditEntryKind.AdminDeduct, bucket: CreditBucket.Purchased, amount: -fromPurchased });
      }
      return { balance: await this.getBalance(input.userId, m), amount: input.amount, mode: input.mode };
    });
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
      const [account] = await m.query(`SELECT subscription_balance FROM credit_accounts WHERE user_id = $1 FOR UPDATE`, [userId]);
      if (!account) throw new NotFoundError();
      const added = Math.max(0, this.monthlyCreditsFor(to) - Number(account.subscription_balance));
      if (added === 0) return 0;
      await m.query(`UPDATE credit_accounts SET subscription_balance = subscription_balance + $2, updated_at = now() WHERE user_id = $1`, [userId, added]);
      await this.entry(m, { userId, kind: CreditEntryKind.PlanUpgrade, bucket: CreditBucket.Subscription, amount: added, reason: `Upgraded from ${from} to ${to}: monthly credits topped up`, actorId });
      return added;
    });
  }

  /**
   * The monthly reset: every account whose period started a month or more ago gets its plan's
   * credits in the subscription bucket; what was left there expires (no rollover). Purchased
   * credits are untouched. Running it twice changes nothing the second time.
   */
  async resetDueAccounts(now = new Date()): Promise<number> {
    let total = 0;
    for (;;) {
      const due: { user_id: string }[] = await this.db.query(
        `SELECT user_id FROM credit_accounts WHERE period_start + interval '1 month' <= $1 ORDER BY period_start LIMIT 200`,
        [now],
      );
      if (due.length === 0) return total;
      for (const { user_id: userId } of due) {
        if (await this.resetAccount(userId, now)) total++;
      }
    }
  }

  private resetAccount(userId: string, now: Date): Promise<boolean> {
    return this.db.transaction(async (m) => {
      const [row] = await m.query(
        `SELECT a.subscription_balance, a.purchased_balance, a.held, a.period_start, u.tier
           FROM credit_accounts a JOIN users u ON u.id = a.user_id
          WHERE a.user_id = $1 AND a.period_start + interval '1 month' <= $2 FOR UPDATE OF a`,
        [userId, now],
      );
      if (!row) return false; // another worker reset it first
      const grant = this.monthlyCreditsFor(row.tier);
      const purchased = Number(row.purchased_balance);
      // Credits held by running generations stay covered: never reset below what they need.
      const newSubscription = Math.max(grant, Number(row.held) - purchased);
      const old = Number(row.subscription_balance);
      await m.query(
        `UPDATE credit_accounts
            SET subscription_balance = $2,
                period_start = period_start + interval '1 month' * (
                  SELECT count(*) FROM generate_series(period_start + interval '1 month', $3::timestamptz, interval '1 month')),
                updated_at = now()
          WHERE user_id = $1`,
        [userId, newSubscription, now],
      );
      await this.entry(m, { userId, kind: CreditEntryKind.MonthlyExpiry, bucket: CreditBucket.Subscription, amount: -old, reason: 'Unused monthly credits expired' });
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
