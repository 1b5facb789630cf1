import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Readable ticket numbers (#1001, #1002...) from a sequence, the existing tickets numbered in the
 * order they came; and the person's own replies on a ticket (support_messages kind `customer`).
 */
export class TicketNumbers1796031000000 implements MigrationInterface {
  name = 'TicketNumbers1796031000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "support_inquiries" ADD "number" SERIAL NOT NULL`);
    await queryRunner.query(
      `UPDATE "support_inquiries" s SET "number" = 1000 + r.rn
         FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS rn FROM "support_inquiries") r WHERE r.id = s.id`,
    );
    await queryRunner.query(
      `SELECT setval('support_inquiries_number_seq', (SELECT coalesce(max("number"), 1000) FROM "support_inquiries"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "support_inquiries_number_key" ON "support_inquiries" ("number") `);
    await queryRunner.query(`ALTER TABLE "support_messages" DROP CONSTRAINT "support_messages_kind_check"`);
    await queryRunner.query(
      `ALTER TABLE "support_messages" ADD CONSTRAINT "support_messages_kind_check" CHECK ("kind" IN ('reply', 'note', 'customer'))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "support_messages" WHERE "kind" = 'customer'`);
    await queryRunner.query(`ALTER TABLE "support_messages" DROP CONSTRAINT "support_messages_kind_check"`);
    await queryRunner.query(
      `ALTER TABLE "support_messages" ADD CONSTRAINT "support_messages_kind_check" CHECK ("kind" IN ('reply', 'note'))`,
    );
    await queryRunner.query(`DROP INDEX "public"."support_inquiries_number_key"`);
    await queryRunner.query(`ALTER TABLE "support_inquiries" DROP COLUMN "number"`);
  }
}
