import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, OneToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { TIERS } from '../catalog/tiers';
import { UserEntity } from '../users/user.entity';

/*
 * Stripe's ids and URLs are `text`: Stripe documents object ids of up to 255 characters and counts
 * a longer or differently shaped id as a backward-compatible change
 * (https://docs.stripe.com/upgrades#what-changes-does-stripe-consider-to-be-backward-compatible); a
 * Checkout Session id is already 66. In PostgreSQL `text` costs nothing over `varchar(n)`; the
 * columns that hold one of our own values are `text` with a CHECK.
 */

/** The Stripe customer of a user (one each, created at the first checkout). */
@Entity({ name: 'stripe_customers' })
export class StripeCustomerEntity {
  @PrimaryColumn('uuid', { name: 'user_id' })
  userId: string;

  @OneToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Index('stripe_customers_customer_id_key', { unique: true })
  @Column({ name: 'customer_id', type: 'text' })
  customerId: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}

/**
 * Every Stripe webhook event received, once by its id: a replay finds its row and changes nothing.
 * `handled_at` is set when the queue job applied it; `error` keeps the last failure of that job.
 */
@Entity({ name: 'stripe_events' })
export class StripeEventEntity {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ type: 'text' })
  type: string;

  /** the event as Stripe sent it (verified), for the job that applies it; emptied once applied (personal data) */
  @Column({ type: 'jsonb' })
  payload: Record<string, unknown>;

  @CreateDateColumn({ name: 'received_at', type: 'timestamptz' })
  receivedAt: Date;

  @Column({ name: 'handled_at', type: 'timestamptz', nullable: true })
  handledAt: Date | null;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  /** the job's last attempt failed too: it is not retried any more, the admins were told, the console can replay it */
  @Column({ name: 'failed_at', type: 'timestamptz', nullable: true })
  failedAt: Date | null;
}

/** A user's Stripe subscription as Stripe last described it (status, plan, period end, cancellation). */
@Entity({ name: 'subscriptions' })
@Check('subscriptions_tier_check', `"tier" IN (${TIERS.map((t) => `'${t}'`).join(', ')})`)
@Index('subscriptions_user_idx', ['userId'])
export class SubscriptionEntity {
  @PrimaryColumn({ name: 'stripe_subscription_id', type: 'text' })
  stripeSubscriptionId: string;

  @Column('uuid', { name: 'user_id' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  /** the lookup key of the subscription's price (null once a newer price took it over: an archived price) */
  @Column({ name: 'price_lookup_key', type: 'text', nullable: true })
  priceLookupKey: string | null;

  /** the plan the price stands for (its product `fitting_room_plan_<tier>`, or its metadata) */
  @Column({ type: 'text' })
  tier: string;

  /** Stripe's status: incomplete, trialing, active, past_due, unpaid, canceled, incomplete_expired, paused (Stripe's own list: no CHECK) */
  @Column({ type: 'text' })
  status: string;

  @Column({ name: 'current_period_end', type: 'timestamptz', nullable: true })
  currentPeriodEnd: Date | null;

  @Column({ name: 'cancel_at_period_end', type: 'boolean', default: false })
  cancelAtPeriodEnd: boolean;

  /** the last payment failed and Stripe is retrying: the user app shows a banner */
  @Column({ name: 'payment_failed', type: 'boolean', default: false })
  paymentFailed: boolean;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}

/** A credit pack bought through Checkout: paid once, its credits taken back as far as possible on a refund or dispute. */
@Entity({ name: 'purchases' })
@Check('purchases_credits_check', '"credits" > 0 AND "refunded_credits" >= 0 AND "refunded_credits" <= "credits"')
@Index('purchases_user_idx', ['userId'])
export class PurchaseEntity {
  @PrimaryColumn({ name: 'checkout_session_id', type: 'text' })
  checkoutSessionId: string;

  @Column('uuid', { name: 'user_id' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Index('purchases_payment_intent_key', { unique: true })
  @Column({ name: 'payment_intent_id', type: 'text', nullable: true })
  paymentIntentId: string | null;

  @Column({ name: 'charge_id', type: 'text', nullable: true })
  chargeId: string | null;

  @Column({ name: 'pack_id', type: 'text' })
  packId: string;

  /** the pack's credits plus its bonus, as granted */
  @Column({ type: 'integer' })
  credits: number;

  /** credits a refund or dispute asked back (what the balance allowed is on the ledger) */
  @Column({ name: 'refunded_credits', type: 'integer', default: 0 })
  refundedCredits: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}

/** What moved money at Stripe: a pack's Checkout Session, a subscription's invoice, a refunded charge, a dispute. */
export const PAYMENT_KINDS = ['pack', 'subscription', 'refund', 'dispute'] as const;
export type PaymentKind = (typeof PAYMENT_KINDS)[number];

/**
 * One Stripe object that moved money, with the amount (cents) and currency Stripe reported and its
 * last status: the console's Payments page and revenue figures. Keyed by the object's Stripe id.
 */
@Entity({ name: 'payments' })
@Check('payments_kind_check', `"kind" IN ('pack', 'subscription', 'refund', 'dispute')`)
@Check('payments_amount_check', '"amount" >= 0')
@Check('payments_currency_check', `"currency" ~ '^[a-z]{3}$'`)
@Index('payments_user_idx', ['userId'])
export class PaymentEntity {
  @PrimaryColumn({ name: 'stripe_id', type: 'text', primaryKeyConstraintName: 'PK_payments_stripe_id' })
  stripeId: string;

  @Column({ type: 'text' })
  kind: PaymentKind;

  @Column('uuid', { name: 'user_id' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_payments_user' })
  user?: UserEntity;

  /** in the currency's smallest unit (cents); a refund's is what was refunded of its charge so far */
  @Column({ type: 'integer' })
  amount: number;

  /** ISO 4217, lowercase as Stripe writes it */
  @Column({ type: 'text' })
  currency: string;

  /** pack: paid, partially_refunded, refunded, disputed; subscription: paid, failed, action_required; refund: refunded; dispute: Stripe's status */
  @Column({ type: 'text' })
  status: string;

  /** the pack's id or the plan's tier */
  @Column({ type: 'text', nullable: true })
  product: string | null;

  @Index('payments_payment_intent_idx')
  @Column({ name: 'payment_intent_id', type: 'text', nullable: true })
  paymentIntentId: string | null;

  @Column({ name: 'subscription_id', type: 'text', nullable: true })
  subscriptionId: string | null;

  @Index('payments_created_idx')
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
