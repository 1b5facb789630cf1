import { Inject, Injectable, Logger } from '@nestjs/common';
import passport from 'passport';
import { Profile, Strategy as GoogleStrategy } from 'passport-google-oauth20';
import { AppConfig } from '../../../config/app-config';
import { APP_CONFIG } from '../../../config/config.module';
import { GoogleAuthError } from '../auth.exception';
import { AuthService, GoogleIdentity, SessionResult } from '../auth.service';
import { SignedCookieStateStore, StateFailure } from './signed-cookie-state.store';
import type { ClientInfo } from '../sessions.service';
import type { Request, Response } from 'express';
import type { StateStore } from 'passport-oauth2';

const STRATEGY = 'google';

type ProviderOutcome = { identity: GoogleIdentity } | { error: GoogleAuthError };

/** Where to send the browser after Google's callback, and the session to set when it succeeded. */
export interface GoogleCallbackResult {
  location: string;
  session?: SessionResult;
}

/**
 * The OAuth 2.0 / OpenID Connect protocol with Google through passport-google-oauth20, on a private
 * passport instance (no express-session: the state and PKCE verifier live in a signed cookie).
 * It establishes who the person is; AuthService decides which account that is. Every outcome is a
 * redirect: to /try, or to the landing page with `?auth_error=<code>`.
 */
@Injectable()
export class GoogleOAuthService {
  private readonly logger = new Logger('GoogleOAuth');
  private readonly passport = new passport.Authenticator();
  readonly enabled: boolean;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly auth: AuthService,
  ) {
    const google = config.auth.google;
    this.enabled = Boolean(google);
    if (!google) return;
    const strategy = new GoogleStrategy(
      {
        clientID: google.clientId,
        clientSecret: google.clientSecret,
        callbackURL: `${config.appUrl}/api/auth/google/callback`,
        authorizationURL: google.authorizationUrl,
        tokenURL: google.tokenUrl,
        userProfileURL: google.userInfoUrl,
        scope: ['openid', 'email', 'profile'],
        pkce: true,
        state: true,
        store: new SignedCookieStateStore(config.auth.jwtSecret, config.isProduction) as unknown as StateStore,
      },
      (_accessToken: string, _refreshToken: string, profile: Profile, done: (err: unknown, user?: GoogleIdentity) => void) => {
        const json = (profile._json ?? {}) as { sub?: string; email?: string; email_verified?: boolean | string; name?: string };
        done(null, {
          sub: String(json.sub ?? profile.id),
          email: json.email ?? profile.emails?.[0]?.value,
          emailVerified: json.email_verified === true || json.email_verified === 'true',
          name: json.name ?? profile.displayName,
        });
      },
    );
    // send the access token to the userinfo endpoint in the Authorization header, not in the URL (logs)
    (strategy as unknown as { _oauth2: { useAuthorizationHeaderforGET(use: boolean): void } })._oauth2.useAuthorizationHeaderforGET(true);
    this.passport.use(STRATEGY, strategy);
  }

  /** Redirects the browser to Google's consent screen (setting the state cookie). */
  start(req: Request, res: Response): Promise<void> {
    if (!this.enabled) {
      res.redirect(302, this.errorUrl(GoogleAuthError.Unavailable));
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      res.once('finish', () => resolve());
      this.passport.authenticate(STRATEGY, { session: false }, (err: unknown) => {
        // only reached when the redirect could not be made
        this.logger.error({ err }, 'could not start Google sign-in');
        res.redirect(302, this.errorUrl(GoogleAuthError.Failed));
      })(req, res, () => resolve());
    });
  }

  /** Handles Google's redirect back: the state, the code exchange, the userinfo, then the account and its session. */
  async finish(req: Request, res: Response, client: ClientInfo): Promise<GoogleCallbackResult> {
    if (!this.enabled) return { location: this.errorUrl(GoogleAuthError.Unavailable) };
    const outcome = await this.authenticate(req, res);
    if ('error' in outcome) return { location: this.errorUrl(outcome.error) };
    try {
      const result = await this.auth.signInWithGoogle(outcome.identity, client);
      if ('error' in result) return { location: this.errorUrl(result.error) };
      // two-factor on: the code is asked on the landing page; the token rides in the fragment, which no server or log sees
      if ('mfaToken' in result) return { location: `${this.config.appUrl}/?auth=2fa#mfa_token=${encodeURIComponent(result.mfaToken)}` };
      return { location: this.successUrl(), session: result.session };
    } catch (error) {
      this.logger.error({ err: error }, 'Google sign-in failed after the provider answered');
      return { location: this.errorUrl(GoogleAuthError.Failed) };
    }
  }

  private authenticate(req: Request, res: Response): Promise<ProviderOutcome> {
    return new Promise((resolve) => {
      this.passport.authenticate(STRATEGY, { session: false }, (err: unknown, identity: GoogleIdentity | false, info: unknown) => {
        if (err) {
          this.logger.warn({ err }, 'Google sign-in failed');
          return resolve({ error: GoogleAuthError.Failed });
        }
        if (!identity) {
          if ((info as StateFailure | undefined)?.reason === 'state') return resolve({ error: GoogleAuthError.StateInvalid });
          return resolve({ error: req.query.error ? GoogleAuthError.Denied : GoogleAuthError.Failed });
        }
        resolve({ identity });
      })(req, res, () => resolve({ error: GoogleAuthError.Failed }));
    });
  }

  /** Where the browser lands after a failed Google sign-in: the landing page, which shows the error. */
  private errorUrl(code: GoogleAuthError): string {
    return `${this.config.appUrl}/?auth_error=${encodeURIComponent(code)}`;
  }

  private successUrl(): string {
    return `${this.config.appUrl}/try`;
  }
}
