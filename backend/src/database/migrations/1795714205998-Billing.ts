import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Payments through Stripe: the customer of each user, every webhook event once by its id, the
 * subscriptions and the bought packs; ledger lines carry the payment's Stripe id.
 */
export class Billing1795714205998 implements MigrationInterface {
  name = 'Billing1795714205998';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "stripe_customers" ("user_id" uuid NOT NULL, "customer_id" character varying(255) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a613fdabcd9ae32b5ca3645ba77" PRIMARY KEY ("user_id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "stripe_customers_customer_id_key" ON "stripe_customers"  ("customer_id") `);
    await queryRunner.query(
      `CREATE TABLE "stripe_events" ("id" character varying(255) NOT NULL, "type" character varying(100) NOT NULL, "payload" jsonb NOT NULL, "received_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "handled_at" TIMESTAMP WITH TIME ZONE, "error" text, CONSTRAINT "PK_d3247bd5fc3f66b6982bbcdd897" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "subscriptions" ("stripe_subscription_id" character varying(255) NOT NULL, "user_id" uuid NOT NULL, "price_lookup_key" character varying(200), "tier" character varying(32) NOT NULL, "status" character varying(32) NOT NULL, "current_period_end" TIMESTAMP WITH TIME ZONE, "cancel_at_period_end" boolean NOT NULL DEFAULT false, "payment_failed" boolean NOT NULL DEFAULT false, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_3a2d09d943f39912a01831a9272" PRIMARY KEY ("stripe_subscription_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "subscriptions_user_idx" ON "subscriptions"  ("user_id") `);
    await queryRunner.query(
      `CREATE TABLE "purchases" ("checkout_session_id" character varying(255) NOT NULL, "user_id" uuid NOT NULL, "payment_intent_id" character varying(255), "charge_id" character varying(255), "pack_id" character varying(32) NOT NULL, "credits" integer NOT NULL, "refunded_credits" integer NOT NULL DEFAULT '0', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "purchases_credits_check" CHECK ("credits" > 0 AND "refunded_credits" >= 0 AND "refunded_credits" <= "credits"), CONSTRAINT "PK_3d57835e56693e77683b8bc9252" PRIMARY KEY ("checkout_session_id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "purchases_payment_intent_key" ON "purchases"  ("payment_intent_id") `);
    await queryRunner.query(`CREATE INDEX "purchases_user_idx" ON "purchases"  ("user_id") `);
    await queryRunner.query(`ALTER TABLE "credit_ledger_entries" ADD "external_id" character varying(255)`);
    await queryRunner.query(`CREATE INDEX "credit_ledger_entries_external_idx" ON "credit_ledger_entries"  ("external_id") `);
    await queryRunner.query(
      `ALTER TABLE "stripe_customers" ADD CONSTRAINT "FK_a613fdabcd9ae32b5ca3645ba77" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "subscriptions" ADD CONSTRAINT "FK_d0a95ef8a28188364c546eb65c1" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "purchases" ADD CONSTRAINT "FK_024ddf7e04177a07fcb9806a90a" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "purchases" DROP CONSTRAINT "FK_024ddf7e04177a07fcb9806a90a"`);
    await queryRunner.query(`ALTER TABLE "subscriptions" DROP CONSTRAINT "FK_d0a95ef8a28188364c546eb65c1"`);
    await queryRunner.query(`ALTER TABLE "stripe_customers" DROP CONSTRAINT "FK_a613fdabcd9ae32b5ca3645ba77"`);
    await queryRunner.query(`DROP INDEX "public"."credit_ledger_entries_external_idx"`);
    await queryRunner.query(`ALTER TABLE "credit_ledger_entries" DROP COLUMN "external_id"`);
    await queryRunner.query(`DROP INDEX "public"."purchases_user_idx"`);
    await queryRunner.query(`DROP INDEX "public"."purchases_payment_intent_key"`);
    await queryRunner.query(`DROP TABLE "purchases"`);
    await queryRunner.query(`DROP INDEX "public"."subscriptions_user_idx"`);
    await queryRunner.query(`DROP TABLE "subscriptions"`);
    await queryRunner.query(`DROP TABLE "stripe_events"`);
    await queryRunner.query(`DROP INDEX "public"."stripe_customers_customer_id_key"`);
    await queryRunner.query(`DROP TABLE "stripe_customers"`);
  }
}
