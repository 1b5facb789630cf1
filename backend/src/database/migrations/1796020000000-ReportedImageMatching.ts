import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * "Report an image" that finds the right picture, or asks: each result's picture signature (its
 * own table, filled as results are stored and by the signature sweep for older ones), and on a
 * report the copy kept privately and the candidates it looked like.
 */
export class ReportedImageMatching1796020000000 implements MigrationInterface {
  name = 'ReportedImageMatching1796020000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "result_signatures" ("generation_id" uuid NOT NULL, "version" smallint NOT NULL, "signature" bytea NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_b7c3321bf3d26fef4f65c0e3a2a" PRIMARY KEY ("generation_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "result_signatures" ADD CONSTRAINT "result_signatures_generation_id_fkey" FOREIGN KEY ("generation_id") REFERENCES "user_generations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(`ALTER TABLE "support_inquiries" ADD "image_candidates" jsonb`);
    await queryRunner.query(`ALTER TABLE "support_inquiries" ADD "reported_image_key" character varying(200)`);
    await queryRunner.query(`ALTER TABLE "support_inquiries" ADD "reported_image_deleted_at" TIMESTAMP WITH TIME ZONE`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "support_inquiries" DROP COLUMN "reported_image_deleted_at"`);
    await queryRunner.query(`ALTER TABLE "support_inquiries" DROP COLUMN "reported_image_key"`);
    await queryRunner.query(`ALTER TABLE "support_inquiries" DROP COLUMN "image_candidates"`);
    await queryRunner.query(`ALTER TABLE "result_signatures" DROP CONSTRAINT "result_signatures_generation_id_fkey"`);
    await queryRunner.query(`DROP TABLE "result_signatures"`);
  }
}
