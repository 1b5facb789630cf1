import { MigrationInterface, QueryRunner } from 'typeorm';

export class ReportImageMatch1795469988359 implements MigrationInterface {
  name = 'ReportImageMatch1795469988359';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "support_inquiries" ADD "image_match" character varying(16)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "support_inquiries" DROP COLUMN "image_match"`);
  }
}
