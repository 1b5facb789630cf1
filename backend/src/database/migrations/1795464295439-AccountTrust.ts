import { MigrationInterface, QueryRunner } from 'typeorm';

export class AccountTrust1795464295439 implements MigrationInterface {
  name = 'AccountTrust1795464295439';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "support_inquiries" DROP CONSTRAINT "support_inquiries_user_id_fkey"`);
    await queryRunner.query(`DROP INDEX "public"."users_email_key"`);
    await queryRunner.query(
      `CREATE TABLE "auth_tokens" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "purpose" character varying(32) NOT NULL, "token_hash" character varying(64) NOT NULL, "email" character varying(320), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "attempts" integer NOT NULL DEFAULT '0', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "auth_tokens_purpose_check" CHECK ("purpose" IN ('email_verification', 'password_reset', 'mfa_challenge')), CONSTRAINT "PK_41e9ddfbb32da18c4e85e45c2fd" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "auth_tokens_token_hash_key" ON "auth_tokens"  ("token_hash") `);
    await queryRunner.query(`CREATE INDEX "auth_tokens_user_purpose_idx" ON "auth_tokens"  ("user_id", "purpose") `);
    await queryRunner.query(
      `CREATE TABLE "auth_recovery_codes" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "code_hash" character varying(64) NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_fefeaa6d8e2483fa5af309302ba" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "auth_recovery_codes_user_idx" ON "auth_recovery_codes"  ("user_id") `);
    await queryRunner.query(`ALTER TABLE "users" ADD "email_verified_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "users" ADD "totp_secret" character varying(255)`);
    await queryRunner.query(`ALTER TABLE "users" ADD "totp_enabled_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "users" ADD "totp_last_step" bigint`);
    await queryRunner.query(`CREATE INDEX "users_email_idx" ON "users"  ("email") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "users_email_verified_key" ON "users"  ("email") WHERE "email_verified_at" IS NOT NULL`);
    await queryRunner.query(
      `ALTER TABLE "auth_tokens" ADD CONSTRAINT "auth_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "auth_recovery_codes" ADD CONSTRAINT "auth_recovery_codes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "support_inquiries" ADD CONSTRAINT "support_inquiries_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    // Accounts that already exist: Google proved its addresses, and staff accounts were made by an
    // operator (admin:create, the first admin). Other email accounts verify through the mailed link.
    await queryRunner.query(
      `UPDATE "users" SET "email_verified_at" = now() WHERE "google_sub" IS NOT NULL OR "role" IN ('admin', 'support')`,
    );
    // Ledger entries stay immutable, except the anonymisation of a deleted account: its ids become
    // NULL (the foreign keys) and the reason someone typed may be cleared (never changed).
    await queryRunner.query(`CREATE OR REPLACE FUNCTION credit_ledger_entries_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'UPDATE'
           AND NEW.id = OLD.id AND NEW.kind = OLD.kind AND NEW.bucket = OLD.bucket AND NEW.amount = OLD.amount
           AND NEW.generation_id IS NOT DISTINCT FROM OLD.generation_id
           AND (NEW.reason IS NOT DISTINCT FROM OLD.reason OR NEW.reason IS NULL)
           AND NEW.created_at = OLD.created_at
           AND (NEW.user_id IS NOT DISTINCT FROM OLD.user_id OR NEW.user_id IS NULL)
           AND (NEW.actor_id IS NOT DISTINCT FROM OLD.actor_id OR NEW.actor_id IS NULL) THEN
          RETURN NEW;
        END IF;
        RAISE EXCEPTION 'credit ledger entries are immutable' USING ERRCODE = '42501';
      END $$`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE OR REPLACE FUNCTION credit_ledger_entries_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'UPDATE'
           AND NEW.id = OLD.id AND NEW.kind = OLD.kind AND NEW.bucket = OLD.bucket AND NEW.amount = OLD.amount
           AND NEW.generation_id IS NOT DISTINCT FROM OLD.generation_id AND NEW.reason IS NOT DISTINCT FROM OLD.reason
           AND NEW.created_at = OLD.created_at
           AND (NEW.user_id IS NOT DISTINCT FROM OLD.user_id OR NEW.user_id IS NULL)
           AND (NEW.actor_id IS NOT DISTINCT FROM OLD.actor_id OR NEW.actor_id IS NULL) THEN
          RETURN NEW;
        END IF;
        RAISE EXCEPTION 'credit ledger entries are immutable' USING ERRCODE = '42501';
      END $$`);
    await queryRunner.query(`ALTER TABLE "support_inquiries" DROP CONSTRAINT "support_inquiries_user_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "auth_recovery_codes" DROP CONSTRAINT "auth_recovery_codes_user_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "auth_tokens" DROP CONSTRAINT "auth_tokens_user_id_fkey"`);
    await queryRunner.query(`DROP INDEX "public"."users_email_verified_key"`);
    await queryRunner.query(`DROP INDEX "public"."users_email_idx"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "totp_last_step"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "totp_enabled_at"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "totp_secret"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "email_verified_at"`);
    await queryRunner.query(`DROP INDEX "public"."auth_recovery_codes_user_idx"`);
    await queryRunner.query(`DROP TABLE "auth_recovery_codes"`);
    await queryRunner.query(`DROP INDEX "public"."auth_tokens_user_purpose_idx"`);
    await queryRunner.query(`DROP INDEX "public"."auth_tokens_token_hash_key"`);
    await queryRunner.query(`DROP TABLE "auth_tokens"`);
    await queryRunner.query(`CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree ("email") `);
    await queryRunner.query(
      `ALTER TABLE "support_inquiries" ADD CONSTRAINT "support_inquiries_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }
}
