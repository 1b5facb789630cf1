import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { type EntityManager, EntityNotFoundError } from 'typeorm';
import { hashPassword } from '../../common/security/password';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { type AccountRow } from '../credits/credits.repository';
import { type CreditBalance, CreditsService, toBalance } from '../credits/credits.service';
import { ProfileResponseDto } from './dto/profile-response.dto';
import { UserEntity, UserRole, UserTier } from './user.entity';
import { type ProfileRow, UsersRepository } from './users.repository';

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
  /** set when the address is already proven (Google said so) */
  emailVerifiedAt?: Date | null;
}

/** Unverified accounts an address may have at once; a newer sign-up removes the oldest. */
export const MAX_UNVERIFIED_PER_EMAIL = 3;

/** What a profile says of the account itself (a loaded entity or the profile's read model). */
type ProfileFacts = Omit<ProfileRow, 'subscription_balance' | 'purchased_balance' | 'held'>;

function profileFrom(facts: ProfileFacts, balance: CreditBalance): ProfileResponseDto {
  return {
    id: facts.id,
    email: facts.email,
    full_name: facts.full_name,
    tier: facts.tier,
    credits: balance.available,
    credit_balance: { subscription: balance.subscription, purchased: balance.purchased, held: balance.held },
    role: facts.role,
    age_confirmed: facts.age_confirmed,
    email_verified: facts.email_verified,
    two_factor_enabled: facts.two_factor_enabled,
    has_password: facts.has_password,
    created_at: new Date(facts.created_at).toISOString(),
  };
}

/** The profile; `credits` is the available balance from the credit ledger, `credit_balance` its parts. */
export function toProfile(user: UserEntity, balance: CreditBalance): ProfileResponseDto {
  return profileFrom(
    {
      id: user.id,
      email: user.email,
      full_name: user.fullName,
      tier: user.tier,
      role: user.role,
      age_confirmed: user.ageConfirmedAt !== null,
      email_verified: user.emailVerifiedAt !== null,
      two_factor_enabled: user.totpEnabledAt !== null,
      has_password: user.passwordHash !== null,
      created_at: user.createdAt,
    },
    balance,
  );
}

