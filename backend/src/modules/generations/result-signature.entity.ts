import { Column, CreateDateColumn, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { GenerationEntity } from './generation.entity';

/**
 * The picture signature of a completed generation's result (rendering/result-signature.ts): what
 * "Report an image" compares a reported copy with. A table of its own, so the hot reads of
 * user_generations never carry its 2-3 kB; it goes with its generation (CASCADE).
 */
@Entity({ name: 'result_signatures' })
export class ResultSignatureEntity {
  @PrimaryColumn({ name: 'generation_id', type: 'uuid' })
  generationId: string;

  @OneToOne(() => GenerationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'generation_id', foreignKeyConstraintName: 'result_signatures_generation_id_fkey' })
  generation?: GenerationEntity;

  /** SIGNATURE_VERSION of the bytes: an older one is computed again by the signature sweep */
  @Column({ type: 'smallint' })
  version: number;

  @Column({ type: 'bytea' })
  signature: Buffer;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
