import { MigrationInterface, QueryRunner } from 'typeorm';

/** A template's thumbnail uploaded in the console (public catalogue picture); null: the drawn artwork. */
export class TemplateThumbnail1795723345107 implements MigrationInterface {
  name = 'TemplateThumbnail1795723345107';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "catalog_templates" ADD "thumbnail_key" character varying(512)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "catalog_templates" DROP COLUMN "thumbnail_key"`);
  }
}
