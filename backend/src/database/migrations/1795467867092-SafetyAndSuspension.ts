import { MigrationInterface, QueryRunner } from 'typeorm';

export class SafetyAndSuspension1795467867092 implements MigrationInterface {
  name = 'SafetyAndSuspension1795467867092';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "safety_refusals" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "reasons" character varying(200) NOT NULL, "text" text, "source" character varying(16) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_15f47006d086ebd121bcf58a428" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "safety_refusals_user_created_idx" ON "safety_refusals"  ("user_id", "created_at") `);
    await queryRunner.query(`ALTER TABLE "users" ADD "suspended_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "users" ADD "suspension_reason" character varying(500)`);
    await queryRunner.query(`ALTER TABLE "users" ADD "custom_pose_paused_until" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `ALTER TABLE "safety_refusals" ADD CONSTRAINT "safety_refusals_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "safety_refusals" DROP CONSTRAINT "safety_refusals_user_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "custom_pose_paused_until"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "suspension_reason"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "suspended_at"`);
    await queryRunner.query(`DROP INDEX "public"."safety_refusals_user_created_idx"`);
    await queryRunner.query(`DROP TABLE "safety_refusals"`);
  }
}
