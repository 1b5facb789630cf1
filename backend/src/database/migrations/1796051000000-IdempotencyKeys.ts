import { MigrationInterface, QueryRunner } from 'typeorm';

/** Idempotency-Key of POST /api/generations and POST /api/uploads: the request and its first answer, kept 24 hours. */
export class IdempotencyKeys1796051000000 implements MigrationInterface {
  name = 'IdempotencyKeys1796051000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "idempotency_keys" ("user_id" uuid NOT NULL, "key" character varying(255) NOT NULL, "route" character varying(100) NOT NULL, "request_hash" character varying(64) NOT NULL, "status_code" smallint, "response" jsonb, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_392b1af86f210d98d3f0c764728" PRIMARY KEY ("user_id", "key"))`,
    );
    await queryRunner.query(`CREATE INDEX "idempotency_keys_created_at_idx" ON "idempotency_keys" ("created_at")`);
    await queryRunner.query(
      `ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "idempotency_keys" DROP CONSTRAINT "idempotency_keys_user_id_fkey"`);
    await queryRunner.query(`DROP INDEX "public"."idempotency_keys_created_at_idx"`);
    await queryRunner.query(`DROP TABLE "idempotency_keys"`);
  }
}
