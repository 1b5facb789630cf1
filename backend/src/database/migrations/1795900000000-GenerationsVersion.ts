import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `users.generations_version`: bumped by the database whenever a row of the account's gallery
 * (its completed generations) appears, changes or goes, whatever wrote it (the worker, a deletion,
 * the console, a purge). The session check reads it with the account, so an API process can keep a
 * page of the gallery it built and know, on the next request, whether it still holds.
 */
export class GenerationsVersion1795900000000 implements MigrationInterface {
  name = 'GenerationsVersion1795900000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" ADD "generations_version" bigint NOT NULL DEFAULT '0'`);
    await queryRunner.query(`
      CREATE FUNCTION user_generations_bump_version() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP <> 'INSERT' AND OLD.status = 'completed' THEN
          UPDATE users SET generations_version = generations_version + 1 WHERE id = OLD.user_id;
        END IF;
        IF TG_OP <> 'DELETE' AND NEW.status = 'completed' AND (TG_OP = 'INSERT' OR OLD.user_id <> NEW.user_id OR OLD.status <> 'completed') THEN
          UPDATE users SET generations_version = generations_version + 1 WHERE id = NEW.user_id;
        END IF;
        RETURN NULL;
      END $$`);
    await queryRunner.query(
      `CREATE TRIGGER user_generations_bump_version AFTER INSERT OR UPDATE OR DELETE ON user_generations FOR EACH ROW EXECUTE FUNCTION user_generations_bump_version()`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER IF EXISTS user_generations_bump_version ON user_generations`);
    await queryRunner.query(`DROP FUNCTION IF EXISTS user_generations_bump_version()`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "generations_version"`);
  }
}
