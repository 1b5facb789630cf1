import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from '../../users/user.entity';

/** One of the ten single-use recovery codes of an account with two-factor on; only a hash is kept. */
@Entity({ name: 'auth_recovery_codes' })
export class RecoveryCodeEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('auth_recovery_codes_user_idx')
  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'auth_recovery_codes_user_id_fkey' })
  user?: UserEntity;

  /** hex HMAC-SHA256 of the normalised code */
  @Column({ name: 'code_hash', type: 'varchar', length: 64 })
  codeHash: string;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
