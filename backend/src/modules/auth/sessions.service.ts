import { createHash, createHmac, createSecretKey, randomUUID, timingSafeEqual, type KeyObject } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { AuthError } from '../../common/errors';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { type ProfileExtras, UsersRepository } from '../users/users.repository';
import { AuthException } from './auth.exception';
import { type SessionEntity, SessionRevokeReason } from './session.entity';
import { type LiveSessionAuth, SessionsRepository } from './sessions.repository';
import type { AuthUser } from '../../common/auth';
import type { UserEntity, UserRole } from '../users/user.entity';
import type { EntityManager } from 'typeorm';

export interface ClientInfo {
  userAgent?: string | null;
  ip?: string | null;
}

/** What a sign-in, sign-up or refresh hands out. */
export interface IssuedSession {
  sessionId: string;
  accessToken: string;
  /** access token expiry, Unix seconds */
  accessTokenExpiresAt: number;
  /** `<session id>.<secret>`, for the httpOnly cookie only */
  refreshToken: string;
  /** the session's absolute end */
  sessionExpiresAt: Date;
}

interface AccessTokenClaims {
  sub: string;
  sid: string;
  role: UserRole;
  exp: number;
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const IS_UUID = new RegExp(`^${UUID}$`);
const REFRESH_TOKEN = new RegExp(`^(${UUID})\\.([A-Za-z0-9_-]{43})$`);

function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A refresh token's secret: 32 bytes, its number (4, big-endian) then a MAC of the session and that number (28). */
const SECRET_BYTES = 32;
const NUMBER_BYTES = 4;

function clientInfo(info: ClientInfo): Pick<SessionEntity, 'userAgent' | 'ip'> {
  return { userAgent: info.userAgent ? info.userAgent.slice(0, 512) : null, ip: info.ip ? info.ip.slice(0, 64) : null };
}

/**
 * Sessions: a short-lived HS256 access token (`sub`, `sid`, `role`) and an opaque refresh token
 * bound to a stored session whose hash rotates on every refresh. Presenting any token a refresh
 * replaced revokes that session (a replay of a stolen token, also after the thief refreshed it
 * again and again: each token carries its number and a MAC only we can make); a forged one is only
 * refused. A session ends at `expires_at` whatever happens.
 */
@Injectable()
export class SessionsService {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly users: UsersRepository,
    private readonly jwt: JwtService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.accessKey = createSecretKey(Buffer.from(config.auth.jwtSecret));
    this.refreshKey = createHmac('sha256', config.auth.jwtSecret).update('fr-refresh-tokens').digest();
  }

  /**
   * The key of the refresh tokens' MACs, derived from the JWT secret. A new secret signs nobody out
   * (the current token is checked by its hash); tokens replaced before it are then only refused.
   */
  private readonly refreshKey: Buffer;

  /** The secret of refresh token number `n` of session `id` (base64url, 43 characters). */
  private secretFor(id: string, n: number): string {
    const secret = Buffer.alloc(SECRET_BYTES);
    secret.writeUInt32BE(n, 0);
    createHmac('sha256', this.refreshKey)
      .update(`${id}.${n}`)
      .digest()
      .copy(secret, NUMBER_BYTES, 0, SECRET_BYTES - NUMBER_BYTES);
    return secret.toString('base64url');
  }

  /** Whether `secret` is one we issued for session `id` before its current token (number below `current`). */
  private isReplacedToken(id: string, secret: string, current: number): boolean {
    const bytes = Buffer.from(secret, 'base64url');
    if (bytes.length !== SECRET_BYTES) return false;
    const n = bytes.readUInt32BE(0);
    if (n >= current) return false;
    return timingSafeEqual(bytes, Buffer.from(this.secretFor(id, n), 'base64url'));
  }

  /**
   * The access tokens' HMAC key, made once: given the secret as a string, jsonwebtoken first tries
   * (and fails) to read it as a public key on every verification, a cost paid on every request.
   * (@nestjs/jwt types `secret` as string | Buffer but hands it to jsonwebtoken, which takes a KeyObject.)
   */
  private readonly accessKey: KeyObject;

  async create(user: Pick<UserEntity, 'id' | 'role'>, client: ClientInfo): Promise<IssuedSession> {
    const id = randomUUID();
    const secret = this.secretFor(id, 0);
    const expiresAt = new Date(Date.now() + this.config.auth.sessionTtlDays * 24 * 3600 * 1000);
    await this.sessions.insert({ id, userId: user.id, tokenHash: sha256(secret), refreshCount: 0, expiresAt, ...clientInfo(client) });
    return this.issue(user, id, secret, expiresAt);
  }

