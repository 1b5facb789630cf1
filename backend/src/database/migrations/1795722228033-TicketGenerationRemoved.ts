import { MigrationInterface, QueryRunner } from 'typeorm';

export class TicketGenerationRemoved1795722228033 implements MigrationInterface {
  name = 'TicketGenerationRemoved1795722228033';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "support_inquiries" ADD "generation_removed_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "support_inquiries" ADD "generation_removed_by" uuid`);
    await queryRunner.query(
      `ALTER TABLE "support_inquiries" ADD CONSTRAINT "support_inquiries_generation_removed_by_fkey" FOREIGN KEY ("generation_removed_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "support_inquiries" DROP CONSTRAINT "support_inquiries_generation_removed_by_fkey"`);
    await queryRunner.query(`ALTER TABLE "support_inquiries" DROP COLUMN "generation_removed_by"`);
    await queryRunner.query(`ALTER TABLE "support_inquiries" DROP COLUMN "generation_removed_at"`);
  }
}
