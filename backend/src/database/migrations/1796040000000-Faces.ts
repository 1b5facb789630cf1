import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 33 "Only you": the face found in each photo (its descriptor, deleted with the photo), the
 * consent to the face checks, the live selfie's challenges and the checks' outcomes, and the
 * likeness figure of each generation. Every row goes with its account, photo or generation.
 */
export class Faces1796040000000 implements MigrationInterface {
  name = 'Faces1796040000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "face_consents" ("user_id" uuid NOT NULL, "version" text NOT NULL, "consented_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_dedb8093a02c95c851d364c51fa" PRIMARY KEY ("user_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "upload_faces" ("upload_id" uuid NOT NULL, "user_id" uuid NOT NULL, "descriptor" real array NOT NULL, "face_width" integer NOT NULL, "score" real NOT NULL, "verified_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "upload_faces_descriptor_check" CHECK (cardinality("descriptor") = 128), CONSTRAINT "PK_6b8248c5786d0490022231122b7" PRIMARY KEY ("upload_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "upload_faces_user_id_idx" ON "upload_faces"  ("user_id") `);
    await queryRunner.query(
      `CREATE TABLE "face_challenges" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "direction" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "face_challenges_direction_check" CHECK ("direction" IN ('left', 'right')), CONSTRAINT "PK_06b058fd58e6fddecd26480312c" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "face_challenges_user_id_idx" ON "face_challenges"  ("user_id") `);
    await queryRunner.query(
      `CREATE TABLE "face_check_events" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "kind" text NOT NULL, "outcome" text NOT NULL, "distance" real, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "face_check_events_kind_check" CHECK ("kind" IN ('selfie', 'photo')), CONSTRAINT "PK_0c20350c14f9016c38b2a736aad" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "face_check_events_user_created_idx" ON "face_check_events"  ("user_id", "created_at") `);
    await queryRunner.query(
      `CREATE TABLE "generation_likeness" ("generation_id" uuid NOT NULL, "distance" real, "tries" jsonb NOT NULL DEFAULT '[]', "outcome" text NOT NULL, "threshold" real NOT NULL, "checked_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "generation_likeness_outcome_check" CHECK ("outcome" IN ('passed', 'retried', 'failed', 'no_face')), CONSTRAINT "PK_4f9efca0b0891f6bdcd33c1c580" PRIMARY KEY ("generation_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "face_consents" ADD CONSTRAINT "face_consents_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "upload_faces" ADD CONSTRAINT "upload_faces_upload_id_fkey" FOREIGN KEY ("upload_id") REFERENCES "uploads"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "upload_faces" ADD CONSTRAINT "upload_faces_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "face_challenges" ADD CONSTRAINT "face_challenges_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "face_check_events" ADD CONSTRAINT "face_check_events_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "generation_likeness" ADD CONSTRAINT "generation_likeness_generation_id_fkey" FOREIGN KEY ("generation_id") REFERENCES "user_generations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "generation_likeness" DROP CONSTRAINT "generation_likeness_generation_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "face_check_events" DROP CONSTRAINT "face_check_events_user_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "face_challenges" DROP CONSTRAINT "face_challenges_user_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "upload_faces" DROP CONSTRAINT "upload_faces_user_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "upload_faces" DROP CONSTRAINT "upload_faces_upload_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "face_consents" DROP CONSTRAINT "face_consents_user_id_fkey"`);
    await queryRunner.query(`DROP TABLE "generation_likeness"`);
    await queryRunner.query(`DROP INDEX "public"."face_check_events_user_created_idx"`);
    await queryRunner.query(`DROP TABLE "face_check_events"`);
    await queryRunner.query(`DROP INDEX "public"."face_challenges_user_id_idx"`);
    await queryRunner.query(`DROP TABLE "face_challenges"`);
    await queryRunner.query(`DROP INDEX "public"."upload_faces_user_id_idx"`);
    await queryRunner.query(`DROP TABLE "upload_faces"`);
    await queryRunner.query(`DROP TABLE "face_consents"`);
  }
}
