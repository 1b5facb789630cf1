import { MigrationInterface, QueryRunner } from 'typeorm';

/** Upload quotas count the bytes received: each photo keeps what its upload weighed. */
export class UploadReceivedBytes1795472000000 implements MigrationInterface {
  name = 'UploadReceivedBytes1795472000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "uploads" ADD "received_bytes" integer`);
    await queryRunner.query(`UPDATE "uploads" SET "received_bytes" = "size_bytes"`);
    await queryRunner.query(`ALTER TABLE "uploads" ALTER COLUMN "received_bytes" SET NOT NULL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "uploads" DROP COLUMN "received_bytes"`);
  }
}
