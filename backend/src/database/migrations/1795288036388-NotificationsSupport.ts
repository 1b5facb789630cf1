import { MigrationInterface, QueryRunner } from 'typeorm';

export class NotificationsSupport1795288036388 implements MigrationInterface {
  name = 'NotificationsSupport1795288036388';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "system_notifications" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "type" character varying(64) NOT NULL, "title" character varying(200) NOT NULL, "message" text NOT NULL, "severity" character varying(16) NOT NULL DEFAULT 'info', "read" boolean NOT NULL DEFAULT false, "read_by" uuid, "read_at" TIMESTAMP WITH TIME ZONE, "dedupe_key" character varying(200), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "system_notifications_severity_check" CHECK ("severity" IN ('info', 'warning', 'critical')), CONSTRAINT "PK_2251866d2c48c1ff710e9fd444d" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "system_notifications_dedupe_idx" ON "system_notifications"  ("dedupe_key", "created_at") WHERE "dedupe_key" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "system_notifications_unread_idx" ON "system_notifications"  ("created_at") WHERE "read" = false`,
    );
    await queryRunner.query(`CREATE INDEX "system_notifications_created_at_idx" ON "system_notifications"  ("created_at") `);
    await queryRunner.query(
      `CREATE TABLE "support_inquiries" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "status" character varying(16) NOT NULL DEFAULT 'open', "priority" character varying(16) NOT NULL DEFAULT 'normal', "kind" character varying(16) NOT NULL DEFAULT 'question', "subject" character varying(200) NOT NULL, "message" text NOT NULL, "name" character varying(100) NOT NULL, "email" character varying(320) NOT NULL, "user_id" uuid, "generation_id" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "resolved_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "support_inquiries_kind_check" CHECK ("kind" IN ('question', 'billing', 'abuse_report')), CONSTRAINT "support_inquiries_priority_check" CHECK ("priority" IN ('low', 'normal', 'high', 'urgent')), CONSTRAINT "support_inquiries_status_check" CHECK ("status" IN ('open', 'in_progress', 'resolved', 'closed')), CONSTRAINT "PK_a485241237e1af3d19bc99fe616" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "support_inquiries_status_created_idx" ON "support_inquiries"  ("status", "created_at") `);
    await queryRunner.query(`CREATE INDEX "support_inquiries_created_at_idx" ON "support_inquiries"  ("created_at") `);
    await queryRunner.query(
      `CREATE TABLE "support_messages" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "inquiry_id" uuid NOT NULL, "kind" character varying(8) NOT NULL, "body" text NOT NULL, "author_id" uuid, "delivered" character varying(16), "delivery_error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "support_messages_delivered_check" CHECK ("delivered" IS NULL OR "delivered" IN ('queued', 'sent', 'logged', 'failed')), CONSTRAINT "support_messages_kind_check" CHECK ("kind" IN ('reply', 'note')), CONSTRAINT "PK_2aa37479e71ef29cbf4dba2b1a2" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "support_messages_inquiry_idx" ON "support_messages"  ("inquiry_id", "created_at") `);
    await queryRunner.query(
      `ALTER TABLE "system_notifications" ADD CONSTRAINT "system_notifications_read_by_fkey" FOREIGN KEY ("read_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "support_inquiries" ADD CONSTRAINT "support_inquiries_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "support_messages" ADD CONSTRAINT "support_messages_inquiry_id_fkey" FOREIGN KEY ("inquiry_id") REFERENCES "support_inquiries"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "support_messages" ADD CONSTRAINT "support_messages_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "support_messages" DROP CONSTRAINT "support_messages_author_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "support_messages" DROP CONSTRAINT "support_messages_inquiry_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "support_inquiries" DROP CONSTRAINT "support_inquiries_user_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "system_notifications" DROP CONSTRAINT "system_notifications_read_by_fkey"`);
    await queryRunner.query(`DROP INDEX "public"."support_messages_inquiry_idx"`);
    await queryRunner.query(`DROP TABLE "support_messages"`);
    await queryRunner.query(`DROP INDEX "public"."support_inquiries_created_at_idx"`);
    await queryRunner.query(`DROP INDEX "public"."support_inquiries_status_created_idx"`);
    await queryRunner.query(`DROP TABLE "support_inquiries"`);
    await queryRunner.query(`DROP INDEX "public"."system_notifications_created_at_idx"`);
    await queryRunner.query(`DROP INDEX "public"."system_notifications_unread_idx"`);
    await queryRunner.query(`DROP INDEX "public"."system_notifications_dedupe_idx"`);
    await queryRunner.query(`DROP TABLE "system_notifications"`);
  }
}
