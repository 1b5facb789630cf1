import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When a session's refresh token was last replaced: the token it replaced still works for
 * AUTH_REFRESH_REUSE_GRACE_SECONDS after that (a refresh whose answer was lost), then counts as a
 * stolen copy.
 */
export class SessionRotatedAt1796030000000 implements MigrationInterface {
  name = 'SessionRotatedAt1796030000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sessions" ADD "rotated_at" TIMESTAMP WITH TIME ZONE`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sessions" DROP COLUMN "rotated_at"`);
  }
}
