import { MigrationInterface, QueryRunner } from 'typeorm';

export class SessionPreviousToken1795470523853 implements MigrationInterface {
  name = 'SessionPreviousToken1795470523853';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sessions" ADD "previous_token_hash" character varying(64)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sessions" DROP COLUMN "previous_token_hash"`);
  }
}
