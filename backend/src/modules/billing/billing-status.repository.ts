import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { LIVE_SUBSCRIPTION_STATUSES } from './billing.repository';
import type { PaidRenewals } from '../credits/credits.service';

/** What GET /api/me shows of billing: whether Stripe is retrying a failed payment of a live subscription. */
export interface BillingStatus {
  payment_failed: boolean;
}

/**
 * Reads the billing state for other modules: the profile's failed-payment flag, and which accounts
 * Stripe renews (for the ledger's monthly reset). Stateless (the connection only), so UsersModule
 * and CreditsModule provide it themselves and depend on no billing module (nor it on them).
 */
@Injectable()
export class BillingStatusRepository implements PaidRenewals {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async statusOf(userId: string): Promise<BillingStatus> {
    const rows: unknown[] = await this.db.query(
      `SELECT 1 FROM subscriptions WHERE user_id = $1 AND payment_failed AND status = ANY($2) LIMIT 1`,
      [userId, LIVE_SUBSCRIPTION_STATUSES],
    );
    return { payment_failed: rows.length > 0 };
  }

  /** Of these users, those whose live Stripe subscription renews their credits. */
  async renewedByStripe(userIds: readonly string[], m?: EntityManager): Promise<Set<string>> {
    if (userIds.length === 0) return new Set();
    const rows: { user_id: string }[] = await (m ?? this.db.manager).query(
      `SELECT DISTINCT user_id FROM subscriptions WHERE user_id = ANY($1::uuid[]) AND status = ANY($2)`,
      [userIds, LIVE_SUBSCRIPTION_STATUSES],
    );
    return new Set(rows.map((r) => r.user_id));
  }
}
