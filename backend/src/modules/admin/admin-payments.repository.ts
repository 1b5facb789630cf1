import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { containsPattern } from '../../common/simple-rest';

/** The list's sortable fields and the column each sorts by. */
export const PAYMENT_SORTABLE = {
  id: 'p.stripe_id',
  created_at: 'p.created_at',
  amount: 'p.amount',
  kind: 'p.kind',
  status: 'p.status',
};

/** The list's filters, already checked by the service. */
export interface PaymentListFilter {
  kind?: string;
  status?: string;
  userId?: string;
  /** matched literally (case-insensitive) in the payer's email */
  email?: string;
}

export interface AdminPaymentRow {
  stripe_id: string;
  kind: string;
  user_id: string;
  user_email: string | null;
  amount: number;
  currency: string;
  status: string;
  product: string | null;
  payment_intent_id: string | null;
  subscription_id: string | null;
  created_at: Date;
}

/** Sums of the payments in one currency since a moment. */
export interface PaymentTotals {
  packs_sold: number;
  pack_revenue: number;
  subscription_revenue: number;
  refunds: number;
  refunded_amount: number;
}

/**
 * The console's read model of payments: the billing module's payments and subscriptions with the
 * payer's email from the users table. Read-only.
 */
@Injectable()
export class AdminPaymentsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** One page of payments, and the number that match. */
  async list(
    filter: PaymentListFilter,
    orderBy: string,
    limit: number,
    offset: number,
  ): Promise<{ rows: AdminPaymentRow[]; total: number }> {
    const where: string[] = [];
    const args: unknown[] = [];
    if (filter.kind) where.push(`p.kind = $${args.push(filter.kind)}`);
    if (filter.status) where.push(`p.status = $${args.push(filter.status)}`);
    if (filter.userId) where.push(`p.user_id = $${args.push(filter.userId)}`);
    if (filter.email) where.push(`u.email ILIKE $${args.push(containsPattern(filter.email))} ESCAPE '\\'`);
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const from = `FROM payments p LEFT JOIN users u ON u.id = p.user_id ${clause}`;
    const [{ total }] = await this.db.query(`SELECT count(*)::int AS total ${from}`, args);
    const rows: AdminPaymentRow[] = await this.db.query(
      `SELECT p.stripe_id, p.kind, p.user_id, u.email AS user_email, p.amount, p.currency, p.status, p.product, p.payment_intent_id,
              p.subscription_id, p.created_at
         ${from} ORDER BY ${orderBy}, p.stripe_id LIMIT ${limit} OFFSET ${offset}`,
      args,
    );
    return { rows, total };
  }

  /** The number of subscriptions per tier in the given statuses (those that bill monthly). */
  async subscriptionsByTier(statuses: readonly string[]): Promise<{ tier: string; count: number }[]> {
    return this.db.query(`SELECT tier, count(*)::int AS count FROM subscriptions WHERE status = ANY($1) GROUP BY tier ORDER BY tier`, [
      statuses,
    ]);
  }

  /** Packs sold, revenue by kind and refunds (refunds and disputes) recorded since `since`, in `currency`. */
  async totalsSince(since: Date, currency: string): Promise<PaymentTotals> {
    const [row] = await this.db.query(
      `SELECT count(*) FILTER (WHERE kind = 'pack')::int AS packs_sold,
              COALESCE(sum(amount) FILTER (WHERE kind = 'pack'), 0)::bigint AS pack_revenue,
              COALESCE(sum(amount) FILTER (WHERE kind = 'subscription' AND status = 'paid'), 0)::bigint AS subscription_revenue,
              count(*) FILTER (WHERE kind IN ('refund', 'dispute'))::int AS refunds,
              COALESCE(sum(amount) FILTER (WHERE kind IN ('refund', 'dispute')), 0)::bigint AS refunded_amount
         FROM payments WHERE created_at >= $1 AND currency = $2`,
      [since, currency],
    );
    // sums are bigint (strings from the driver)
    const r = row as Record<keyof PaymentTotals, string | number>;
    return {
      packs_sold: Number(r.packs_sold),
      pack_revenue: Number(r.pack_revenue),
      subscription_revenue: Number(r.subscription_revenue),
      refunds: Number(r.refunds),
      refunded_amount: Number(r.refunded_amount),
    };
  }
}
