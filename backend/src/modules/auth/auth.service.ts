import { Injectable, OnModuleInit } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import type { AuthUser } from '../../common/auth';
import { AuthError, ValidationError } from '../../common/errors';
import { hashPassword, verifyDummyPassword, verifyPassword, warmUpDummyHash } from '../../common/security/password';
import { isCommonPassword, PasswordMessages } from '../../common/security/password-policy';
import { ActivityService } from '../analytics/activity.service';
import { AnalyticsEventName } from '../analytics/analytics-event.entity';
import { AnalyticsService } from '../analytics/analytics.service';
import { ActivityType } from '../analytics/user-activity-log.entity';
import { UserEntity } from '../users/user.entity';
import { normalizeEmail, UsersService } from '../users/users.service';
import { AuthException, GoogleAuthError } from './auth.exception';
import { AuthSignInDto } from './dto/auth-sign-in.dto';
import { AuthSignUpDto } from './dto/auth-sign-up.dto';
import { SessionResponseDto } from './dto/session-response.dto';
import { SessionRevokeReason } from './session.entity';
import { ClientInfo, IssuedSession, SessionsService } from './sessions.service';

/** A session to answer: the body, plus the refresh token and the session's end for the cookie. */
export interface SessionResult {
  body: SessionResponseDto;
  refreshToken: string;
  sessionExpiresAt: Date;
}

/** What Google told us about the person (OpenID Connect userinfo). */
export interface GoogleIdentity {
  sub: string;
  email?: string;
  emailVerified: boolean;
  name?: string;
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof QueryFailedError && (error as { driverError?: { code?: string } }).driverError?.code === '23505';
}

/** Sign-up, sign-in (password and Google), refresh and sign-out, with their activity and analytics. */
@Injectable()
export class AuthService implements OnModuleInit {
  constructor(
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly activity: ActivityService,
    private readonly analytics: AnalyticsService,
  ) {}

  async onModuleInit(): Promise<void> {
    // the dummy hash of an unknown-email sign-in is made now, so the first one is not slower
    await warmUpDummyHash();
  }

  async signUp(dto: AuthSignUpDto, client: ClientInfo): Promise<SessionResult> {
    if (isCommonPassword(dto.password)) throw new ValidationError(PasswordMessages.common);
    const email = normalizeEmail(dto.email);
    if (await this.users.findByEmail(email)) throw AuthException.emailTaken();
    const passwordHash = await hashPassword(dto.password);
    let user: UserEntity;
    try {
      user = await this.users.createAccount({ email, fullName: dto.full_name, passwordHash, ageConfirmedAt: new Date() });
    } catch (error) {
      if (isUniqueViolation(error)) throw AuthException.emailTaken(); // a concurrent sign-up won
      throw error;
    }
    user = await this.users.recordSignIn(user);
    const result = await this.startSession(user, client);
    await this.activity.record(user.id, ActivityType.SignUp, { method: 'password' });
    await this.analytics.track(AnalyticsEventName.UserSignup, user.id, { email: user.email, full_name: user.fullName, method: 'password' });
    return result;
  }

  /** One failure for every cause, in about the same time: an unknown email is checked against a dummy hash. */
  async signIn(dto: AuthSignInDto, client: ClientInfo): Promise<SessionResult> {
    const found = await this.users.findByEmail(dto.email);
    const valid = found?.passwordHash ? await verifyPassword(found.passwordHash, dto.password) : await verifyDummyPassword(dto.password);
    if (!found || !valid) throw AuthException.invalidCredentials();
    const user = await this.users.recordSignIn(found);
    const result = await this.startSession(user, client);
    await this.activity.record(user.id, ActivityType.SignIn, { method: 'password' });
    await this.analytics.track(AnalyticsEventName.UserSignin, user.id, { method: 'password' });
    return result;
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
   * Google sign-in: the account already linked to this Google id, else the account with the same
   * verified email (linked now), else a new account. New Google accounts have not confirmed their
   * age yet (age_confirmed false): the user app asks once and sends PATCH /api/me { age_confirmed: true }.
   */
  async signInWithGoogle(identity: GoogleIdentity, client: ClientInfo): Promise<SessionResult | { error: GoogleAuthError }> {
    let user = await this.users.findByGoogleSub(identity.sub);
    let created = false;
    let linked = false;
    if (!user) {
      if (!identity.email || !identity.emailVerified) return { error: GoogleAuthError.EmailUnverified };
      user = await this.users.findByEmail(identity.email);
      if (user) {
        linked = user.googleSub === null;
      } else {
        try {
          user = await this.users.createAccount({
            email: identity.email,
            fullName: (identity.name ?? '').trim().slice(0, 200),
            passwordHash: null,
            ageConfirmedAt: null,
            googleSub: identity.sub,
          });
          created = true;
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
          return { error: GoogleAuthError.Failed };
        }
      }
    }
    user = await this.users.recordSignIn(user, linked ? { googleSub: identity.sub } : {});
    const result = await this.startSession(user, client);
    if (created) {
      await this.activity.record(user.id, ActivityType.SignUp, { method: 'google' });
      await this.analytics.track(AnalyticsEventName.UserSignup, user.id, { email: user.email, full_name: user.fullName, method: 'google' });
    } else {
      await this.activity.record(user.id, ActivityType.SignIn, { method: 'google', ...(linked ? { linked: true } : {}) });
      await this.analytics.track(AnalyticsEventName.UserSignin, user.id, { method: 'google' });
    }
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
