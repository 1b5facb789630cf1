import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { CreditBucket, CreditEntryKind } from './credit.entities';
import { noteCreditChange } from './credits-changes.subscriber';

/** TypeORM answers an UPDATE ... RETURNING on PostgreSQL as [rows, affectedCount]; other statements as rows. */
function returnedRows<T>(result: unknown): T[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') return result[0] as T[];
  return result as T[];
}

/** A credit_accounts row as the ledger reads it (PostgreSQL integers; the service turns them into a balance). */
export interface AccountRow {
  subscription_balance: number;
  purchased_balance: number;
  held: number;
}

/** An account due for its monthly reset, and where a page of them ends (period start, then user id). */
export interface DueCursor {
  userId: string;
  periodStart: Date;
}

/** An account due for its monthly reset, locked, with the tier of its user. */
export interface DueAccountRow extends AccountRow {
  period_start: Date;
  tier: string;
}

/** One immutable line of the books. */
export interface LedgerEntry {
  userId: string;
  kind: CreditEntryKind;
  bucket: CreditBucket;
  amount: number;
  generationId?: string | null;
  reason?: string | null;
  actorId?: string | null;
  /** the payment's id at Stripe, for payments, refunds and renewals */
  externalId?: string | null;
}

/**
 * Every read and write of credit_accounts, credit_holds and credit_ledger_entries. The arithmetic
 * stays in single statements or runs under the row lock a `lock...` method takes, so the methods
 * that take a required manager only make sense inside the caller's transaction: called outside
 * one, the lock would end with the statement.
 */
