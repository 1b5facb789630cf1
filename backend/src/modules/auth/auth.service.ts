import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { AuthError, ValidationError } from '../../common/errors';
import { hashPassword, verifyDummyPassword, verifyPassword, warmUpDummyHash } from '../../common/security/password';
import { isCommonPassword, PasswordMessages } from '../../common/security/password-policy';
import { MessageQueueService, type AccountMailPayload } from '../../queue';
import { ActivityService } from '../analytics/activity.service';
import { AnalyticsEventName } from '../analytics/analytics-event.entity';
import { AnalyticsService } from '../analytics/analytics.service';
import { ActivityType } from '../analytics/user-activity-log.entity';
import { ApiTokenRevokeReason } from '../api-tokens/api-token.entity';
import { ApiTokensService } from '../api-tokens/api-tokens.service';
import { UserEntity } from '../users/user.entity';
import { UsersRepository } from '../users/users.repository';
import { normalizeEmail, UsersService } from '../users/users.service';
import { queueAccountMail } from './account-mail.service';
import { AddressProofService, type ProvenAddress } from './address-proof.service';
import { AuthException, GoogleAuthError } from './auth.exception';
import { AuthSignInDto } from './dto/auth-sign-in.dto';
import { AuthSignUpDto } from './dto/auth-sign-up.dto';
import { SessionResponseDto } from './dto/session-response.dto';
import { SignInThrottle, type SignInClient } from './rate-limit/sign-in-throttle.service';
import { SessionRevokeReason } from './session.entity';
import { ClientInfo, IssuedSession, SessionsService } from './sessions.service';
import { AuthTokenPurpose } from './tokens/auth-token.entity';
import { AuthTokensService, MFA_CHALLENGE_MAX_ATTEMPTS } from './tokens/auth-tokens.service';
import { TwoFactorService, type SecondFactor } from './two-factor/two-factor.service';
import type { AuthUser } from '../../common/auth';

/** A session to answer: the body, plus the refresh token and the session's end for the cookie. */
export interface SessionResult {
  body: SessionResponseDto;
  refreshToken: string;
  sessionExpiresAt: Date;
}

/**
 * A sign-up: a new address gets its account and a session; an address that has an account already
 * gets a mail and no session (`checkEmail`, the normalised address the mail went to).
 */
export type SignUpOutcome = { session: SessionResult; email: string } | { checkEmail: string };

/** A password sign-in ends in a session, or, with two-factor on, in a challenge for a code. */
export type SignInOutcome = { session: SessionResult } | { mfaToken: string };

/** What Google told us about the person (OpenID Connect userinfo). */
export interface GoogleIdentity {
  sub: string;
  email?: string;
  emailVerified: boolean;
  name?: string;
}

/**
 * The typical duration of some work (a moving average of its recent runs), and a wait that makes
 * something shorter take about as long: the sign-up of an address that has an account answers
 * about when a new account's sign-up would.
 */
export class TypicalDuration {
  private average = 0;

  constructor(
    /** the weight of the newest run */
    private readonly weight = 0.2,
    /** never wait longer than this */
    private readonly maxMs = 1_000,
  ) {}

  record(ms: number): void {
    this.average = this.average === 0 ? ms : this.average + this.weight * (ms - this.average);
  }

  /** Waits until `elapsedMs` reaches the typical duration (give or take 10%). */
  async pad(elapsedMs: number): Promise<void> {
    const target = Math.min(this.average, this.maxMs) * (0.9 + Math.random() * 0.2);
    const wait = target - elapsedMs;
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof QueryFailedError && (error as { driverError?: { code?: string } }).driverError?.code === '23505';
}

/**
 * Accounts and sign-in: sign-up, password and Google sign-in (with the two-factor step), refresh,
 * sign-out, email verification, password reset and change, with their activity and analytics.
 *
 * Sign-up never makes a second account for an address, and its answer says the same words either
 * way ("we've sent a link to <address>"); "Forgot password?" always answers the same.
 */
@Injectable()
export class AuthService implements OnModuleInit {
  private readonly logger = new Logger('Auth');
  /** how long making a new account and its session takes after the hash (this process's recent sign-ups) */
  private readonly newAccountWork = new TypicalDuration();