@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly credits: CreditsService,
  ) {}

  /** The account that owns an address: the one that verified it (at most one). */
  findVerifiedByEmail(email: string, manager?: EntityManager): Promise<UserEntity | null> {
    return this.users.findVerifiedByEmail(normalizeEmail(email), manager);
  }

  /** Accounts still waiting to prove the address, newest first. */
  findUnverifiedByEmail(email: string, manager?: EntityManager): Promise<UserEntity[]> {
    return this.users.findUnverifiedByEmail(normalizeEmail(email), manager);
  }

  /**
   * The accounts a password may sign in to for an address: the verified one first, then unverified
   * ones, newest first (at most MAX_UNVERIFIED_PER_EMAIL), each with a password.
   */
  async findSignInCandidates(email: string): Promise<UserEntity[]> {
    const rows = await this.users.findWithPasswordByEmail(normalizeEmail(email), MAX_UNVERIFIED_PER_EMAIL + 1);
    return [...rows.filter((u) => u.emailVerifiedAt), ...rows.filter((u) => !u.emailVerifiedAt)];
  }

  findById(id: string): Promise<UserEntity | null> {
    return this.users.findById(id);
  }

  /**
   * The profile of an existing user (a missing one answers 404 "No rows found."); from `read` when
   * the caller's profile was read already (with the session: AuthUser.profile).
   */
  async getProfile(id: string, read?: ProfileRow): Promise<ProfileResponseDto> {
    const row = read?.id === id ? read : await this.users.profileRow(id);
    if (!row) throw new EntityNotFoundError(UserEntity, { id });
    const { subscription_balance, purchased_balance, held } = row;
    const account: AccountRow | undefined =
      subscription_balance === null ? undefined : { subscription_balance, purchased_balance: purchased_balance ?? 0, held: held ?? 0 };
    return profileFrom(row, toBalance(account));
  }

  /** The profile of a user already loaded, with the available balance from the ledger. */
  async profileOf(user: UserEntity): Promise<ProfileResponseDto> {
    return toProfile(user, await this.credits.getBalance(user.id));
  }

  findByGoogleSub(sub: string): Promise<UserEntity | null> {
    return this.users.findByGoogleSub(sub);
  }

  countAdmins(): Promise<number> {
    return this.users.countAdmins();
  }

  /** Whether ADMIN_EMAILS lists this email. */
  isListedAdmin(email: string): boolean {
    return this.config.auth.adminEmails.includes(normalizeEmail(email));
  }

  /** ADMIN_EMAILS makes an admin only of an account that proved it owns the address. */
  private listedAdminPatch(user: Pick<UserEntity, 'email' | 'role' | 'emailVerifiedAt'>): Partial<UserEntity> {
    return user.emailVerifiedAt && user.role !== UserRole.Admin && this.isListedAdmin(user.email)
      ? { role: UserRole.Admin, adminFromList: true }
      : {};
  }

  /**
   * A new account on the free tier with the free plan's monthly credits (its credit account is
   * opened in the same transaction); an admin when ADMIN_EMAILS lists its email and the address is
   * verified. A second verified account for an address fails with PostgreSQL's unique violation (23505).
   */
  createAccount(account: NewAccount, manager?: EntityManager): Promise<UserEntity> {
    const email = normalizeEmail(account.email);
    const user = this.users.build({
      email,
      fullName: account.fullName,
      passwordHash: account.passwordHash,
      ageConfirmedAt: account.ageConfirmedAt,
      googleSub: account.googleSub ?? null,
      emailVerifiedAt: account.emailVerifiedAt ?? null,
      role: UserRole.User,
      adminFromList: false,
      tier: UserTier.Free,
    });
    Object.assign(user, this.listedAdminPatch(user));
    return this.saveNewUser(user, manager);
  }

  private saveNewUser(user: UserEntity, manager?: EntityManager): Promise<UserEntity> {
    const save = async (m: EntityManager) => {
      const saved = await this.users.save(user, m);
      await this.credits.openAccount(saved.id, saved.tier, m);
      return saved;
    };
    return manager ? save(manager) : this.users.transaction(save);
  }

  /**
   * The account proved it owns its address (a mailed link, Google, a password reset): marks it
   * verified and promotes it when ADMIN_EMAILS lists it. Answers the ids of the other, unverified
   * accounts that used the same address, for the caller to remove once this commits. Throws the
   * unique violation (23505) if another account verified the address meanwhile.
   */
  async markEmailVerified(m: EntityManager, user: UserEntity): Promise<{ user: UserEntity; displaced: string[] }> {
    const patch: Partial<UserEntity> = { emailVerifiedAt: user.emailVerifiedAt ?? new Date() };
    Object.assign(patch, this.listedAdminPatch({ ...user, ...patch }));
    await this.users.update(user.id, patch, m);
    const displaced = await this.users.unverifiedIdsOf(m, user.email, user.id);
    return { user: Object.assign(user, patch), displaced };
  }

  /** Marks a sign-in; promotes the account when ADMIN_EMAILS lists it. Returns the updated user. */
  async recordSignIn(user: UserEntity, changes: { googleSub?: string } = {}): Promise<UserEntity> {
    const patch: Partial<UserEntity> = { lastSignInAt: new Date() };
    if (changes.googleSub) patch.googleSub = changes.googleSub;
    Object.assign(patch, this.listedAdminPatch(user));
    await this.users.update(user.id, patch);
    return Object.assign(user, patch);
  }

  /** At boot: every verified account whose email ADMIN_EMAILS lists becomes an admin. Returns how many changed. */
  async promoteListedAdmins(): Promise<number> {
    const emails = this.config.auth.adminEmails;
    if (emails.length === 0) return 0;
    return this.users.promoteListed(emails);
  }

  /**
   * At boot: admins that ADMIN_EMAILS made and no longer lists become plain users again (at once:
   * the guard reads the role from the database on every request). Admins made by
   * `npm run admin:create` are left alone. Returns the emails demoted.
   */
  async demoteUnlistedAdmins(): Promise<string[]> {
    return this.users.demoteUnlisted(this.config.auth.adminEmails);
  }

  /** Changes the editable parts of the profile; answers the fields that changed. */
  async updateProfile(
    id: string,
    changes: { fullName?: string; ageConfirmed?: boolean },
  ): Promise<{ profile: ProfileResponseDto; changed: string[] }> {
    const user = await this.users.getById(id);
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

  /**
   * Creates the admin, or promotes and resets the password of the account that owns that email.
   * The operator vouches for the address: the account is verified, and unverified accounts that
   * used the same address are answered in `displaced` for the caller to remove.
   */
  async upsertAdmin(
    email: string,
    password: string,
    fullName = 'Administrator',
  ): Promise<{ user: UserEntity; created: boolean; displaced: string[] }> {
    const normalized = normalizeEmail(email);
    const passwordHash = await hashPassword(password);
    return this.users.transaction(async (m) => {
      const existing = await this.findVerifiedByEmail(normalized, m);
      const user = existing ?? this.users.build({ email: normalized, fullName, tier: UserTier.Free });
      Object.assign(user, {
        role: UserRole.Admin,
        adminFromList: false,
        passwordHash,
        emailVerifiedAt: user.emailVerifiedAt ?? new Date(),
        // the operator who runs admin:create vouches for the new staff member: no "Confirm your age" in the user app
        ageConfirmedAt: user.ageConfirmedAt ?? (existing ? null : new Date()),
      });
      const saved = existing ? await this.users.save(user, m) : await this.saveNewUser(user, m);
      const displaced = await this.users.unverifiedIdsOf(m, normalized);
      return { user: saved, created: !existing, displaced };
    });
  }
}
