import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Not, Repository } from 'typeorm';
import { hashPassword } from '../../common/security/password';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { ProfileResponseDto } from './dto/profile-response.dto';
import { type CreditBalance, CreditsService } from '../credits/credits.service';
import { UserEntity, UserRole, UserTier } from './user.entity';

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}

export interface NewAccount {
  email: string;
  fullName: string;
  passwordHash: string | null;
  ageConfirmedAt: Date | null;
  googleSub?: string | null;
}

/** The profile; `credits` is the available balance from the credit ledger, `credit_balance` its parts. */
export function toProfile(user: UserEntity, balance: CreditBalance): ProfileResponseDto {
  return {
    id: user.id,
    email: user.email,
    full_name: user.fullName,
    tier: user.tier,
    credits: balance.available,
    credit_balance: { subscription: balance.subscription, purchased: balance.purchased, held: balance.held },
    role: user.role,
    age_confirmed: user.ageConfirmedAt !== null,
    created_at: user.createdAt.toISOString(),
  };
}

@Injectable()
export class UsersService {
  constructor(
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly credits: CreditsService,
  ) {}

  findByEmail(email: string): Promise<UserEntity | null> {
    return this.users.findOne({ where: { email: normalizeEmail(email) } });
  }

  findById(id: string): Promise<UserEntity | null> {
    return this.users.findOne({ where: { id } });
  }

  /** The profile of an existing user (a missing one answers 404 "No rows found."). */
  async getProfile(id: string): Promise<ProfileResponseDto> {
    return this.profileOf(await this.users.findOneOrFail({ where: { id } }));
  }

  /** The profile of a user already loaded, with the available balance from the ledger. */
  async profileOf(user: UserEntity): Promise<ProfileResponseDto> {
    return toProfile(user, await this.credits.getBalance(user.id));
  }

  findByGoogleSub(sub: string): Promise<UserEntity | null> {
    return this.users.findOne({ where: { googleSub: sub } });
  }

  countAdmins(): Promise<number> {
    return this.users.count({ where: { role: UserRole.Admin } });
  }

  /** Whether ADMIN_EMAILS lists this email. */
  isListedAdmin(email: string): boolean {
    return this.config.auth.adminEmails.includes(normalizeEmail(email));
  }

  /**
   * A new account on the free tier with the free plan's monthly credits (its credit account is
   * opened in the same transaction); an admin when ADMIN_EMAILS lists its email. A duplicate email
   * fails with PostgreSQL's unique violation (23505).
   */
  createAccount(account: NewAccount): Promise<UserEntity> {
    const email = normalizeEmail(account.email);
    const user = this.users.create({
      email,
      fullName: account.fullName,
      passwordHash: account.passwordHash,
      ageConfirmedAt: account.ageConfirmedAt,
      googleSub: account.googleSub ?? null,
      role: this.isListedAdmin(email) ? UserRole.Admin : UserRole.User,
      adminFromList: this.isListedAdmin(email),
      tier: UserTier.Free,
    });
    return this.saveNewUser(user);
  }

  private saveNewUser(user: UserEntity): Promise<UserEntity> {
    return this.users.manager.transaction(async (m) => {
      const saved = await m.save(user);
      await this.credits.openAccount(saved.id, saved.tier, m);
      return saved;
    });
  }

  /** Marks a sign-in; promotes the account when ADMIN_EMAILS lists it. Returns the updated user. */
  async recordSignIn(user: UserEntity, changes: { googleSub?: string } = {}): Promise<UserEntity> {
    const patch: Partial<UserEntity> = { lastSignInAt: new Date() };
    if (changes.googleSub) patch.googleSub = changes.googleSub;
    if (user.role !== UserRole.Admin && this.isListedAdmin(user.email)) Object.assign(patch, { role: UserRole.Admin, adminFromList: true });
    await this.users.update({ id: user.id }, patch);
    return Object.assign(user, patch);
  }

  /** At boot: every existing account whose email ADMIN_EMAILS lists becomes an admin. Returns how many changed. */
  async promoteListedAdmins(): Promise<number> {
    const emails = this.config.auth.adminEmails;
    if (emails.length === 0) return 0;
    const result = await this.users.update({ email: In(emails), role: Not(UserRole.Admin) }, { role: UserRole.Admin, adminFromList: true });
    return result.affected ?? 0;
  }

  /**
   * At boot: admins that ADMIN_EMAILS made and no longer lists become plain users again (at once:
   * the guard reads the role from the database on every request). Admins made by
   * `npm run admin:create` are left alone. Returns the emails demoted.
   */
  async demoteUnlistedAdmins(): Promise<string[]> {
    // an UPDATE ... RETURNING answers [rows, affected count] on PostgreSQL
    const [rows]: [{ email: string }[], number] = await this.users.query(
      `UPDATE users SET role = $1, admin_from_list = false, updated_at = now()
        WHERE admin_from_list AND role = $2 AND NOT (email = ANY($3::text[])) RETURNING email`,
      [UserRole.User, UserRole.Admin, this.config.auth.adminEmails],
    );
    return rows.map((r) => r.email);
  }

  /** Changes the editable parts of the profile; answers the fields that changed. */
  async updateProfile(id: string, changes: { fullName?: string; ageConfirmed?: boolean }): Promise<{ profile: ProfileResponseDto; changed: string[] }> {
    const user = await this.users.findOneOrFail({ where: { id } });
    const changed: string[] = [];
    if (changes.fullName !== undefined && changes.fullName !== user.fullName) {
      user.fullName = changes.fullName;
      changed.push('full_name');
    }
    if (changes.ageConfirmed && user.ageConfirmedAt === null) {
      user.ageConfirmedAt = new Date();
      changed.push('age_confirmed');
    }
    const saved = changed.length ? await this.users.save(user) : user;
    return { profile: await this.profileOf(saved), changed };
  }

  /** Creates the admin, or promotes and resets the password of an existing account with that email. */
  async upsertAdmin(email: string, password: string, fullName = 'Administrator'): Promise<{ user: UserEntity; created: boolean }> {
    const normalized = normalizeEmail(email);
    const passwordHash = await hashPassword(password);
    const existing = await this.findByEmail(normalized);
    if (existing) {
      existing.role = UserRole.Admin;
      existing.adminFromList = false;
      existing.passwordHash = passwordHash;
      return { user: await this.users.save(existing), created: false };
    }
    const user = this.users.create({ email: normalized, fullName, passwordHash, role: UserRole.Admin, tier: UserTier.Free });
    return { user: await this.saveNewUser(user), created: true };
  }
}