  constructor(
    private readonly usersRepository: UsersRepository,
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly tokens: AuthTokensService,
    private readonly twoFactor: TwoFactorService,
    private readonly throttle: SignInThrottle,
    private readonly queue: MessageQueueService,
    private readonly proofs: AddressProofService,
    private readonly activity: ActivityService,
    private readonly analytics: AnalyticsService,
    private readonly apiTokens: ApiTokensService,
  ) {}

  async onModuleInit(): Promise<void> {
    // the dummy hash of an unknown-email sign-in is made now, so the first one is not slower
    await warmUpDummyHash();
  }

  /**
   * A new address: a new account, unverified, signed in at once (it may browse; uploading and
   * generating wait for the mailed link). An address that already has an account (verified, or
   * unverified sign-ups waiting from before): no account is made and nobody is signed in; the
   * address is mailed a way in (sign in, or a link to choose a password, which proves the address).
   * Both answers say "we've sent a link to <address>" and take the password hash either way; what
   * still differs (a session or none) is the contract of sign-up, documented in docs/accounts.md.
   */
  async signUp(dto: AuthSignUpDto, client: ClientInfo): Promise<SignUpOutcome> {
    if (isCommonPassword(dto.password)) throw new ValidationError(PasswordMessages.common);
    const email = normalizeEmail(dto.email);
    const passwordHash = await hashPassword(dto.password);
    const started = performance.now();
    const user = await this.usersRepository.transaction(async (m) => {
      // sign-ups of one address one at a time: two at once never make two accounts
      await this.usersRepository.lockSignUps(m, email);
      if (await this.users.findVerifiedByEmail(email, m)) return null;
      if ((await this.users.findUnverifiedByEmail(email, m)).length) return null;
      return this.users.createAccount({ email, fullName: dto.full_name, passwordHash, ageConfirmedAt: new Date() }, m);
    });
    if (!user) {
      await this.sendAccountMail({ kind: 'sign-up-existing', email });
      // the answer comes about when a new account's would: making an account and its session takes longer than a mail job
      await this.newAccountWork.pad(performance.now() - started);
      return { checkEmail: email };
    }
    const signedIn = await this.users.recordSignIn(user);
    const result = await this.startSession(signedIn, client);
    await this.sendAccountMail({ kind: 'verify-email', userId: user.id });
    await this.activity.record(user.id, ActivityType.SignUp, { method: 'password' });
    await this.analytics.track(AnalyticsEventName.UserSignup, user.id, { email: user.email, full_name: user.fullName, method: 'password' });
    this.newAccountWork.record(performance.now() - started);
    return { session: result, email };
  }

  /**
   * One failure for every cause, in about the same time (an unknown email is checked against a
   * dummy hash; several accounts of one address are checked at once). Failures are counted per
   * account and client (SignInThrottle). With two-factor on, the answer is a challenge.
   */
  async signIn(dto: AuthSignInDto, client: ClientInfo & SignInClient): Promise<SignInOutcome> {
    const email = normalizeEmail(dto.email);
    const attempt = await this.throttle.begin(email, client);
    const candidates = await this.users.findSignInCandidates(email);
    const checks = candidates.length
      ? await Promise.all(candidates.map((c) => verifyPassword(c.passwordHash!, dto.password)))
      : [await verifyDummyPassword(dto.password)].map(() => false);
    const found = candidates.find((_, i) => checks[i]);
    if (!found) throw AuthException.invalidCredentials();
    await this.throttle.succeeded(attempt);
    // said only to someone who knows the password
    if (found.suspendedAt) throw AuthException.accountSuspended();
    if (found.totpEnabledAt) return { mfaToken: await this.tokens.issue(found.id, AuthTokenPurpose.MfaChallenge) };
    return { session: await this.completeSignIn(found, client, 'password') };
  }

