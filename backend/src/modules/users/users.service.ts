import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { hashPassword } from '../../common/security/password';
import { UserEntity, UserRole } from './user.entity';

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}

@Injectable()
export class UsersService {
  constructor(@InjectRepository(UserEntity) private readonly users: Repository<UserEntity>) {}

  findByEmail(email: string): Promise<UserEntity | null> {
    return this.users.findOne({ where: { email: normalizeEmail(email) } });
  }

  countAdmins(): Promise<number> {
    return this.users.count({ where: { role: UserRole.Admin } });
  }

  /** Creates the admin, or promotes and resets the password of an existing account with that email. */
  async upsertAdmin(email: string, password: string, fullName = 'Administrator'): Promise<{ user: UserEntity; created: boolean }> {
    const normalized = normalizeEmail(email);
    const passwordHash = await hashPassword(password);
    const existing = await this.findByEmail(normalized);
    if (existing) {
      existing.role = UserRole.Admin;
      existing.passwordHash = passwordHash;
      return { user: await this.users.save(existing), created: false };
    }
    const user = this.users.create({ email: normalized, fullName, passwordHash, role: UserRole.Admin });
    return { user: await this.users.save(user), created: true };
  }
}
