import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { type AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { LIVE_SUBSCRIPTION_STATUSES } from './billing.repository';
import type { PaidRenewals } from '../credits/credits.service';

/**
 * What GET /api/me shows of billing: whether payments are on at all (STRIPE_SECRET_KEY), whether the
 * account can open the billing portal (it has a Stripe customer), and whether Stripe is retrying a
 * failed payment of a live subscription.
 */
export interface BillingStatus {
  payments_enabled: boolean;
  portal_available: boolean;
  payment_failed: boolean;
}

/**
 * Reads the billing state for other modules: the profile's failed-payment flag, and which accounts
 * Stripe renews (for the ledger's monthly reset). Stateless (the connection only), so UsersModule
 * and CreditsModule provide it themselves and depend on no billing module (nor it on them).
 */
@Injectable()
export class BillingStatusRepository implements PaidRenewals {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async statusOf(userId: string): Promise<BillingStatus> {
    if (!this.config.stripe.secretKey) return { payments_enabled: false, portal_available: false, payment_failed: false };
    const [row]: { failed: boolean; customer: boolean }[] = await this.db.query(
      `SELECT EXISTS (SELECT 1 FROM subscriptions WHERE user_id = $1 AND payment_failed AND status = ANY($2)) AS failed,
              EXISTS (SELECT 1 FROM stripe_customers WHERE user_id = $1) AS customer`,
      [userId, LIVE_SUBSCRIPTION_STATUSES],
    );
    return { payments_enabled: true, portal_available: row.customer, payment_failed: row.failed };
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