  /** The second step of a sign-in with two-factor on: the challenge and a code (or a recovery code). */
  async signInWithCode(mfaToken: string, proof: SecondFactor, client: ClientInfo): Promise<SessionResult> {
    if (!proof.code && !proof.recovery_code) throw new ValidationError('Please enter the 6-digit code');
    const challenge = await this.usersRepository.transaction((m) => this.tokens.find(m, mfaToken, AuthTokenPurpose.MfaChallenge));
    if (!challenge || challenge.attempts >= MFA_CHALLENGE_MAX_ATTEMPTS) throw AuthException.mfaExpired();
    if (!(await this.twoFactor.verify(challenge.userId, proof))) {
      const attempts = await this.tokens.countAttempt(challenge.id);
      throw attempts >= MFA_CHALLENGE_MAX_ATTEMPTS ? AuthException.mfaExpired() : AuthException.invalidCode();
    }
    const user = await this.usersRepository.transaction(async (m) => {
      const live = await this.tokens.find(m, mfaToken, AuthTokenPurpose.MfaChallenge);
      if (!live) return null; // spent by a concurrent request
      await this.tokens.use(m, live.id);
      return this.usersRepository.findById(live.userId, m);
    });
    if (!user) throw AuthException.mfaExpired();
    if (user.suspendedAt) throw AuthException.accountSuspended();
    return this.completeSignIn(user, client, proof.recovery_code ? 'recovery_code' : 'totp');
  }

  async refresh(refreshToken: string | undefined, client: ClientInfo): Promise<SessionResult> {
    if (!refreshToken) throw new AuthError();
    const { userId, issued } = await this.sessions.rotate(refreshToken, client);
    return this.toResult(issued, await this.users.getProfile(userId));
  }

  /**
   * Revokes the session of the refresh cookie and the one of the bearer token (when valid). Signing out
   * without a session is not an error: the cookie is cleared either way.
   */
  async signOut(refreshToken: string | undefined, caller: AuthUser | undefined): Promise<void> {
    let userId = caller?.id;
    if (refreshToken) userId = (await this.sessions.revokeByRefreshToken(refreshToken, SessionRevokeReason.SignOut)) ?? userId;
    if (caller) await this.sessions.revoke(caller.sessionId, SessionRevokeReason.SignOut);
    if (!userId) return;
    await this.activity.record(userId, ActivityType.SignOut);
    await this.analytics.track(AnalyticsEventName.UserSignout, userId);
  }

  /**
   * Google sign-in: the account linked to this Google id; else the account that owns the verified
   * email (linked now); else the newest unverified account of that address, taken over cleanly
   * (AddressProofService: whatever its maker set is discarded, the owner confirms their own age);
   * else a new account. New and taken-over accounts confirm their age once: the user app asks and
   * sends PATCH /api/me { age_confirmed: true }.
   */
  async signInWithGoogle(identity: GoogleIdentity, client: ClientInfo): Promise<SignInOutcome | { error: GoogleAuthError }> {
    let user = await this.users.findByGoogleSub(identity.sub);
    let method: 'existing' | 'linked' | 'claimed' | 'created' = 'existing';
    if (!user) {
      if (!identity.email || !identity.emailVerified) return { error: GoogleAuthError.EmailUnverified };
      const email = normalizeEmail(identity.email);
      const name = (identity.name ?? '').trim().slice(0, 200);
      user = await this.users.findVerifiedByEmail(email);
      if (user) {
        // an address Google vouches for is linked once; a second Google account for it is refused
        if (user.googleSub && user.googleSub !== identity.sub) return { error: GoogleAuthError.Failed };
        method = 'linked';
      } else {
        try {
          const outcome = await this.usersRepository.transaction(async (m) => {
            await this.usersRepository.lockSignUps(m, email);
            const [squatted] = await this.users.findUnverifiedByEmail(email, m);
            if (squatted) {
              const proven = await this.proofs.prove(m, squatted, 'google', { googleSub: identity.sub, fullName: name });
              return { user: proven.user, proven, method: 'claimed' as const };
            }
            const created = await this.users.createAccount(
              { email, fullName: name, passwordHash: null, ageConfirmedAt: null, googleSub: identity.sub, emailVerifiedAt: new Date() },
              m,
            );
            return { user: created, proven: null, method: 'created' as const };
          });
          user = outcome.user;
          method = outcome.method;
          if (outcome.proven) await this.proofs.settle(outcome.proven);
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
          return { error: GoogleAuthError.Failed };
        }
      }
    }
    const account: UserEntity = user;
    if (account.suspendedAt) return { error: GoogleAuthError.Suspended };
    user = await this.users.recordSignIn(account, method === 'linked' && !account.googleSub ? { googleSub: identity.sub } : {});
    if (method === 'created') {
      await this.activity.record(user.id, ActivityType.SignUp, { method: 'google' });
      await this.analytics.track(AnalyticsEventName.UserSignup, user.id, { email: user.email, full_name: user.fullName, method: 'google' });
    }
    if (user.totpEnabledAt) return { mfaToken: await this.tokens.issue(user.id, AuthTokenPurpose.MfaChallenge) };
    const session = await this.startSession(user, client);
    if (method !== 'created') {
      await this.activity.record(user.id, ActivityType.SignIn, { method: 'google', ...(method === 'linked' ? { linked: true } : {}) });
      await this.analytics.track(AnalyticsEventName.UserSignin, user.id, { method: 'google' });
    }
    return { session };
  }

