import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../../../config/config.module';
import { AuthRepository } from '../auth.repository';
import { AuthTokenEntity, AuthTokenPurpose } from './auth-token.entity';
import type { AppConfig } from '../../../config/app-config';
import type { EntityManager } from 'typeorm';

/** How long each kind of token lives. */
export const AUTH_TOKEN_TTL_MINUTES: Record<AuthTokenPurpose, number> = {
  [AuthTokenPurpose.EmailVerification]: 24 * 60,
  [AuthTokenPurpose.PasswordReset]: 60,
  [AuthTokenPurpose.MfaChallenge]: 5,
};

/** Wrong codes an MFA challenge takes before it is spent. */
export const MFA_CHALLENGE_MAX_ATTEMPTS = 5;

function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/**
 * Single-use tokens for mailed links and the second step of a sign-in. A token is
 * `<secret>.<signature>`: 192 random bits, and an HMAC binding them to their purpose, so a forged or
 * misrouted token is refused before the database is asked. Only the SHA-256 of the secret is
 * stored. Issuing a token of a purpose ends the account's older ones of that purpose.
 */
@Injectable()
export class AuthTokensService {
  private readonly key: Buffer;

  constructor(
    private readonly repo: AuthRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.key = createHmac('sha256', config.auth.jwtSecret).update('fr-auth-tokens').digest();
  }

  async issue(userId: string, purpose: AuthTokenPurpose, options: { email?: string; manager?: EntityManager } = {}): Promise<string> {
    const secret = randomBytes(24).toString('base64url');
    const now = new Date();
    await this.repo.replaceToken(
      {
        userId,
        purpose,
        tokenHash: sha256(secret),
        email: options.email ?? null,
        expiresAt: new Date(now.getTime() + AUTH_TOKEN_TTL_MINUTES[purpose] * 60_000),
      },
      options.manager,
    );
    return `${secret}.${this.sign(purpose, secret)}`;
  }

  /**
   * The live token (unused, unexpired) for `token`, locked for the caller's transaction, or null.
   * It is not spent: the caller marks it used (use()) once what it allows has been done.
   */
  async find(m: EntityManager, token: string, purpose: AuthTokenPurpose): Promise<AuthTokenEntity | null> {
    const secret = this.secretOf(token, purpose);
    if (!secret) return null;
    const row = await this.repo.lockToken(m, sha256(secret), purpose);
    if (!row || row.usedAt || row.expiresAt <= new Date()) return null;
    return row;
  }

  async use(m: EntityManager, id: string): Promise<void> {
    await this.repo.markTokenUsed(m, id);
  }

  /** Ends every unused token of these purposes for the account (a password change ends its reset links). */
  async revokeAll(m: EntityManager, userId: string, purposes: AuthTokenPurpose[]): Promise<void> {
    await this.repo.endTokens(m, userId, purposes);
  }

  /** One more wrong code on an MFA challenge; answers how many it has taken. */
  async countAttempt(id: string): Promise<number> {
    // a token gone meanwhile counts as spent
    return (await this.repo.countAttempt(id)) ?? MFA_CHALLENGE_MAX_ATTEMPTS;
  }

  private secretOf(token: string, purpose: AuthTokenPurpose): string | null {
    if (typeof token !== 'string' || token.length > 200) return null;
    const [secret, signature, ...rest] = token.split('.');
    if (!secret || !signature || rest.length) return null;
    const expected = Buffer.from(this.sign(purpose, secret));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected) ? secret : null;
  }

  private sign(purpose: AuthTokenPurpose, secret: string): string {
    return createHmac('sha256', this.key).update(`${purpose}:${secret}`).digest('base64url').slice(0, 22);
  }
}
