import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/** A subscription as Stripe last described it. */
export interface SubscriptionRow {
  stripeSubscriptionId: string;
  userId: string;
  priceLookupKey: string | null;
  tier: string;
  status: string;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
}

/** A bought pack, as a refund or dispute needs it. */
export interface PurchaseRow {
  checkout_session_id: string;
  user_id: string;
  pack_id: string;
  credits: number;
  refunded_credits: number;
}

/** A money movement at Stripe as the payments table keeps it (billing.entities.ts PaymentEntity). */
export interface PaymentRecord {
  stripeId: string;
  kind: 'pack' | 'subscription' | 'refund' | 'dispute';
  userId: string;
  amount: number;
  currency: string;
  status: string;
  product: string | null;
  paymentIntentId: string | null;
  subscriptionId: string | null;
}

/** Statuses in which a subscription gives its plan (past_due: Stripe is retrying a failed payment). */
export const LIVE_SUBSCRIPTION_STATUSES = ['active', 'trialing', 'past_due'] as const;

/**
 * Where a stored Stripe event is: `pending` (queued), `retrying` (an attempt failed, more to come),
 * `failed` (every attempt failed: waiting for a replay from the console), `applied`.
 */
export const STRIPE_EVENT_STATUSES = ['pending', 'retrying', 'failed', 'applied'] as const;
export type StripeEventStatus = (typeof STRIPE_EVENT_STATUSES)[number];

const EVENT_STATUS_SQL = `CASE WHEN handled_at IS NOT NULL THEN 'applied' WHEN failed_at IS NOT NULL THEN 'failed'
  WHEN error IS NOT NULL THEN 'retrying' ELSE 'pending' END`;

/** A stored Stripe event as the console lists it (never its body). */
export interface StripeEventRow {
  id: string;
  type: string;
  status: StripeEventStatus;
  error: string | null;
  received_at: Date;
  handled_at: Date | null;
  failed_at: Date | null;
}

/** The console's sortable fields of stripe events, and the column each sorts by. */
export const STRIPE_EVENT_SORTABLE = { id: 'id', type: 'type', received_at: 'received_at', handled_at: 'handled_at' };