  /**
   * The mailed link proves the address (AddressProofService): the account is verified, the other
   * unverified accounts of it removed and the address told. While other sign-ups of the address
   * waited, the account is taken over for whoever opened the link (`fresh`): they choose its
   * password through the mailed notice.
   */
  async verifyEmail(token: string): Promise<{ fresh: boolean }> {
    let userId: string;
    let proven: ProvenAddress | null;
    try {
      ({ userId, proven } = await this.usersRepository.transaction(async (m) => {
        const row = await this.tokens.find(m, token, AuthTokenPurpose.EmailVerification);
        if (!row) throw AuthException.invalidLink();
        const user = await this.usersRepository.lockById(m, row.userId);
        if (!user || user.email !== row.email) throw AuthException.invalidLink();
        await this.tokens.use(m, row.id);
        if (user.emailVerifiedAt) return { userId: user.id, proven: null };
        if (await this.users.findVerifiedByEmail(user.email, m)) throw AuthException.invalidLink();
        return { userId: user.id, proven: await this.proofs.prove(m, user, 'verification_link') };
      }));
    } catch (error) {
      if (isUniqueViolation(error)) throw AuthException.invalidLink(); // another account verified the address meanwhile
      throw error;
    }
    if (proven) await this.proofs.settle(proven);
    await this.activity.record(userId, ActivityType.EmailVerified);
    return { fresh: proven?.claimed ?? false };
  }

  /** "Resend": a new verification link for the caller, or (signed out) for an address. Same answer always. */
  async resendVerification(caller: AuthUser | undefined, email: string | undefined): Promise<void> {
    if (caller) {
      if (!caller.emailVerified) await this.sendAccountMail({ kind: 'verify-email', userId: caller.id });
      return;
    }
    if (!email) throw new ValidationError('Email is required');
    // the job looks the address up, so the answer takes the same time whatever it finds
    await this.sendAccountMail({ kind: 'verify-address', email: normalizeEmail(email) });
  }

  /** "Forgot password?": the same answer, in the same time, whether or not the address has an account (the job decides). */
  async forgotPassword(email: string): Promise<void> {
    await this.sendAccountMail({ kind: 'password-reset', email: normalizeEmail(email) });
  }

