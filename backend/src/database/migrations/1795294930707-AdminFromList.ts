import { MigrationInterface, QueryRunner } from 'typeorm';

export class AdminFromList1795294930707 implements MigrationInterface {
  name = 'AdminFromList1795294930707';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" ADD "admin_from_list" boolean NOT NULL DEFAULT false`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "admin_from_list"`);
  }
}
