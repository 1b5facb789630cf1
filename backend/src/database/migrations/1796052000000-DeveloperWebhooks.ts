import { MigrationInterface, QueryRunner } from 'typeorm';

/** Developers' webhook endpoints (their signing secrets sealed) and the deliveries of their events, with the last attempt's outcome. */
export class DeveloperWebhooks1796052000000 implements MigrationInterface {
  name = 'DeveloperWebhooks1796052000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "developer_webhook_endpoints" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "url" character varying(2048) NOT NULL, "events" text array NOT NULL, "secret_sealed" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "disabled_at" TIMESTAMP WITH TIME ZONE, "disabled_reason" character varying(32), "consecutive_failures" integer NOT NULL DEFAULT '0', "failing_since" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_762f22ffd06a309c5909a7d2b10" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "developer_webhook_endpoints_user_id_idx" ON "developer_webhook_endpoints" ("user_id", "created_at")`,
    );
    await queryRunner.query(
      `CREATE TABLE "developer_webhook_deliveries" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "endpoint_id" uuid NOT NULL, "event_id" uuid NOT NULL, "event_type" character varying(40) NOT NULL, "body" text NOT NULL, "state" character varying(16) NOT NULL DEFAULT 'pending', "attempts" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP WITH TIME ZONE, "last_attempt_at" TIMESTAMP WITH TIME ZONE, "last_status" smallint, "last_duration_ms" integer, "last_error" character varying(300), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a4f56fc073d4ba0083ab4afd369" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "developer_webhook_deliveries_due_idx" ON "developer_webhook_deliveries" ("next_attempt_at") WHERE "state" = 'pending'`,
    );
    await queryRunner.query(
      `CREATE INDEX "developer_webhook_deliveries_endpoint_idx" ON "developer_webhook_deliveries" ("endpoint_id", "created_at")`,
    );
    await queryRunner.query(
      `ALTER TABLE "developer_webhook_endpoints" ADD CONSTRAINT "developer_webhook_endpoints_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "developer_webhook_deliveries" ADD CONSTRAINT "developer_webhook_deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "developer_webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "developer_webhook_deliveries" DROP CONSTRAINT "developer_webhook_deliveries_endpoint_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "developer_webhook_endpoints" DROP CONSTRAINT "developer_webhook_endpoints_user_id_fkey"`);
    await queryRunner.query(`DROP INDEX "public"."developer_webhook_deliveries_endpoint_idx"`);
    await queryRunner.query(`DROP INDEX "public"."developer_webhook_deliveries_due_idx"`);
    await queryRunner.query(`DROP TABLE "developer_webhook_deliveries"`);
    await queryRunner.query(`DROP INDEX "public"."developer_webhook_endpoints_user_id_idx"`);
    await queryRunner.query(`DROP TABLE "developer_webhook_endpoints"`);
  }
}
