import { MigrationInterface, QueryRunner } from 'typeorm';

export class Accounts1795274586146 implements MigrationInterface {
  name = 'Accounts1795274586146';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "analytics_events" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid, "event" character varying(64) NOT NULL, "properties" jsonb NOT NULL DEFAULT '{}', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_5d643d67a09b55653e98616f421" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "analytics_events_user_id_idx" ON "analytics_events"  ("user_id") `);
    await queryRunner.query(`CREATE INDEX "analytics_events_event_created_at_idx" ON "analytics_events"  ("event", "created_at") `);
    await queryRunner.query(
      `CREATE TABLE "user_activity_logs" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "activity_type" character varying(64) NOT NULL, "metadata" jsonb NOT NULL DEFAULT '{}', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_8cba6ba151a9dda40181f99386a" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "user_activity_logs_user_id_created_at_idx" ON "user_activity_logs"  ("user_id", "created_at") `);
    await queryRunner.query(
      `CREATE TABLE "sessions" ("id" uuid NOT NULL, "user_id" uuid NOT NULL, "token_hash" character varying(64) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "last_used_at" TIMESTAMP WITH TIME ZONE, "revoked_at" TIMESTAMP WITH TIME ZONE, "revoke_reason" character varying(32), "user_agent" character varying(512), "ip" character varying(64), CONSTRAINT "PK_3238ef96f18b355b671619111bc" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "sessions_user_id_idx" ON "sessions"  ("user_id") `);
    await queryRunner.query(
      `CREATE TABLE "user_settings" ("user_id" uuid NOT NULL, "email_notifications" boolean NOT NULL DEFAULT true, "generation_notifications" boolean NOT NULL DEFAULT true, "marketing_emails" boolean NOT NULL DEFAULT false, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_4ed056b9344e6f7d8d46ec4b302" PRIMARY KEY ("user_id"))`,
    );
    await queryRunner.query(`ALTER TABLE "users" ADD "tier" character varying(16) NOT NULL DEFAULT 'free'`);
    await queryRunner.query(`ALTER TABLE "users" ADD "age_confirmed_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "users" ADD "google_sub" character varying(255)`);
    await queryRunner.query(`ALTER TABLE "users" ADD "last_sign_in_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`CREATE UNIQUE INDEX "users_google_sub_key" ON "users"  ("google_sub") `);
    await queryRunner.query(
      `ALTER TABLE "users" ADD CONSTRAINT "users_tier_check" CHECK ("tier" IN ('free', 'starter', 'glow_up', 'model_mode'))`,
    );
    await queryRunner.query(
      `ALTER TABLE "analytics_events" ADD CONSTRAINT "analytics_events_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "user_activity_logs" ADD CONSTRAINT "user_activity_logs_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "user_settings" ADD CONSTRAINT "user_settings_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "user_settings" DROP CONSTRAINT "user_settings_user_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "sessions" DROP CONSTRAINT "sessions_user_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "user_activity_logs" DROP CONSTRAINT "user_activity_logs_user_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "analytics_events" DROP CONSTRAINT "analytics_events_user_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "users" DROP CONSTRAINT "users_tier_check"`);
    await queryRunner.query(`DROP INDEX "public"."users_google_sub_key"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "last_sign_in_at"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "google_sub"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "age_confirmed_at"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "tier"`);
    await queryRunner.query(`DROP TABLE "user_settings"`);
    await queryRunner.query(`DROP INDEX "public"."sessions_user_id_idx"`);
    await queryRunner.query(`DROP TABLE "sessions"`);
    await queryRunner.query(`DROP INDEX "public"."user_activity_logs_user_id_created_at_idx"`);
    await queryRunner.query(`DROP TABLE "user_activity_logs"`);
    await queryRunner.query(`DROP INDEX "public"."analytics_events_event_created_at_idx"`);
    await queryRunner.query(`DROP INDEX "public"."analytics_events_user_id_idx"`);
    await queryRunner.query(`DROP TABLE "analytics_events"`);
  }
}
