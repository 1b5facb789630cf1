import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';

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
 * Reads the billing state for the profile. Stateless (the connection only), so UsersModule provides
 * it itself and the profile does not depend on the billing module.
 */
@Injectable()
export class BillingStatusRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async statusOf(userId: string): Promise<BillingStatus> {
    if (!this.config.stripe.secretKey) return { payments_enabled: false, portal_available: false, payment_failed: false };
    const [row]: { failed: boolean; customer: boolean }[] = await this.db.query(
      `SELECT EXISTS (SELECT 1 FROM subscriptions WHERE user_id = $1 AND payment_failed AND status IN ('active', 'trialing', 'past_due')) AS failed,
              EXISTS (SELECT 1 FROM stripe_customers WHERE user_id = $1) AS customer`,
      [userId],
    );
    return { payments_enabled: true, portal_available: row.customer, payment_failed: row.failed };
  }
}
