import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, OneToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { UserEntity } from '../users/user.entity';

/** The Stripe customer of a user (one each, created at the first checkout). */
@Entity({ name: 'stripe_customers' })
export class StripeCustomerEntity {
  @PrimaryColumn('uuid', { name: 'user_id' })
  userId: string;

  @OneToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Index('stripe_customers_customer_id_key', { unique: true })
  @Column({ name: 'customer_id', type: 'varchar', length: 255 })
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
  @PrimaryColumn({ type: 'varchar', length: 255 })
  id: string;

  @Column({ type: 'varchar', length: 100 })
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
}

/** A user's Stripe subscription as Stripe last described it (status, plan, period end, cancellation). */
@Entity({ name: 'subscriptions' })
@Index('subscriptions_user_idx', ['userId'])
export class SubscriptionEntity {
  @PrimaryColumn({ name: 'stripe_subscription_id', type: 'varchar', length: 255 })
  stripeSubscriptionId: string;

  @Column('uuid', { name: 'user_id' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  /** the lookup key of the subscription's price, and the tier it stands for */
  @Column({ name: 'price_lookup_key', type: 'varchar', length: 200, nullable: true })
  priceLookupKey: string | null;

  @Column({ type: 'varchar', length: 32 })
  tier: string;

  /** Stripe's status: incomplete, trialing, active, past_due, unpaid, canceled, incomplete_expired, paused */
  @Column({ type: 'varchar', length: 32 })
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
  @PrimaryColumn({ name: 'checkout_session_id', type: 'varchar', length: 255 })
  checkoutSessionId: string;

  @Column('uuid', { name: 'user_id' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Index('purchases_payment_intent_key', { unique: true })
  @Column({ name: 'payment_intent_id', type: 'varchar', length: 255, nullable: true })
  paymentIntentId: string | null;

  @Column({ name: 'charge_id', type: 'varchar', length: 255, nullable: true })
  chargeId: string | null;

  @Column({ name: 'pack_id', type: 'varchar', length: 32 })
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
@Index('payments_user_idx', ['userId'])
export class PaymentEntity {
  @PrimaryColumn({ name: 'stripe_id', type: 'varchar', length: 255, primaryKeyConstraintName: 'PK_payments_stripe_id' })
  stripeId: string;

  @Column({ type: 'varchar', length: 16 })
  kind: PaymentKind;

  @Column('uuid', { name: 'user_id' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_payments_user' })
  user?: UserEntity;

  /** in the currency's smallest unit (cents); a refund's is what was refunded of its charge so far */
  @Column({ type: 'integer' })
  amount: number;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  /** pack: paid, partially_refunded, refunded, disputed; subscription: paid, failed; refund: refunded; dispute: Stripe's status */
  @Column({ type: 'varchar', length: 32 })
  status: string;

  /** the pack's id or the plan's tier */
  @Column({ type: 'varchar', length: 64, nullable: true })
  product: string | null;

  @Index('payments_payment_intent_idx')
  @Column({ name: 'payment_intent_id', type: 'varchar', length: 255, nullable: true })
  paymentIntentId: string | null;

  @Column({ name: 'subscription_id', type: 'varchar', length: 255, nullable: true })
  subscriptionId: string | null;

  @Index('payments_created_idx')
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
