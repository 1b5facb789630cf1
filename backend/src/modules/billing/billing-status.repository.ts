import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** What GET /api/me shows of billing: whether Stripe is retrying a failed payment of a live subscription. */
export interface BillingStatus {
  payment_failed: boolean;
}

/**
 * Reads the billing state for the profile. Stateless (the connection only), so UsersModule provides
 * it itself and the profile does not depend on the billing module.
 */
@Injectable()
export class BillingStatusRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async statusOf(userId: string): Promise<BillingStatus> {
    const rows: unknown[] = await this.db.query(
      `SELECT 1 FROM subscriptions WHERE user_id = $1 AND payment_failed AND status IN ('active', 'trialing', 'past_due') LIMIT 1`,
      [userId],
    );
    return { payment_failed: rows.length > 0 };
  }
}
