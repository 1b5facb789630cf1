import { MigrationInterface, QueryRunner } from 'typeorm';

export class AuditLog1795287359069 implements MigrationInterface {
  name = 'AuditLog1795287359069';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "audit_log" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "actor_id" uuid NOT NULL, "actor_email" character varying(320), "action" character varying(64) NOT NULL, "target_type" character varying(64) NOT NULL, "target_id" character varying(64) NOT NULL, "target_user_id" uuid, "target_email" character varying(320), "before" jsonb, "after" jsonb, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_07fefa57f7f5ab8fc3f52b3ed0b" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "audit_log_actor_idx" ON "audit_log"  ("actor_id", "created_at") `);
    await queryRunner.query(`CREATE INDEX "audit_log_target_user_idx" ON "audit_log"  ("target_user_id", "created_at") `);
    await queryRunner.query(`CREATE INDEX "audit_log_created_at_idx" ON "audit_log"  ("created_at") `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."audit_log_created_at_idx"`);
    await queryRunner.query(`DROP INDEX "public"."audit_log_target_user_idx"`);
    await queryRunner.query(`DROP INDEX "public"."audit_log_actor_idx"`);
    await queryRunner.query(`DROP TABLE "audit_log"`);
  }
}
