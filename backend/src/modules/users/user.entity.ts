import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export enum UserRole {
  User = 'user',
  Support = 'support',
  Admin = 'admin',
}

/** An account. Emails are stored lower-cased; the Accounts issue adds sign-in fields around it. */
@Entity({ name: 'users' })
@Check('users_role_check', `"role" IN ('user', 'support', 'admin')`)
export class UserEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('users_email_key', { unique: true })
  @Column({ type: 'varchar', length: 320 })
  email: string;

  @Column({ name: 'full_name', type: 'varchar', length: 200, default: '' })
  fullName: string;

  @Column({ name: 'password_hash', type: 'varchar', length: 255, nullable: true })
  passwordHash: string | null;

  @Column({ type: 'varchar', length: 16, default: UserRole.User })
  role: UserRole;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
