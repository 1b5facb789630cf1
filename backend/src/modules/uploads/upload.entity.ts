import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { UserEntity } from '../users/user.entity';

/**
 * A photo a user uploaded: a clean re-encoded JPEG kept privately at `storage_key`
 * (`users/<user id>/uploads/<id>.jpg`). `last_used_at` moves when a generation uses it, so that
 * photos unused for 30 days can be swept. Deleted with the account (ON DELETE CASCADE).
 */
@Entity({ name: 'uploads' })
@Index('uploads_user_id_created_at_idx', ['userId', 'createdAt'])
export class UploadEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'user_id' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'uploads_user_id_fkey' })
  user?: UserEntity;

  @Column({ name: 'storage_key', type: 'varchar', length: 512 })
  storageKey: string;

  @Column({ type: 'integer' })
  width: number;

  @Column({ type: 'integer' })
  height: number;

  /** the stored copy's size */
  @Column({ name: 'size_bytes', type: 'integer' })
  sizeBytes: number;

  /** what the upload weighed as received: the quotas count this */
  @Column({ name: 'received_bytes', type: 'integer' })
  receivedBytes: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Index('uploads_last_used_at_idx')
  @Column({ name: 'last_used_at', type: 'timestamptz', default: () => 'now()' })
  lastUsedAt: Date;
}
