import { MigrationInterface, QueryRunner } from 'typeorm';
import { insertMissingSeed } from '../../modules/catalog/store/catalog-seed';

/**
 * The catalogue moves into the database: catalog_templates, catalog_scenes (seeded from the typed
 * data, which every start tops up with new seed rows without overwriting edits) and the one-row
 * catalog_version that every process checks to reload its in-memory copy.
 */
export class Catalogue1795480000000 implements MigrationInterface {
  name = 'Catalogue1795480000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "catalog_templates" ("id" character varying(64) NOT NULL, "category" character varying(32) NOT NULL, "name" character varying(80) NOT NULL, "description" character varying(300) NOT NULL, "prompt_description" character varying(300) NOT NULL, "required_tier" character varying(32) NOT NULL, "sort_order" integer NOT NULL, "enabled" boolean NOT NULL DEFAULT true, "shop_url" character varying(2000), "garment_key" character varying(512), "artwork" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_65f6776364502c42999527fabcc" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "catalog_scenes" ("id" character varying(64) NOT NULL, "name" character varying(80) NOT NULL, "description" character varying(300) NOT NULL, "prompt_description" character varying(300) NOT NULL, "required_tier" character varying(32) NOT NULL, "credit_cost" integer NOT NULL, "sort_order" integer NOT NULL, "enabled" boolean NOT NULL DEFAULT true, "reference_key" character varying(512), "artwork" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_d2f3594fdc1c57a8ed9065fd1d5" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "catalog_version" ("id" integer NOT NULL, "version" bigint NOT NULL, CONSTRAINT "PK_cf6a6b67bfbe27014f0eb4214d8" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`INSERT INTO "catalog_version" ("id", "version") VALUES (1, 1)`);
    await insertMissingSeed((sql, params) => queryRunner.query(sql, params));
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "catalog_version"`);
    await queryRunner.query(`DROP TABLE "catalog_scenes"`);
    await queryRunner.query(`DROP TABLE "catalog_templates"`);
  }
}