  /**
   * Exchanges a refresh token for a new one (and a new access token). Throws AuthError when the token
   * is malformed, unknown or a guess; to a token we issued for the session (its holder) the error says
   * why the session ended (suspended, password changed, signed out for safety, expired).
   *
   * The token the last refresh replaced still works for AUTH_REFRESH_REUSE_GRACE_SECONDS after that
   * refresh, the "reuse interval" of the identity providers: a refresh whose answer was lost (a tab
   * closed or killed, a network drop) is simply made again, and it answers the session's current
   * token, so two tabs that refreshed at once end up with the same one. Any older token, or the
   * replaced one after the window, is a replay of a stolen copy: the session is revoked.
   */
  async rotate(refreshToken: string, client: ClientInfo): Promise<{ userId: string; issued: IssuedSession }> {
    const match = REFRESH_TOKEN.exec(refreshToken);
    if (!match) throw new AuthError();
    const [, id, secret] = match;
    const graceMs = this.config.auth.refreshReuseGraceSeconds * 1000;
    const outcome = await this.sessions.transaction(async (m) => {
      const session = await this.sessions.lockById(m, id);
      if (!session) return { kind: 'invalid' as const };
      const now = new Date();
      const presented = sha256(secret);
      const current = sameHash(presented, session.tokenHash);
      // the token the last refresh replaced (by its hash: it may predate numbered tokens), or an older one (by its MAC)
      const previous = !current && !!session.previousTokenHash && sameHash(presented, session.previousTokenHash);
      const replaced = !current && (previous || this.isReplacedToken(id, secret, session.refreshCount));
      // only a token we issued for this session learns why it ended; a guess is only refused
      if (!current && !replaced) return { kind: 'invalid' as const };
      if (session.revokedAt) return { kind: 'ended' as const, reason: session.revokeReason, userId: session.userId };
      if (session.expiresAt <= now) return { kind: 'expired' as const };
      let next: string;
      if (current) {
        next = this.secretFor(id, session.refreshCount + 1);
      } else {
        const inGrace = previous && session.rotatedAt !== null && now.getTime() - session.rotatedAt.getTime() <= graceMs && graceMs > 0;
        const currentSecret = this.secretFor(id, session.refreshCount);
        if (!inGrace || !sameHash(sha256(currentSecret), session.tokenHash)) {
          // a token a refresh replaced, presented again too late: a replay of a stolen token, the session ends
          await this.sessions.end(m, id, now, SessionRevokeReason.RefreshTokenReuse);
          return { kind: 'reused' as const };
        }
        next = currentSecret; // within the grace window: the current token again, nothing rotates
      }
      const user = await this.users.findForRefresh(m, session.userId);
      if (!user) return { kind: 'invalid' as const };
      if (user.suspendedAt) return { kind: 'suspended' as const };
      if (current) {
        await this.sessions.rotate(m, id, {
          tokenHash: sha256(next),
          previousTokenHash: session.tokenHash,
          refreshCount: session.refreshCount + 1,
          rotatedAt: now,
          lastUsedAt: now,
          ...clientInfo(client),
        });
      } else {
        await this.sessions.touch(m, id, { lastUsedAt: now, ...clientInfo(client) });
      }
      return { kind: 'rotated' as const, user, next, expiresAt: session.expiresAt };
    });
    switch (outcome.kind) {
      case 'rotated':
        return { userId: outcome.user.id, issued: await this.issue(outcome.user, id, outcome.next, outcome.expiresAt) };
      case 'suspended':
        throw AuthException.sessionSuspended();
      case 'reused':
        throw AuthException.sessionRevoked();
      case 'expired':
        throw AuthException.sessionExpired();
      case 'ended':
        throw (await this.endError(outcome.reason, () => this.users.isSuspended(outcome.userId))) ?? new AuthError();
      default:
        throw new AuthError();
    }
  }

  /**
   * Why the session of a genuine access token ended, as the error its holder gets (suspended,
   * password changed, signed out for safety, expired), or null when it did not end, or for another
   * reason (signed out, taken over), or the token is not ours.
   */
  async whyEnded(accessToken: string): Promise<AuthException | null> {
    const claims = await this.verifiedClaims(accessToken);
    if (!claims) return null;
    const state = await this.sessions.findEndState(claims.sid, claims.sub);
    if (!state) return null;
    if (state.revoked) return this.endError(state.revokeReason, async () => state.suspended);
    if (state.expired) return AuthException.sessionExpired();
    // live but the account suspended (its sessions end with it; one made meanwhile cannot be)
    return state.suspended ? AuthException.sessionSuspended() : null;
  }

