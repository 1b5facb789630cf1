import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreditLedger1795275740213 implements MigrationInterface {
  name = 'CreditLedger1795275740213';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "credit_accounts" ("user_id" uuid NOT NULL, "subscription_balance" integer NOT NULL DEFAULT '0', "purchased_balance" integer NOT NULL DEFAULT '0', "held" integer NOT NULL DEFAULT '0', "period_start" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "credit_accounts_held_check" CHECK ("held" >= 0 AND "held" <= "subscription_balance" + "purchased_balance"), CONSTRAINT "credit_accounts_purchased_check" CHECK ("purchased_balance" >= 0), CONSTRAINT "credit_accounts_subscription_check" CHECK ("subscription_balance" >= 0), CONSTRAINT "PK_e9e4079e4a9bc1ddeb3452b7f69" PRIMARY KEY ("user_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "credit_ledger_entries" ("id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "user_id" uuid, "kind" character varying(32) NOT NULL, "bucket" character varying(16) NOT NULL, "amount" integer NOT NULL, "generation_id" uuid, "reason" text, "actor_id" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "credit_ledger_entries_bucket_check" CHECK ("bucket" IN ('subscription', 'purchased')), CONSTRAINT "credit_ledger_entries_amount_check" CHECK ("amount" <> 0), CONSTRAINT "PK_5b40111e1ba27eb8ea205f57b14" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "credit_ledger_entries_generation_idx" ON "credit_ledger_entries"  ("generation_id") `);
    await queryRunner.query(`CREATE INDEX "credit_ledger_entries_user_created_idx" ON "credit_ledger_entries"  ("user_id", "created_at") `);
    await queryRunner.query(
      `CREATE TABLE "credit_holds" ("generation_id" uuid NOT NULL, "user_id" uuid NOT NULL, "amount" integer NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'held', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "resolved_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "credit_holds_status_check" CHECK ("status" IN ('held', 'captured', 'released')), CONSTRAINT "credit_holds_amount_check" CHECK ("amount" > 0), CONSTRAINT "PK_d2293cf8b0a414cea2de691ebe2" PRIMARY KEY ("generation_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "credit_holds_open_idx" ON "credit_holds"  ("user_id") WHERE "status" = 'held'`);
    await queryRunner.query(
      `ALTER TABLE "credit_accounts" ADD CONSTRAINT "FK_e9e4079e4a9bc1ddeb3452b7f69" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "credit_ledger_entries" ADD CONSTRAINT "FK_06cb0fcf3dd0d1b62fb0faef43b" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "credit_ledger_entries" ADD CONSTRAINT "FK_0277563e0586063b8f6f359e751" FOREIGN KEY ("actor_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "credit_holds" ADD CONSTRAINT "FK_e9ac2be8b124e2ff1d4f1d956fc" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    // Ledger entries are immutable: no UPDATE or DELETE, except the anonymisation that the
    // foreign keys do (user_id / actor_id set to NULL when an account is deleted).
    await queryRunner.query(`CREATE FUNCTION credit_ledger_entries_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
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
    await queryRunner.query(
      `CREATE TRIGGER credit_ledger_entries_immutable BEFORE UPDATE OR DELETE ON credit_ledger_entries FOR EACH ROW EXECUTE FUNCTION credit_ledger_entries_immutable()`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER IF EXISTS credit_ledger_entries_immutable ON credit_ledger_entries`);
    await queryRunner.query(`DROP FUNCTION IF EXISTS credit_ledger_entries_immutable()`);
    await queryRunner.query(`ALTER TABLE "credit_holds" DROP CONSTRAINT "FK_e9ac2be8b124e2ff1d4f1d956fc"`);
    await queryRunner.query(`ALTER TABLE "credit_ledger_entries" DROP CONSTRAINT "FK_0277563e0586063b8f6f359e751"`);
    await queryRunner.query(`ALTER TABLE "credit_ledger_entries" DROP CONSTRAINT "FK_06cb0fcf3dd0d1b62fb0faef43b"`);
    await queryRunner.query(`ALTER TABLE "credit_accounts" DROP CONSTRAINT "FK_e9e4079e4a9bc1ddeb3452b7f69"`);
    await queryRunner.query(`DROP INDEX "public"."credit_holds_open_idx"`);
    await queryRunner.query(`DROP TABLE "credit_holds"`);
    await queryRunner.query(`DROP INDEX "public"."credit_ledger_entries_user_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."credit_ledger_entries_generation_idx"`);
    await queryRunner.query(`DROP TABLE "credit_ledger_entries"`);
    await queryRunner.query(`DROP TABLE "credit_accounts"`);
  }
}
