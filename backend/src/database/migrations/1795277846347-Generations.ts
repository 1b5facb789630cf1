import { MigrationInterface, QueryRunner } from 'typeorm';

export class Generations1795277846347 implements MigrationInterface {
  name = 'Generations1795277846347';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "user_generations" ("id" uuid NOT NULL, "user_id" uuid NOT NULL, "type" character varying(8) NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'processing', "cost" integer NOT NULL, "category" character varying(32) NOT NULL, "prompt" text NOT NULL, "metadata" jsonb NOT NULL DEFAULT '{}', "tier" character varying(16) NOT NULL, "stage" character varying(16) NOT NULL DEFAULT 'creating', "polls" integer NOT NULL DEFAULT '0', "max_polls" integer NOT NULL, "poll_claim" character varying(200), "provider" character varying(32) NOT NULL, "provider_job_id" character varying(255), "submit_started_at" TIMESTAMP WITH TIME ZONE, "attempts" integer NOT NULL DEFAULT '0', "error" text, "result_key" character varying(512), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "completed_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "user_generations_cost_check" CHECK ("cost" > 0), CONSTRAINT "user_generations_status_check" CHECK ("status" IN ('processing', 'completed', 'failed')), CONSTRAINT "user_generations_type_check" CHECK ("type" IN ('image', 'video')), CONSTRAINT "PK_28f47a264977a6835b16f2c1b91" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "user_generations_running_updated_idx" ON "user_generations"  ("updated_at") WHERE "status" = 'processing'`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "user_generations_provider_job_key" ON "user_generations"  ("provider", "provider_job_id") WHERE "provider_job_id" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "user_generations_user_status_created_idx" ON "user_generations"  ("user_id", "status", "created_at") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "user_generations_one_running_per_user" ON "user_generations"  ("user_id") WHERE "status" = 'processing'`,
    );
    await queryRunner.query(
      `CREATE TABLE "uploads" ("id" uuid NOT NULL, "user_id" uuid NOT NULL, "storage_key" character varying(512) NOT NULL, "width" integer NOT NULL, "height" integer NOT NULL, "size_bytes" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_used_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_d1781d1eedd7459314f60f39bd3" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "uploads_last_used_at_idx" ON "uploads"  ("last_used_at") `);
    await queryRunner.query(`CREATE INDEX "uploads_user_id_created_at_idx" ON "uploads"  ("user_id", "created_at") `);
    await queryRunner.query(
      `ALTER TABLE "user_generations" ADD CONSTRAINT "user_generations_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "uploads" ADD CONSTRAINT "uploads_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "uploads" DROP CONSTRAINT "uploads_user_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "user_generations" DROP CONSTRAINT "user_generations_user_id_fkey"`);
    await queryRunner.query(`DROP INDEX "public"."uploads_user_id_created_at_idx"`);
    await queryRunner.query(`DROP INDEX "public"."uploads_last_used_at_idx"`);
    await queryRunner.query(`DROP TABLE "uploads"`);
    await queryRunner.query(`DROP INDEX "public"."user_generations_one_running_per_user"`);
    await queryRunner.query(`DROP INDEX "public"."user_generations_user_status_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."user_generations_provider_job_key"`);
    await queryRunner.query(`DROP INDEX "public"."user_generations_running_updated_idx"`);
    await queryRunner.query(`DROP TABLE "user_generations"`);
  }
}