  /**
   * A new password from a mailed link: every session of the account ends, and the account is told
   * by mail. It proves the address too: an unverified account is taken over for whoever opened the
   * link (AddressProofService: what its maker set, two-factor included, is discarded) and verified.
   * A verified account keeps everything but its password and sessions (two-factor stays on).
   */
  async resetPassword(token: string, password: string): Promise<void> {
    if (isCommonPassword(password)) throw new ValidationError(PasswordMessages.common);
    const known = await this.usersRepository.transaction((m) => this.tokens.find(m, token, AuthTokenPurpose.PasswordReset));
    if (!known) throw AuthException.invalidLink();
    const passwordHash = await hashPassword(password);
    let userId: string;
    let proven: ProvenAddress | null;
    try {
      ({ userId, proven } = await this.usersRepository.transaction(async (m) => {
        const row = await this.tokens.find(m, token, AuthTokenPurpose.PasswordReset);
        if (!row) throw AuthException.invalidLink();
        const user = await this.usersRepository.lockById(m, row.userId);
        if (!user) throw AuthException.invalidLink();
        await this.tokens.use(m, row.id);
        await this.tokens.revokeAll(m, user.id, [AuthTokenPurpose.PasswordReset]);
        await this.usersRepository.update(user.id, { passwordHash }, m);
        await this.sessions.revokeAllForUser(user.id, SessionRevokeReason.PasswordReset, { manager: m });
        await this.apiTokens.revokeAllOf(m, user.id, ApiTokenRevokeReason.PasswordReset);
        if (user.emailVerifiedAt) return { userId: user.id, proven: null };
        if (await this.users.findVerifiedByEmail(user.email, m)) throw AuthException.invalidLink();
        return { userId: user.id, proven: await this.proofs.prove(m, user, 'reset_link', { passwordHash }) };
      }));
    } catch (error) {
      if (isUniqueViolation(error)) throw AuthException.invalidLink();
      throw error;
    }
    if (proven) await this.proofs.settle(proven);
    await this.sendAccountMail({ kind: 'password-changed', userId });
    await this.activity.record(userId, ActivityType.PasswordChange, { method: 'reset_link' });
  }

  /** Settings' Change Password: needs the current one; the caller's other sessions end. */
  async changePassword(caller: AuthUser, current: string, next: string): Promise<void> {
    const user = await this.users.findById(caller.id);
    if (!user) throw new AuthError();
    if (!user.passwordHash) throw AuthException.noPassword();
    if (!(await verifyPassword(user.passwordHash, current))) throw AuthException.wrongPassword();
    if (isCommonPassword(next)) throw new ValidationError(PasswordMessages.common);
    const passwordHash = await hashPassword(next);
    await this.usersRepository.transaction(async (m) => {
      await this.usersRepository.update(user.id, { passwordHash }, m);
      await this.tokens.revokeAll(m, user.id, [AuthTokenPurpose.PasswordReset]);
      await this.sessions.revokeAllForUser(user.id, SessionRevokeReason.PasswordChange, { except: caller.sessionId, manager: m });
    });
    await this.sendAccountMail({ kind: 'password-changed', userId: user.id });
    await this.activity.record(user.id, ActivityType.PasswordChange, { method: 'settings' });
  }

  /** Security mail goes through a queue job (retried); a queue that fails must not fail the request. */
  sendAccountMail(payload: AccountMailPayload): Promise<void> {
    return queueAccountMail(this.queue, payload, this.logger);
  }

  private async completeSignIn(
    user: UserEntity,
    client: ClientInfo,
    method: 'password' | 'totp' | 'recovery_code',
  ): Promise<SessionResult> {
    const signedIn = await this.users.recordSignIn(user);
    const result = await this.startSession(signedIn, client);
    await this.activity.record(user.id, ActivityType.SignIn, {
      method: method === 'password' ? 'password' : 'password+2fa',
      ...(method === 'recovery_code' ? { recovery_code: true } : {}),
    });
    await this.analytics.track(AnalyticsEventName.UserSignin, user.id, { method: 'password' });
    return result;
  }

  private async startSession(user: UserEntity, client: ClientInfo): Promise<SessionResult> {
    const issued = await this.sessions.create(user, client);
    return this.toResult(issued, await this.users.profileOf(user));
  }

  private toResult(issued: IssuedSession, profile: SessionResponseDto['user']): SessionResult {
    return {
      body: { access_token: issued.accessToken, expires_at: issued.accessTokenExpiresAt, user: profile },
      refreshToken: issued.refreshToken,
      sessionExpiresAt: issued.sessionExpiresAt,
    };
  }
}
