import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The money side of billing, one row per Stripe object that moved money (a pack's Checkout Session,
 * a subscription's invoice, a refunded charge, a dispute), with the amount Stripe reported: the
 * console's Payments page and revenue figures read it. Packs bought before it have no row.
 */
export class BillingPayments1795720000000 implements MigrationInterface {
  name = 'BillingPayments1795720000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "payments" ("stripe_id" character varying(255) NOT NULL, "kind" character varying(16) NOT NULL, "user_id" uuid NOT NULL, "amount" integer NOT NULL, "currency" character varying(3) NOT NULL, "status" character varying(32) NOT NULL, "product" character varying(64), "payment_intent_id" character varying(255), "subscription_id" character varying(255), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "payments_kind_check" CHECK ("kind" IN ('pack', 'subscription', 'refund', 'dispute')), CONSTRAINT "payments_amount_check" CHECK ("amount" >= 0), CONSTRAINT "PK_payments_stripe_id" PRIMARY KEY ("stripe_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "payments_created_idx" ON "payments" ("created_at") `);
    await queryRunner.query(`CREATE INDEX "payments_user_idx" ON "payments" ("user_id") `);
    await queryRunner.query(`CREATE INDEX "payments_payment_intent_idx" ON "payments" ("payment_intent_id") `);
    await queryRunner.query(
      `ALTER TABLE "payments" ADD CONSTRAINT "FK_payments_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payments" DROP CONSTRAINT "FK_payments_user"`);
    await queryRunner.query(`DROP INDEX "public"."payments_payment_intent_idx"`);
    await queryRunner.query(`DROP INDEX "public"."payments_user_idx"`);
    await queryRunner.query(`DROP INDEX "public"."payments_created_idx"`);
    await queryRunner.query(`DROP TABLE "payments"`);
  }
}
