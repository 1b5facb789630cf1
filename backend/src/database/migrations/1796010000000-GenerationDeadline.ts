import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `user_generations.deadline_at`: the wall-clock deadline of a generation, set when it is recorded
 * (AI_IMAGE_DEADLINE_SECONDS or AI_VIDEO_DEADLINE_SECONDS from then), so that a change of setting
 * never moves a running generation's deadline and every process reads the same one. Rows that
 * exist already keep it null: a running one is then counted from its `created_at` with the
 * current setting (docs/generations.md "Time budgets").
 */
export class GenerationDeadline1796010000000 implements MigrationInterface {
  name = 'GenerationDeadline1796010000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "user_generations" ADD "deadline_at" TIMESTAMP WITH TIME ZONE`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "user_generations" DROP COLUMN "deadline_at"`);
  }
}
