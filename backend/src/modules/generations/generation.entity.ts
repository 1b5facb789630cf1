import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { TIERS, type Tier } from '../catalog/tiers';
import { UserEntity } from '../users/user.entity';

export enum GenerationStatus {
  Processing = 'processing',
  Completed = 'completed',
  Failed = 'failed',
}

/** Where a running generation is; each stage has the product's progress message (generation-progress.ts). */
export enum GenerationStage {
  Creating = 'creating',
  Starting = 'starting',
  Processing = 'processing',
  Polling = 'polling',
  Finalizing = 'finalizing',
  Complete = 'complete',
  Failed = 'failed',
}

export interface GenerationMetadata {
  outfit_id: string;
  /** a catalogue scene id, or `custom` */
  scene_id: string;
  /** storage key of the first photo (the one sent to the provider) */
  upload_path: string;
  upload_ids: string[];
  custom_pose?: string;
  /** the W3C traceparent of the request that started it, when tracing is on: the vendor's webhook links its trace to it */
  trace?: string;
}

/**
 * The product's user_generations, plus what the server needs to drive the work: the progress stage,
 * the provider's job id, the poll counter and claims that make every queue step run once
 * (see generation-worker.service.ts). At most one `processing` row per user (partial unique index).
 */
@Entity({ name: 'user_generations' })
@Check('user_generations_type_check', `"type" IN ('image', 'video')`)
@Check('user_generations_status_check', `"status" IN ('processing', 'completed', 'failed')`)
@Check('user_generations_cost_check', '"cost" > 0')
@Check('user_generations_tier_check', `"tier" IN (${TIERS.map((t) => `'${t}'`).join(', ')})`)
@Check(
  'user_generations_stage_check',
  `"stage" IN (${Object.values(GenerationStage)
    .map((s) => `'${s}'`)
    .join(', ')})`,
)
@Index('user_generations_one_running_per_user', ['userId'], { unique: true, where: `"status" = 'processing'` })
@Index('user_generations_user_status_created_idx', ['userId', 'status', 'createdAt'])
@Index('user_generations_provider_job_key', ['provider', 'providerJobId'], { unique: true, where: '"provider_job_id" IS NOT NULL' })
@Index('user_generations_running_updated_idx', ['updatedAt'], { where: `"status" = 'processing'` })
export class GenerationEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'user_id' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'user_generations_user_id_fkey' })
  user?: UserEntity;

  @Column({ type: 'text' })
  type: 'image' | 'video';

  @Column({ type: 'text', default: GenerationStatus.Processing })
  status: GenerationStatus;

  /** credits held at start, charged when the result is stored */
  @Column({ type: 'integer' })
  cost: number;

  @Column({ type: 'text' })
  category: string;

  @Column({ type: 'text' })
  prompt: string;

  @Column({ type: 'jsonb', default: () => `'{}'` })
  metadata: GenerationMetadata;

  /** the caller's tier at start: it decides the watermark */
  @Column({ type: 'text' })
  tier: Tier;

  @Column({ type: 'text', default: GenerationStage.Creating })
  stage: GenerationStage;

  /** the last poll step claimed (0 before the first) */
  @Column({ type: 'integer', default: 0 })
  polls: number;

  @Column({ name: 'max_polls', type: 'integer' })
  maxPolls: number;

  /** the queue job that claimed poll step `polls`: its retry may claim the step again, no other job */
  @Column({ name: 'poll_claim', type: 'text', nullable: true })
  pollClaim: string | null;

  @Column({ type: 'text' })
  provider: string;

  /** the vendor's id of the job: `text`, as long as the vendor makes it */
  @Column({ name: 'provider_job_id', type: 'text', nullable: true })
  providerJobId: string | null;

  /** set just before the provider's start is called; with no provider_job_id it means "start in doubt" */
  @Column({ name: 'submit_started_at', type: 'timestamptz', nullable: true })
  submitStartedAt: Date | null;

  /**
   * When the generation fails with the timeout unless the vendor has finished: its budget
   * (AI_IMAGE_DEADLINE_SECONDS or AI_VIDEO_DEADLINE_SECONDS) from the moment it was recorded, by the
   * database's clock. Null only on a row written without it (before the column existed, or by hand):
   * such a row's budget is counted from `created_at` with the current setting (generation-schedule.ts).
   */
  @Column({ name: 'deadline_at', type: 'timestamptz', nullable: true })
  deadlineAt: Date | null;

  /** calls of the provider's start (more than one only after a 429, which starts nothing) */
  @Column({ type: 'integer', default: 0 })
  attempts: number;

  /** why it failed: the product's "Generation failed", the vendor's refusal, the timeout, "Cancelled" */
  @Column({ type: 'text', nullable: true })
  error: string | null;

  /** storage key of the stored result: users/<user>/results/<id>.jpg or .mp4 */
  @Column({ name: 'result_key', type: 'text', nullable: true })
  resultKey: string | null;

  /** 64-bit perceptual hash of the stored result (a video's first frame): a reported copy is matched by it */
  @Column({ name: 'result_phash', type: 'bigint', nullable: true })
  resultPhash: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt: Date | null;
}
