import { MigrationInterface, QueryRunner } from 'typeorm';

export class ResultPhash1795468441775 implements MigrationInterface {
  name = 'ResultPhash1795468441775';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "user_generations" ADD "result_phash" bigint`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "user_generations" DROP COLUMN "result_phash"`);
  }
}
