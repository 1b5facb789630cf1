import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `sessions.refresh_count`: how many times the session's refresh token was replaced. A refresh
 * token carries its number and a MAC of it, so any token the session replaced, not only the last
 * one, is recognised when it comes back (a stolen token refreshed twice by the thief before its
 * owner returns): the session then ends.
 */
export class SessionRefreshCount1795950000000 implements MigrationInterface {
  name = 'SessionRefreshCount1795950000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sessions" ADD "refresh_count" integer NOT NULL DEFAULT '0'`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sessions" DROP COLUMN "refresh_count"`);
  }
}