  /** The error that tells why a session ended by `reason`; a suspension only while it lasts. */
  private async endError(reason: SessionRevokeReason | null, stillSuspended: () => Promise<boolean>): Promise<AuthException | null> {
    switch (reason) {
      case SessionRevokeReason.AccountSuspended:
        return (await stillSuspended()) ? AuthException.sessionSuspended() : null;
      case SessionRevokeReason.PasswordChange:
      case SessionRevokeReason.PasswordReset:
        return AuthException.passwordChanged();
      case SessionRevokeReason.RefreshTokenReuse:
        return AuthException.sessionRevoked();
      default:
        return null;
    }
  }

  /** When the session began (a Google-only account proves itself by a fresh sign-in), or undefined. */
  sessionStartedAt(sessionId: string): Promise<Date | undefined> {
    return this.sessions.createdAt(sessionId);
  }

  /**
   * Revokes the session a refresh token belongs to, if the token is its current one.
   * Answers the session's user id, or undefined when nothing was revoked.
   */
  async revokeByRefreshToken(refreshToken: string, reason: SessionRevokeReason): Promise<string | undefined> {
    const match = REFRESH_TOKEN.exec(refreshToken);
    if (!match) return undefined;
    const [, id, secret] = match;
    const session = await this.sessions.findUnrevoked(id);
    if (!session || !sameHash(sha256(secret), session.tokenHash)) return undefined;
    await this.revoke(id, reason);
    return session.userId;
  }

  /** Ends every live session of an account, but `except` (the caller's own, after a password change). */
  async revokeAllForUser(
    userId: string,
    reason: SessionRevokeReason,
    options: { except?: string; manager?: EntityManager } = {},
  ): Promise<void> {
    await this.sessions.revokeAllForUser(userId, reason, options);
  }

  async revoke(sessionId: string, reason: SessionRevokeReason): Promise<void> {
    await this.sessions.revoke(sessionId, reason);
  }

  /**
   * The caller of an access token, or null when the token is invalid, expired, or its session is
   * revoked or over. The role is read from the database, so a promotion or demotion applies at once.
   */
  async authenticate(accessToken: string, options: { profile?: boolean } = {}): Promise<AuthUser | null> {
    const claims = await this.verifiedClaims(accessToken);
    if (!claims) return null;
    // with the profile: the same row, with the profile's columns too
    let live: LiveSessionAuth | undefined;
    let withProfile: ProfileExtras | undefined;
    if (options.profile) live = withProfile = await this.sessions.findLiveAuthWithProfile(claims.sid, claims.sub);
    else live = await this.sessions.findLiveAuth(claims.sid, claims.sub);
    if (!live || live.suspended) return null;
    const user: AuthUser = {
      id: live.userId,
      role: live.role,
      tier: live.tier,
      sessionId: live.sessionId,
      emailVerified: live.emailVerified,
      ageConfirmed: live.ageConfirmed,
      twoFactorEnabled: live.twoFactorEnabled,
      generationsVersion: live.generationsVersion,
    };
    if (withProfile) {
      const { email, full_name, created_at, has_password, subscription_balance, purchased_balance, held } = withProfile;
      user.profile = {
        id: live.userId,
        tier: live.tier,
        role: live.role,
        email,
        full_name,
        created_at,
        has_password,
        age_confirmed: live.ageConfirmed,
        email_verified: live.emailVerified,
        two_factor_enabled: live.twoFactorEnabled,
        subscription_balance,
        purchased_balance,
        held,
      };
    }
    return user;
  }

  /** The claims of an access token we signed that has not expired, or null. */
  private async verifiedClaims(accessToken: string): Promise<AccessTokenClaims | null> {
    let claims: AccessTokenClaims;
    try {
      claims = await this.jwt.verifyAsync<AccessTokenClaims>(accessToken, {
        secret: this.accessKey as unknown as string,
        algorithms: ['HS256'],
      });
    } catch {
      return null;
    }
    // a token without an expiry is refused, however it was signed (jsonwebtoken accepts one otherwise)
    if (typeof claims.exp !== 'number' || !Number.isFinite(claims.exp)) return null;
    if (!IS_UUID.test(String(claims.sub)) || !IS_UUID.test(String(claims.sid))) return null;
    return claims;
  }

  private async issue(
    user: Pick<UserEntity, 'id' | 'role'>,
    sessionId: string,
    secret: string,
    sessionExpiresAt: Date,
  ): Promise<IssuedSession> {
    const now = Math.floor(Date.now() / 1000);
    // never outlive the session itself
    const exp = Math.min(now + this.config.auth.accessTokenTtlSeconds, Math.floor(sessionExpiresAt.getTime() / 1000));
    const claims: AccessTokenClaims = { sub: user.id, sid: sessionId, role: user.role, exp };
    const accessToken = await this.jwt.signAsync(claims, { secret: this.accessKey as unknown as string, algorithm: 'HS256' });
    return { sessionId, accessToken, accessTokenExpiresAt: exp, refreshToken: `${sessionId}.${secret}`, sessionExpiresAt };
  }
}
