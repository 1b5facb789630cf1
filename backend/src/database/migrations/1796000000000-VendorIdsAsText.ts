import { MigrationInterface, QueryRunner } from 'typeorm';

/** Every column this migration turns into `text`, with the type it had before (for down()). */
const COLUMNS: [table: string, column: string, before: string][] = [
  // billing: Stripe's ids (up to 255 characters, and Stripe may lengthen them) and our own values
  ['stripe_customers', 'customer_id', 'character varying(255)'],
  ['stripe_events', 'id', 'character varying(255)'],
  ['stripe_events', 'type', 'character varying(100)'],
  ['subscriptions', 'stripe_subscription_id', 'character varying(255)'],
  ['subscriptions', 'price_lookup_key', 'character varying(200)'],
  ['subscriptions', 'tier', 'character varying(32)'],
  ['subscriptions', 'status', 'character varying(32)'],
  ['purchases', 'checkout_session_id', 'character varying(255)'],
  ['purchases', 'payment_intent_id', 'character varying(255)'],
  ['purchases', 'charge_id', 'character varying(255)'],
  ['purchases', 'pack_id', 'character varying(32)'],
  ['payments', 'stripe_id', 'character varying(255)'],
  ['payments', 'kind', 'character varying(16)'],
  ['payments', 'currency', 'character varying(3)'],
  ['payments', 'status', 'character varying(32)'],
  ['payments', 'product', 'character varying(64)'],
  ['payments', 'payment_intent_id', 'character varying(255)'],
  ['payments', 'subscription_id', 'character varying(255)'],
  // the ledger's reference to a payment at Stripe
  ['credit_ledger_entries', 'external_id', 'character varying(255)'],
  // the audit trail names Stripe objects (a Checkout Session id is 66 characters: the 500 of issue 30)
  ['audit_log', 'actor_email', 'character varying(320)'],
  ['audit_log', 'action', 'character varying(64)'],
  ['audit_log', 'target_type', 'character varying(64)'],
  ['audit_log', 'target_id', 'character varying(64)'],
  ['audit_log', 'target_email', 'character varying(320)'],
  // notifications: their dedupe keys name Stripe ids
  ['system_notifications', 'type', 'character varying(64)'],
  ['system_notifications', 'title', 'character varying(200)'],
  ['system_notifications', 'severity', 'character varying(16)'],
  ['system_notifications', 'dedupe_key', 'character varying(200)'],
  // generations: the vendor's job id, and every other string column of the module
  ['user_generations', 'type', 'character varying(8)'],
  ['user_generations', 'status', 'character varying(16)'],
  ['user_generations', 'category', 'character varying(32)'],
  ['user_generations', 'tier', 'character varying(16)'],
  ['user_generations', 'stage', 'character varying(16)'],
  ['user_generations', 'poll_claim', 'character varying(200)'],
  ['user_generations', 'provider', 'character varying(32)'],
  ['user_generations', 'provider_job_id', 'character varying(255)'],
  ['user_generations', 'result_key', 'character varying(512)'],
  ['safety_refusals', 'reasons', 'character varying(200)'],
  ['safety_refusals', 'source', 'character varying(16)'],
];

/** The columns above that hold one of our own values: what each may hold. */
const CHECKS: [table: string, name: string, expression: string][] = [
  ['subscriptions', 'subscriptions_tier_check', `"tier" IN ('free', 'starter', 'glow_up', 'model_mode')`],
  ['payments', 'payments_currency_check', `"currency" ~ '^[a-z]{3}$'`],
  ['user_generations', 'user_generations_tier_check', `"tier" IN ('free', 'starter', 'glow_up', 'model_mode')`],
  [
    'user_generations',
    'user_generations_stage_check',
    `"stage" IN ('creating', 'starting', 'processing', 'polling', 'finalizing', 'complete', 'failed')`,
  ],
  ['safety_refusals', 'safety_refusals_source_check', `"source" IN ('check', 'start')`],
];

/**
 * Issue 30: vendor ids and URLs are `text`. A real Checkout Session id is 66 characters and the
 * audit row kept it in `varchar(64)` (PostgreSQL error 22001, checkout answered 500); Stripe
 * documents ids of up to 255 characters that may grow
 * (https://docs.stripe.com/upgrades#what-changes-does-stripe-consider-to-be-backward-compatible).
 * In PostgreSQL `text` and `varchar(n)` are stored alike, and varchar -> text rewrites neither the
 * table nor its indexes; the columns that hold our own values get a CHECK instead of a width
 * (payments.kind, user_generations.type and status had theirs already).
 *
 * Also `stripe_events.failed_at`: the event failed on every attempt of its queue job (the admins are
 * told, and the console can replay it).
 */
export class VendorIdsAsText1796000000000 implements MigrationInterface {
  name = 'VendorIdsAsText1796000000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const [table, column] of COLUMNS) {
      await queryRunner.query(`ALTER TABLE "${table}" ALTER COLUMN "${column}" TYPE text`);
    }
    for (const [table, name, expression] of CHECKS) {
      await queryRunner.query(`ALTER TABLE "${table}" ADD CONSTRAINT "${name}" CHECK (${expression})`);
    }
    await queryRunner.query(`ALTER TABLE "stripe_events" ADD "failed_at" TIMESTAMP WITH TIME ZONE`);
  }

  /** Back to the widths of before: refused (22001) while a longer value is stored, which is the point of up(). */
  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "stripe_events" DROP COLUMN "failed_at"`);
    for (const [table, name] of [...CHECKS].reverse()) {
      await queryRunner.query(`ALTER TABLE "${table}" DROP CONSTRAINT "${name}"`);
    }
    for (const [table, column, before] of [...COLUMNS].reverse()) {
      await queryRunner.query(`ALTER TABLE "${table}" ALTER COLUMN "${column}" TYPE ${before}`);
    }
  }
}
