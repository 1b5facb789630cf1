import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  OneToOne,
  PrimaryColumn,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { GenerationEntity } from '../generations/generation.entity';
import { UploadEntity } from '../uploads/upload.entity';
import { UserEntity } from '../users/user.entity';

/**
 * The person's consent to the face checks (biometric data): when, and which wording they agreed to
 * (FACE_CONSENT_VERSION). One row per account, deleted with it.
 */
@Entity({ name: 'face_consents' })
export class FaceConsentEntity {
  @PrimaryColumn('uuid', { name: 'user_id' })
  userId: string;

  @OneToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'face_consents_user_id_fkey' })
  user?: UserEntity;

  @Column({ type: 'text' })
  version: string;

  @CreateDateColumn({ name: 'consented_at', type: 'timestamptz' })
  consentedAt: Date;
}

/**
 * The face found in an uploaded photo: its descriptor (128 numbers, biometric data), computed on our
 * servers, never sent anywhere, and deleted with the photo (ON DELETE CASCADE from `uploads`: the
 * person's delete, the retention sweep, a takedown, an address taken over, the account's deletion).
 * `verified_at`: the person's live selfie matched this photo.
 */
@Entity({ name: 'upload_faces' })
@Check('upload_faces_descriptor_check', 'cardinality("descriptor") = 128')
@Index('upload_faces_user_id_idx', ['userId'])
export class UploadFaceEntity {
  @PrimaryColumn('uuid', { name: 'upload_id' })
  uploadId: string;

  @OneToOne(() => UploadEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'upload_id', foreignKeyConstraintName: 'upload_faces_upload_id_fkey' })
  upload?: UploadEntity;

  @Column('uuid', { name: 'user_id' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'upload_faces_user_id_fkey' })
  user?: UserEntity;

  @Column({ type: 'real', array: true })
  descriptor: number[];

  /** the face's width in the stored photo's pixels, and the detector's score */
  @Column({ name: 'face_width', type: 'integer' })
  faceWidth: number;

  @Column({ type: 'real' })
  score: number;

  @Column({ name: 'verified_at', type: 'timestamptz', nullable: true })
  verifiedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}

/** A live selfie's challenge: the head turn asked, valid for a few minutes, used once. */
@Entity({ name: 'face_challenges' })
@Check('face_challenges_direction_check', `"direction" IN ('left', 'right')`)
@Index('face_challenges_user_id_idx', ['userId'])
export class FaceChallengeEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'user_id' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'face_challenges_user_id_fkey' })
  user?: UserEntity;

  @Column({ type: 'text' })
  direction: 'left' | 'right';

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt: Date | null;
}

/**
 * What a face check decided about an account, for the console: a live selfie (verified, or refused:
 * another person, a still picture, no face) and photos refused for not matching the verified face.
 * No picture and no descriptor: the outcome, the distance, when.
 */
@Entity({ name: 'face_check_events' })
@Check('face_check_events_kind_check', `"kind" IN ('selfie', 'photo')`)
@Index('face_check_events_user_created_idx', ['userId', 'createdAt'])
export class FaceCheckEventEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'user_id' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'face_check_events_user_id_fkey' })
  user?: UserEntity;

  /** `selfie` (the live check) or `photo` (a photo refused for a category that needs the verified face) */
  @Column({ type: 'text' })
  kind: 'selfie' | 'photo';

  /** `verified`, or why it was refused: `mismatch`, `still`, `no_face`, `several_faces` */
  @Column({ type: 'text' })
  outcome: string;

  /** the distance to the person's photos (or verified face) when one was measured */
  @Column({ type: 'real', nullable: true })
  distance: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}

/**
 * The likeness guard's figure of a generation: the distance of the result's face to the person's
 * photos (smaller is closer), each try's, and what it decided. Shown to admins.
 */
@Entity({ name: 'generation_likeness' })
@Check('generation_likeness_outcome_check', `"outcome" IN ('passed', 'retried', 'failed', 'no_face')`)
export class GenerationLikenessEntity {
  @PrimaryColumn('uuid', { name: 'generation_id' })
  generationId: string;

  @OneToOne(() => GenerationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'generation_id', foreignKeyConstraintName: 'generation_likeness_generation_id_fkey' })
  generation?: GenerationEntity;

  /** the last try's distance; null when the result showed no face */
  @Column({ type: 'real', nullable: true })
  distance: number | null;

  /** every try's distance, in order (null: no face) */
  @Column({ type: 'jsonb', default: () => `'[]'` })
  tries: (number | null)[];

  @Column({ type: 'text' })
  outcome: 'passed' | 'retried' | 'failed' | 'no_face';

  @Column({ type: 'real' })
  threshold: number;

  @CreateDateColumn({ name: 'checked_at', type: 'timestamptz' })
  checkedAt: Date;
}
