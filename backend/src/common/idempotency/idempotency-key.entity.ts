import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { UserEntity } from '../../modules/users/user.entity';

/**
 * A request made with an `Idempotency-Key` (POST /api/generations, POST /api/uploads): the key is
 * the account's own, kept 24 hours with what was asked (`route`, `request_hash`) and, once answered
 * with a success, the answer (`status_code`, `response`), which a retry with the same key and body
 * gets again. While `status_code` is null the first request is still being answered.
 */
@Entity({ name: 'idempotency_keys' })
@Index('idempotency_keys_created_at_idx', ['createdAt'])
export class IdempotencyKeyEntity {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'idempotency_keys_user_id_fkey' })
  user?: UserEntity;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  key: string;

  /** `POST /api/generations`: a key belongs to one route */
  @Column({ type: 'varchar', length: 100 })
  route: string;

  /** hex SHA-256 of the request's body (JSON with its keys sorted; a multipart form's fields and each file's bytes) */
  @Column({ name: 'request_hash', type: 'varchar', length: 64 })
  requestHash: string;

  @Column({ name: 'status_code', type: 'smallint', nullable: true })
  statusCode: number | null;

  @Column({ type: 'jsonb', nullable: true })
  response: unknown;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