@Injectable()
export class CreditsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Runs `work` in the caller's open transaction when there is one, else in a new transaction. */
  inTransaction<T>(manager: EntityManager | undefined, work: (m: EntityManager) => Promise<T>): Promise<T> {
    if (manager?.queryRunner?.isTransactionActive) return work(manager);
    return (manager ?? this.db.manager).transaction(work);
  }

  /** Appends one ledger entry (told as credits.changed once its transaction commits). */
  async insertEntry(m: EntityManager, e: LedgerEntry): Promise<void> {
    await m.query(
      `INSERT INTO credit_ledger_entries (user_id, kind, bucket, amount, generation_id, reason, actor_id, external_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [e.userId, e.kind, e.bucket, e.amount, e.generationId ?? null, e.reason ?? null, e.actorId ?? null, e.externalId ?? null],
    );
    noteCreditChange(m, e);
  }

  /** Creates the account with `subscription` credits unless it exists; answers whether it was created. */
  async insertAccount(m: EntityManager, userId: string, subscription: number, periodStart: Date): Promise<boolean> {
    const inserted: unknown[] = await m.query(
      `INSERT INTO credit_accounts (user_id, subscription_balance, purchased_balance, held, period_start)
       VALUES ($1, $2, 0, 0, $3) ON CONFLICT (user_id) DO NOTHING RETURNING user_id`,
      [userId, subscription, periodStart],
    );
    return inserted.length > 0;
  }

  /** The account's buckets and held credits, or undefined when it has none. */
  async findAccount(userId: string, manager?: EntityManager): Promise<AccountRow | undefined> {
    const rows = await (manager ?? this.db.manager).query(
      `SELECT subscription_balance, purchased_balance, held FROM credit_accounts WHERE user_id = $1`,
      [userId],
    );
    return rows[0];
  }

  /** The accounts of several users at once (users without one are left out). */
  async findAccounts(userIds: string[]): Promise<(AccountRow & { user_id: string })[]> {
    return this.db.query(
      `SELECT user_id, subscription_balance, purchased_balance, held FROM credit_accounts WHERE user_id = ANY($1::uuid[])`,
      [userIds],
    );
  }

  /**
   * Raises the account's held credits by `amount` and records the hold, in one statement, only when
   * the available balance covers it and the generation has no hold yet. Answers whether it held;
   * a concurrent hold of the same generation surfaces as a unique violation (23505).
   */
  async holdIfAffordable(userId: string, generationId: string, amount: number, manager?: EntityManager): Promise<boolean> {
    const rows: unknown[] = await (manager ?? this.db.manager).query(
      `WITH account AS (
         UPDATE credit_accounts SET held = held + $3, updated_at = now()
          WHERE user_id = $1 AND subscription_balance + purchased_balance - held >= $3
            AND NOT EXISTS (SELECT 1 FROM credit_holds WHERE generation_id = $2)
         RETURNING user_id)
       INSERT INTO credit_holds (generation_id, user_id, amount, status)
       SELECT $2, user_id, $3, 'held' FROM account RETURNING generation_id`,
      [userId, generationId, amount],
    );
    return rows.length > 0;
  }

  /** The user a generation's hold belongs to (whatever its status), or undefined when it was never held. */
  async findHoldOwner(generationId: string, manager?: EntityManager): Promise<string | undefined> {
    const rows: { user_id: string }[] = await (manager ?? this.db.manager).query(
      `SELECT user_id FROM credit_holds WHERE generation_id = $1`,
      [generationId],
    );
    return rows[0]?.user_id;
  }

  /**
   * Locks the account of a generation's hold (to the commit) and answers its subscription bucket;
   * undefined when the generation was never held. Every statement that changes a hold and its account
   * takes the account first (hold, capture, release), so two of them never wait for each other in
   * opposite orders: a deadlock PostgreSQL ends by failing one of them.
   */
  async lockAccountOfHold(m: EntityManager, generationId: string): Promise<number | undefined> {
    const [account] = await m.query(
      `SELECT subscription_balance FROM credit_accounts
        WHERE user_id = (SELECT user_id FROM credit_holds WHERE generation_id = $1) FOR UPDATE`,
      [generationId],
    );
    return account ? Number(account.subscription_balance) : undefined;
  }

  /** Marks an open hold captured; answers its user and amount, or undefined when it was not open. */
  async captureHold(m: EntityManager, generationId: string): Promise<{ userId: string; amount: number } | undefined> {
    const holds = returnedRows<{ user_id: string; amount: number }>(
      await m.query(
        `UPDATE credit_holds SET status = 'captured', resolved_at = now()
          WHERE generation_id = $1 AND status = 'held' RETURNING user_id, amount`,
        [generationId],
      ),
    );
    return holds[0] && { userId: holds[0].user_id, amount: holds[0].amount };
  }

  /** Locks the account row (to the commit) and answers its subscription bucket, or undefined without an account. */
  async lockSubscriptionBalance(m: EntityManager, userId: string): Promise<number | undefined> {
    const [account] = await m.query(`SELECT subscription_balance FROM credit_accounts WHERE user_id = $1 FOR UPDATE`, [userId]);
    return account ? Number(account.subscription_balance) : undefined;
  }

  /** Locks the account row (to the commit) and answers it, or undefined without an account. */
  async lockAccount(m: EntityManager, userId: string): Promise<AccountRow | undefined> {
    const [account] = await m.query(
      `SELECT subscription_balance, purchased_balance, held FROM credit_accounts WHERE user_id = $1 FOR UPDATE`,
      [userId],
    );
    return account;
  }

  /** Charges a captured hold: takes the amounts from each bucket and `held` from the held credits. */
  async chargeHeld(m: EntityManager, userId: string, fromSubscription: number, fromPurchased: number, held: number): Promise<void> {
    await m.query(
      `UPDATE credit_accounts SET subscription_balance = subscription_balance - $2, purchased_balance = purchased_balance - $3,
              held = held - $4, updated_at = now() WHERE user_id = $1`,
      [userId, fromSubscription, fromPurchased, held],
    );
  }

  /** Releases an open hold and gives its credits back to the account, in one statement; answers the credits released (0: there was none). */
  async releaseHold(generationId: string, manager?: EntityManager): Promise<number> {
    const rows = returnedRows(
      // the account is locked before the hold (lockAccountOfHold says why)
      await (manager ?? this.db.manager).query(
        `WITH account AS (
           SELECT user_id FROM credit_accounts
            WHERE user_id = (SELECT user_id FROM credit_holds WHERE generation_id = $1 AND status = 'held') FOR UPDATE),
         released AS (
           UPDATE credit_holds h SET status = 'released', resolved_at = now()
             FROM account WHERE h.generation_id = $1 AND h.status = 'held' AND h.user_id = account.user_id
           RETURNING h.user_id, h.amount)
         UPDATE credit_accounts a SET held = a.held - r.amount, updated_at = now()
           FROM released r WHERE a.user_id = r.user_id RETURNING a.user_id, r.amount`,
        [generationId],
      ),
    );
    return Number((rows[0] as { amount?: number } | undefined)?.amount ?? 0);
  }

  /** Adds credits to the purchased bucket. */
  async addPurchased(m: EntityManager, userId: string, amount: number): Promise<void> {
    await m.query(`UPDATE credit_accounts SET purchased_balance = purchased_balance + $2, updated_at = now() WHERE user_id = $1`, [
      userId,
      amount,
    ]);
  }

  /** Takes the amounts from each bucket (held credits unchanged). */
  async deductBuckets(m: EntityManager, userId: string, fromSubscription: number, fromPurchased: number): Promise<void> {
    await m.query(
      `UPDATE credit_accounts SET subscription_balance = subscription_balance - $2, purchased_balance = purchased_balance - $3, updated_at = now()
        WHERE user_id = $1`,
      [userId, fromSubscription, fromPurchased],
    );
  }

  /** Adds credits to the subscription bucket. */
  async addSubscription(m: EntityManager, userId: string, amount: number): Promise<void> {
    await m.query(`UPDATE credit_accounts SET subscription_balance = subscription_balance + $2, updated_at = now() WHERE user_id = $1`, [
      userId,
      amount,
    ]);
  }

  /** Whether the books already have a line for this Stripe id (a renewal or payment applied before). */
  async hasExternalEntry(m: EntityManager, userId: string, externalId: string, kind: CreditEntryKind): Promise<boolean> {
    const rows: unknown[] = await m.query(
      `SELECT 1 FROM credit_ledger_entries WHERE user_id = $1 AND external_id = $2 AND kind = $3 LIMIT 1`,
      [userId, externalId, kind],
    );
    return rows.length > 0;
  }

  /** Sets the subscription bucket and starts a new period at `now` (a paid renewal, or the end of a paid plan). */
  async setSubscriptionPeriod(m: EntityManager, userId: string, subscription: number, now: Date): Promise<void> {
    await m.query(`UPDATE credit_accounts SET subscription_balance = $2, period_start = $3, updated_at = now() WHERE user_id = $1`, [
      userId,
      subscription,
      now,
    ]);
  }

  /**
   * Up to 200 accounts whose period started a month or more before `now`, the oldest first, after
   * `after` (the last of the previous page). Whether Stripe renews one instead is billing's to say.
   */
  async findDueAccounts(now: Date, after?: DueCursor): Promise<DueCursor[]> {
    const rows: { user_id: string; period_start: Date }[] = after
      ? await this.db.query(
          `SELECT user_id, period_start FROM credit_accounts
            WHERE period_start + interval '1 month' <= $1 AND (period_start, user_id) > ($2, $3)
            ORDER BY period_start, user_id LIMIT 200`,
          [now, after.periodStart, after.userId],
        )
      : await this.db.query(
          `SELECT user_id, period_start FROM credit_accounts WHERE period_start + interval '1 month' <= $1 ORDER BY period_start, user_id LIMIT 200`,
          [now],
        );
    return rows.map((r) => ({ userId: r.user_id, periodStart: r.period_start }));
  }

  /**
   * Locks the account (to the commit) when it is still due for its reset, with its user's tier;
   * undefined when another worker reset it first.
   */
  async lockDueAccount(m: EntityManager, userId: string, now: Date): Promise<DueAccountRow | undefined> {
    const [row] = await m.query(
      `SELECT a.subscription_balance, a.purchased_balance, a.held, a.period_start, u.tier
         FROM credit_accounts a JOIN users u ON u.id = a.user_id
        WHERE a.user_id = $1 AND a.period_start + interval '1 month' <= $2 FOR UPDATE OF a`,
      [userId, now],
    );
    return row;
  }

  /** Sets the subscription bucket and moves the period on by every whole month that has passed up to `now`. */
  async resetPeriod(m: EntityManager, userId: string, subscription: number, now: Date): Promise<void> {
    await m.query(
      `UPDATE credit_accounts
          SET subscription_balance = $2,
              period_start = period_start + interval '1 month' * (
                SELECT count(*) FROM generate_series(period_start + interval '1 month', $3::timestamptz, interval '1 month')),
              updated_at = now()
        WHERE user_id = $1`,
      [userId, subscription, now],
    );
  }
}
