import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  OneToOne,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { UserEntity } from '../users/user.entity';

/** The two buckets of a balance. Spending takes subscription credits first. */
export enum CreditBucket {
  Subscription = 'subscription',
  Purchased = 'purchased',
}

/** Why a ledger entry exists. */
export enum CreditEntryKind {
  /** the plan's monthly credits, at sign-up and at each monthly reset */
  MonthlyGrant = 'monthly_grant',
  /** unused subscription credits expiring at the monthly reset (no rollover) */
  MonthlyExpiry = 'monthly_expiry',
  /** an upgrade tops the subscription bucket up to the new plan's monthly credits at once */
  PlanUpgrade = 'plan_upgrade',
  /** a credit pack paid through Stripe Checkout (credits plus bonus, in the purchased bucket) */
  Purchase = 'purchase',
  /** a refunded or disputed pack: its credits taken back, as far as the balance allows */
  PurchaseReversal = 'purchase_reversal',
  /** unused subscription credits expiring when a paid renewal resets them (no rollover) */
  RenewalExpiry = 'renewal_expiry',
  /** the plan's monthly credits granted by a paid renewal (Stripe invoice) */
  RenewalGrant = 'renewal_grant',
  AdminAdd = 'admin_add',
  AdminDeduct = 'admin_deduct',
  /** a generation's held credits, charged when its result is stored */
  GenerationCharge = 'generation_charge',
  /** balance carried over from before the ledger existed (migration) */
  OpeningBalance = 'opening_balance',
}

export enum CreditHoldStatus {
  Held = 'held',
  Captured = 'captured',
  Released = 'released',
}

/**
 * One row per user: both buckets and the credits held by running generations. The CHECKs make a
 * negative balance or an over-commitment impossible whatever the code does.
 */
@Entity({ name: 'credit_accounts' })
@Check('credit_accounts_subscription_check', '"subscription_balance" >= 0')
@Check('credit_accounts_purchased_check', '"purchased_balance" >= 0')
@Check('credit_accounts_held_check', '"held" >= 0 AND "held" <= "subscription_balance" + "purchased_balance"')
export class CreditAccountEntity {
  @PrimaryColumn('uuid', { name: 'user_id' })
  userId: string;

  @OneToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Column({ name: 'subscription_balance', type: 'integer', default: 0 })
  subscriptionBalance: number;

  @Column({ name: 'purchased_balance', type: 'integer', default: 0 })
  purchasedBalance: number;

  @Column({ type: 'integer', default: 0 })
  held: number;

  /** start of the current monthly period; the reset runs when a month has passed since */
  @Column({ name: 'period_start', type: 'timestamptz' })
  periodStart: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}

/**
 * The books: every change of a balance is one immutable row (a trigger refuses updates and deletes;
 * deleting an account only anonymises its rows). For each user and bucket, the sum of `amount`
 * equals the bucket's balance.
 */
@Entity({ name: 'credit_ledger_entries' })
@Check('credit_ledger_entries_amount_check', '"amount" <> 0')
@Check('credit_ledger_entries_bucket_check', `"bucket" IN ('subscription', 'purchased')`)
@Index('credit_ledger_entries_user_created_idx', ['userId', 'createdAt'])
export class CreditLedgerEntryEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id: string;

  @Column('uuid', { name: 'user_id', nullable: true })
  userId: string | null;

  @ManyToOne(() => UserEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Column({ type: 'varchar', length: 32 })
  kind: CreditEntryKind;

  @Column({ type: 'varchar', length: 16 })
  bucket: CreditBucket;

  /** positive adds credits to the bucket, negative takes them */
  @Column({ type: 'integer' })
  amount: number;

  @Index('credit_ledger_entries_generation_idx')
  @Column('uuid', { name: 'generation_id', nullable: true })
  generationId: string | null;

  @Column({ type: 'text', nullable: true })
  reason: string | null;

  /** the payment's id at Stripe (payment intent, invoice, charge or dispute) for payments, refunds and renewals */
  @Index('credit_ledger_entries_external_idx')
  @Column({ name: 'external_id', type: 'text', nullable: true })
  externalId: string | null;

  /** the admin who made an adjustment */
  @Column('uuid', { name: 'actor_id', nullable: true })
  actorId: string | null;

  @ManyToOne(() => UserEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'actor_id' })
  actor?: UserEntity;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}

/** Credits reserved for one generation: resolved exactly once, captured (charged) or released. */
@Entity({ name: 'credit_holds' })
@Check('credit_holds_amount_check', '"amount" > 0')
@Check('credit_holds_status_check', `"status" IN ('held', 'captured', 'released')`)
@Index('credit_holds_open_idx', ['userId'], { where: `"status" = 'held'` })
export class CreditHoldEntity {
  @PrimaryColumn('uuid', { name: 'generation_id' })
  generationId: string;

  @Column('uuid', { name: 'user_id' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Column({ type: 'integer' })
  amount: number;

  @Column({ type: 'varchar', length: 16, default: CreditHoldStatus.Held })
  status: CreditHoldStatus;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'resolved_at', type: 'timestamptz', nullable: true })
  resolvedAt: Date | null;
}
