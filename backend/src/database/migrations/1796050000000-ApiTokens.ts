import { MigrationInterface, QueryRunner } from 'typeorm';

/** Personal API tokens (docs/api.md): named, scoped, with an optional expiry; only their SHA-256 is kept. */
export class ApiTokens1796050000000 implements MigrationInterface {
  name = 'ApiTokens1796050000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "api_tokens" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "name" character varying(100) NOT NULL, "token_hash" character varying(64) NOT NULL, "shown" character varying(16) NOT NULL, "scopes" text array NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE, "last_used_at" TIMESTAMP WITH TIME ZONE, "revoked_at" TIMESTAMP WITH TIME ZONE, "revoke_reason" character varying(32), CONSTRAINT "PK_c587455266b5fa8dace7194caac" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "api_tokens_token_hash_key" ON "api_tokens" ("token_hash")`);
    await queryRunner.query(`CREATE INDEX "api_tokens_user_id_idx" ON "api_tokens" ("user_id", "created_at")`);
    await queryRunner.query(
      `ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_tokens" DROP CONSTRAINT "api_tokens_user_id_fkey"`);
    await queryRunner.query(`DROP INDEX "public"."api_tokens_user_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."api_tokens_token_hash_key"`);
    await queryRunner.query(`DROP TABLE "api_tokens"`);
  }
}