/** Every read and write of stripe_customers, stripe_events, subscriptions, purchases and payments. */
@Injectable()
export class BillingRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.db.manager.transaction(work);
  }

  async customerOf(userId: string): Promise<string | undefined> {
    const rows: { customer_id: string }[] = await this.db.query(`SELECT customer_id FROM stripe_customers WHERE user_id = $1`, [userId]);
    return rows[0]?.customer_id;
  }

  async userOfCustomer(customerId: string): Promise<string | undefined> {
    const rows: { user_id: string }[] = await this.db.query(`SELECT user_id FROM stripe_customers WHERE customer_id = $1`, [customerId]);
    return rows[0]?.user_id;
  }

  /**
   * The user's customer is gone at Stripe (deleted, or the keys now name another account): the new
   * one replaces it, unless another request replaced it first. Answers the user's customer.
   */
  async replaceCustomer(userId: string, stale: string, fresh: string): Promise<string> {
    await this.db.query(`UPDATE stripe_customers SET customer_id = $3 WHERE user_id = $1 AND customer_id = $2`, [userId, stale, fresh]);
    return (await this.customerOf(userId)) ?? fresh;
  }

  /** Links the user to the customer unless it has one already; answers the user's customer. */
  async saveCustomer(userId: string, customerId: string): Promise<string> {
    await this.db.query(`INSERT INTO stripe_customers (user_id, customer_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [userId, customerId]);
    return (await this.customerOf(userId)) ?? customerId;
  }

  /** Stores a verified event once; answers false when its id was stored before (a replay). */
  async insertEvent(id: string, type: string, payload: unknown): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `INSERT INTO stripe_events (id, type, payload) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING RETURNING id`,
      [id, type, JSON.stringify(payload)],
    );
    return rows.length > 0;
  }

  async findEvent(id: string): Promise<{ type: string; payload: Record<string, unknown>; handled_at: Date | null } | undefined> {
    const rows: { type: string; payload: Record<string, unknown>; handled_at: Date | null }[] = await this.db.query(
      `SELECT type, payload, handled_at FROM stripe_events WHERE id = $1`,
      [id],
    );
    return rows[0];
  }

  /** Puts an event's body back (read again from Stripe for a replay), until it is applied. */
  async storeEventPayload(id: string, payload: unknown): Promise<void> {
    await this.db.query(`UPDATE stripe_events SET payload = $2 WHERE id = $1`, [id, JSON.stringify(payload)]);
  }

  /**
   * Marks the event applied and clears its body: Stripe's objects carry names, emails and addresses,
   * which must not outlive their use (nor an account's deletion). The id, type and times stay.
   */
  async markEventHandled(id: string): Promise<void> {
    await this.db.query(
      `UPDATE stripe_events SET handled_at = now(), error = NULL, failed_at = NULL, payload = '{}'::jsonb WHERE id = $1`,
      [id],
    );
  }

  /** An event not applied yet is queued again (Stripe delivered it again): it is no longer failed for good. */
  async requeueEvent(id: string): Promise<void> {
    await this.db.query(`UPDATE stripe_events SET failed_at = NULL WHERE id = $1 AND handled_at IS NULL`, [id]);
  }

  /** An attempt failed; `final`: it was the last one (no retry left). */
  async markEventFailed(id: string, error: string, final = false): Promise<void> {
    await this.db.query(
      `UPDATE stripe_events SET error = $2, failed_at = CASE WHEN $3 THEN now() ELSE failed_at END WHERE id = $1 AND handled_at IS NULL`,
      [id, error.slice(0, 2000), final],
    );
  }

  /** One stored event as the console shows it. */
  async eventRow(id: string): Promise<StripeEventRow | undefined> {
    const rows: StripeEventRow[] = await this.db.query(
      `SELECT id, type, ${EVENT_STATUS_SQL} AS status, error, received_at, handled_at, failed_at FROM stripe_events WHERE id = $1`,
      [id],
    );
    return rows[0];
  }

  /** One page of stored events (the console's list), and how many match. */
  async listEvents(
    filter: { status?: StripeEventStatus; type?: string; id?: string },
    orderBy: string,
    limit: number,
    offset: number,
  ): Promise<{ rows: StripeEventRow[]; total: number }> {
    const where: string[] = [];
    const args: unknown[] = [];
    if (filter.status) where.push(`${EVENT_STATUS_SQL} = $${args.push(filter.status)}`);
    if (filter.type) where.push(`type = $${args.push(filter.type)}`);
    if (filter.id) where.push(`id = $${args.push(filter.id)}`);
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [{ total }]: { total: number }[] = await this.db.query(`SELECT count(*)::int AS total FROM stripe_events ${clause}`, args);
    const rows: StripeEventRow[] = await this.db.query(
      `SELECT id, type, ${EVENT_STATUS_SQL} AS status, error, received_at, handled_at, failed_at
         FROM stripe_events ${clause} ORDER BY ${orderBy} LIMIT ${limit} OFFSET ${offset}`,
      args,
    );
    return { rows, total };
  }

  /** The stored subscription, locked to the commit (undefined before its first event). */
  async lockSubscription(m: EntityManager, id: string): Promise<SubscriptionRow | undefined> {
    const rows: Record<string, unknown>[] = await m.query(
      `SELECT stripe_subscription_id, user_id, price_lookup_key, tier, status, current_period_end, cancel_at_period_end
         FROM subscriptions WHERE stripe_subscription_id = $1 FOR UPDATE`,
      [id],
    );
    const r = rows[0];
    return (
      r && {
        stripeSubscriptionId: r.stripe_subscription_id as string,
        userId: r.user_id as string,
        priceLookupKey: r.price_lookup_key as string | null,
        tier: r.tier as string,
        status: r.status as string,
        currentPeriodEnd: r.current_period_end as Date | null,
        cancelAtPeriodEnd: r.cancel_at_period_end as boolean,
      }
    );
  }

  async upsertSubscription(m: EntityManager, s: SubscriptionRow): Promise<void> {
    await m.query(
      `INSERT INTO subscriptions (stripe_subscription_id, user_id, price_lookup_key, tier, status, current_period_end, cancel_at_period_end)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (stripe_subscription_id) DO UPDATE SET price_lookup_key = $3, tier = $4, status = $5, current_period_end = $6,
              cancel_at_period_end = $7, updated_at = now()`,
      [s.stripeSubscriptionId, s.userId, s.priceLookupKey, s.tier, s.status, s.currentPeriodEnd, s.cancelAtPeriodEnd],
    );
  }

  /** Another live subscription of the user than `exceptId` (a person may have subscribed twice). */
  async otherLiveSubscription(m: EntityManager, userId: string, exceptId: string): Promise<{ tier: string } | undefined> {
    const rows: { tier: string }[] = await m.query(
      `SELECT tier FROM subscriptions WHERE user_id = $1 AND stripe_subscription_id <> $2 AND status = ANY($3) ORDER BY updated_at DESC LIMIT 1`,
      [userId, exceptId, LIVE_SUBSCRIPTION_STATUSES],
    );
    return rows[0];
  }

  async hasLiveSubscription(userId: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(`SELECT 1 FROM subscriptions WHERE user_id = $1 AND status = ANY($2) LIMIT 1`, [
      userId,
      LIVE_SUBSCRIPTION_STATUSES,
    ]);
    return rows.length > 0;
  }

  /** The user's subscriptions that still bill (anything Stripe has not ended). */
  async billingSubscriptionsOf(userId: string): Promise<string[]> {
    const rows: { stripe_subscription_id: string }[] = await this.db.query(
      `SELECT stripe_subscription_id FROM subscriptions WHERE user_id = $1 AND status NOT IN ('canceled', 'incomplete_expired')`,
      [userId],
    );
    return rows.map((r) => r.stripe_subscription_id);
  }

  async setPaymentFailed(m: EntityManager, id: string, failed: boolean): Promise<void> {
    await m.query(`UPDATE subscriptions SET payment_failed = $2, updated_at = now() WHERE stripe_subscription_id = $1`, [id, failed]);
  }

  /** Records a paid pack once per Checkout Session; answers false when it was recorded before. */
  async insertPurchase(
    m: EntityManager,
    p: { sessionId: string; userId: string; paymentIntentId: string | null; packId: string; credits: number },
  ): Promise<boolean> {
    const rows: unknown[] = await m.query(
      `INSERT INTO purchases (checkout_session_id, user_id, payment_intent_id, pack_id, credits) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT DO NOTHING RETURNING checkout_session_id`,
      [p.sessionId, p.userId, p.paymentIntentId, p.packId, p.credits],
    );
    return rows.length > 0;
  }

  /** The pack paid by a payment intent, locked to the commit. */
  async lockPurchaseByPaymentIntent(m: EntityManager, paymentIntentId: string): Promise<PurchaseRow | undefined> {
    const rows: PurchaseRow[] = await m.query(
      `SELECT checkout_session_id, user_id, pack_id, credits, refunded_credits FROM purchases WHERE payment_intent_id = $1 FOR UPDATE`,
      [paymentIntentId],
    );
    return rows[0];
  }

  async setRefunded(m: EntityManager, sessionId: string, refundedCredits: number, chargeId: string | null): Promise<void> {
    await m.query(`UPDATE purchases SET refunded_credits = $2, charge_id = COALESCE($3, charge_id) WHERE checkout_session_id = $1`, [
      sessionId,
      refundedCredits,
      chargeId,
    ]);
  }

  /**
   * Records a money movement, or brings its row up to date (a later status, a refund grown since):
   * the amount never goes down, so an event that arrives late cannot undo a newer one.
   */
  async recordPayment(m: EntityManager | undefined, p: PaymentRecord): Promise<void> {
    await (m ?? this.db.manager).query(
      `INSERT INTO payments (stripe_id, kind, user_id, amount, currency, status, product, payment_intent_id, subscription_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (stripe_id) DO UPDATE SET
         status = CASE WHEN payments.status = 'paid' AND EXCLUDED.status IN ('failed', 'action_required') THEN payments.status
                       WHEN EXCLUDED.amount >= payments.amount THEN EXCLUDED.status ELSE payments.status END,
         amount = GREATEST(payments.amount, EXCLUDED.amount),
         product = COALESCE(payments.product, EXCLUDED.product),
         payment_intent_id = COALESCE(payments.payment_intent_id, EXCLUDED.payment_intent_id),
         subscription_id = COALESCE(payments.subscription_id, EXCLUDED.subscription_id),
         updated_at = now()`,
      [p.stripeId, p.kind, p.userId, p.amount, p.currency, p.status, p.product, p.paymentIntentId, p.subscriptionId],
    );
  }

  /** The status recorded for a Stripe object (undefined before its first record), locked to the commit. */
  async lockPaymentStatus(m: EntityManager, stripeId: string): Promise<string | undefined> {
    const rows: { status: string }[] = await m.query(`SELECT status FROM payments WHERE stripe_id = $1 FOR UPDATE`, [stripeId]);
    return rows[0]?.status;
  }

  /** Sets the status of the pack paid by a payment intent (refunded, partially_refunded, disputed). */
  async setPackPaymentStatus(m: EntityManager | undefined, paymentIntentId: string, status: string): Promise<void> {
    await (m ?? this.db.manager).query(
      `UPDATE payments SET status = $2, updated_at = now() WHERE kind = 'pack' AND payment_intent_id = $1`,
      [paymentIntentId, status],
    );
  }

  /** Who paid through a payment intent and for what (the pack's id), for a refund's or dispute's row. */
  async paymentOfIntent(paymentIntentId: string): Promise<{ user_id: string; product: string | null } | undefined> {
    const rows: { user_id: string; product: string | null }[] = await this.db.query(
      `SELECT user_id, product FROM payments WHERE payment_intent_id = $1 AND kind IN ('pack', 'subscription') LIMIT 1`,
      [paymentIntentId],
    );
    return rows[0];
  }
}
