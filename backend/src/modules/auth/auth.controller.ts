import { Body, Controller, Get, HttpCode, HttpStatus, Inject, Post, Req, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiFoundResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiSecurity,
  ApiTags,
  ApiUnauthorizedResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import { type AuthUser, Authenticated, CurrentUser, SecurityScheme } from '../../common/auth';
import { AuthError, ErrorMessages } from '../../common/errors';
import { ErrorResponseDto } from '../../common/errors/error-response.dto';
import { locationHeader, setCookieHeader } from '../../common/response-headers';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { UserRole } from '../users/user.entity';
import { normalizeEmail } from '../users/users.service';
import { FRESH_ACCOUNT_MESSAGE } from './auth-messages';
import { AuthException, AuthMessages } from './auth.exception';
import { AuthService, SessionResult } from './auth.service';
import { AdminCheckResponseDto } from './dto/admin-check-response.dto';
import {
  EmailResendDto,
  EmailVerifyDto,
  EmailVerifyResponseDto,
  MessageResponseDto,
  PasswordForgotDto,
  PasswordResetDto,
} from './dto/auth-links.dto';
import { AuthSignInMfaDto, MfaChallengeResponseDto } from './dto/auth-mfa.dto';
import { AuthSignInDto } from './dto/auth-sign-in.dto';
import { AuthSignUpDto } from './dto/auth-sign-up.dto';
import { SessionResponseDto, SignUpCheckEmailResponseDto, SignUpSessionResponseDto } from './dto/session-response.dto';
import { GoogleOAuthService } from './google/google-oauth.service';
import { OAUTH_STATE_COOKIE } from './google/signed-cookie-state.store';
import { AuthRateLimit } from './rate-limit/auth-rate-limit';
import { DEVICE_COOKIE, DeviceCookies } from './rate-limit/device-cookie';
import { clearRefreshCookie, readRefreshCookie, REFRESH_COOKIE, REFRESH_COOKIE_PATH, setRefreshCookie } from './refresh-cookie';
import type { ClientInfo } from './sessions.service';
import type { Request, Response } from 'express';

/** The Set-Cookie of a session answer: the refresh cookie, and the device cookie of DeviceCookies. */
const SESSION_COOKIE = setCookieHeader(
  `the refresh cookie ${REFRESH_COOKIE} (httpOnly, path ${REFRESH_COOKIE_PATH}), and the device cookie ${DEVICE_COOKIE} that remembers the account on this browser`,
);

function clientInfo(req: Request): ClientInfo {
  return { userAgent: req.headers['user-agent'] ?? null, ip: req.ip ?? null };
}

@ApiTags('auth')
@ApiExtraModels(SessionResponseDto, MfaChallengeResponseDto, SignUpSessionResponseDto, SignUpCheckEmailResponseDto)
@Controller('auth')
export class AuthController {
  private readonly devices: DeviceCookies;

  constructor(
    private readonly auth: AuthService,
    private readonly google: GoogleOAuthService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.devices = new DeviceCookies(config.auth.jwtSecret, config.isProduction);
  }

  @Post('sign-up')
  @AuthRateLimit('email')
  @ApiOperation({
    summary: 'Create an account (18+ confirmed) and sign in; an address that has an account gets a mail instead',
    description:
      `A new address: 201, the account (unverified: a link is mailed, and uploading or generating waits for it) and its session, ` +
      `with the refresh cookie \`${REFRESH_COOKIE}\`. An address that already has an account: 202, no account is made and nobody is ` +
      'signed in; the address is mailed a way to sign in or to choose a password. Both answers carry the same `message` ' +
      '("We\'ve sent a link to <address>...") and take about the same time; only the session tells them apart (docs/accounts.md).',
  })
  @ApiCreatedResponse({ type: SignUpSessionResponseDto, headers: SESSION_COOKIE, description: 'a new account, signed in' })
  @ApiAcceptedResponse({ type: SignUpCheckEmailResponseDto, description: 'the address has an account: see the mail' })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'a missing or bad field, age not confirmed, or a too common password' })
  async signUp(
    @Body() body: AuthSignUpDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SignUpSessionResponseDto | SignUpCheckEmailResponseDto> {
    const outcome = await this.auth.signUp(body, clientInfo(req));
    res.setHeader('Cache-Control', 'no-store');
    if ('checkEmail' in outcome) {
      res.status(HttpStatus.ACCEPTED);
      return { message: AuthMessages.signUpLinkSent(outcome.checkEmail), check_email: true };
    }
    this.devices.remember(req, res, outcome.session.body.user.email);
    return { ...this.answer(res, outcome.session), message: AuthMessages.signUpLinkSent(outcome.email) };
  }

  @Post('sign-in')
  @HttpCode(HttpStatus.OK)
  @AuthRateLimit('ip')
  @ApiOperation({
    summary: 'Sign in with email and password',
    description:
      `Sets the refresh cookie \`${REFRESH_COOKIE}\`. With two-factor on, answers \`{ mfa_required: true, mfa_token }\` instead: ` +
      'send the token with a code to POST /api/auth/sign-in/2fa. Failures are counted per account and client (a browser that signed in ' +
      'before keeps its own count), and answer 429 with Retry-After past AUTH_RATE_LIMIT_EMAIL_MAX.',
  })
  @ApiOkResponse({
    schema: { oneOf: [{ $ref: getSchemaPath(SessionResponseDto) }, { $ref: getSchemaPath(MfaChallengeResponseDto) }] },
    headers: setCookieHeader(
      `with a session answer only: the refresh cookie ${REFRESH_COOKIE} (httpOnly, path ${REFRESH_COOKIE_PATH}) and the device cookie ${DEVICE_COOKIE}`,
    ),
  })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: AuthMessages.credentialsRequired })
  @ApiUnauthorizedResponse({
    type: ErrorResponseDto,
    description: `${AuthMessages.invalidCredentials} (code INVALID_CREDENTIALS), whatever the cause`,
  })
  async signIn(
    @Body() body: AuthSignInDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SessionResponseDto | MfaChallengeResponseDto> {
    const device = this.devices.read(req);
    const trusted = this.devices.trusts(device, normalizeEmail(body.email));
    const outcome = await this.auth.signIn(body, { ...clientInfo(req), trustedDevice: trusted ? device!.nonce : null });
    res.setHeader('Cache-Control', 'no-store');
    if ('mfaToken' in outcome) return { mfa_required: true, mfa_token: outcome.mfaToken };
    this.devices.remember(req, res, outcome.session.body.user.email);
    return this.answer(res, outcome.session);
  }

  @Post('sign-in/2fa')
  @HttpCode(HttpStatus.OK)
  @AuthRateLimit('ip')
  @ApiOperation({
    summary: 'Finish a sign-in with two-factor on: the mfa_token and a code of the app, or a recovery code',
    description: 'The token lives 5 minutes and takes 5 wrong codes; after that (code MFA_EXPIRED) sign in again. Sets the refresh cookie.',
  })
  @ApiOkResponse({ type: SessionResponseDto, headers: SESSION_COOKIE })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: `${AuthMessages.invalidCode} (INVALID_CODE)` })
  @ApiUnauthorizedResponse({ type: ErrorResponseDto, description: `${AuthMessages.mfaExpired} (MFA_EXPIRED)` })
  async signInWithCode(
    @Body() body: AuthSignInMfaDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SessionResponseDto> {
    const result = await this.auth.signInWithCode(body.mfa_token, { code: body.code, recovery_code: body.recovery_code }, clientInfo(req));
    this.devices.remember(req, res, result.body.user.email);
    return this.answer(res, result);
  }

  @Post('refresh')
  @HttpCode(HttpStatus.OK)
  @AuthRateLimit('refresh')
  @ApiSecurity(SecurityScheme.RefreshCookie)
  @ApiOperation({
    summary: `Exchange the refresh cookie (${REFRESH_COOKIE}) for a new session; the cookie rotates`,
    description:
      'Presenting again the refresh token a refresh replaced revokes its whole session (a replay); any other wrong token is only refused. ' +
      'Sessions end AUTH_SESSION_TTL_DAYS (30) days after sign-in whatever happens.',
  })
  @ApiOkResponse({
    type: SessionResponseDto,
    headers: setCookieHeader(
      `the new refresh cookie ${REFRESH_COOKIE} (httpOnly, path ${REFRESH_COOKIE_PATH}): the old one no longer works`,
    ),
  })
  @ApiUnauthorizedResponse({ type: ErrorResponseDto, description: ErrorMessages.auth })
  async refreshSession(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<SessionResponseDto> {
    try {
      return this.answer(res, await this.auth.refresh(readRefreshCookie(req), clientInfo(req)));
    } catch (error) {
      // a dead session's cookie is useless: drop it (but keep it through a transient failure)
      if (error instanceof AuthError || (error instanceof AuthException && error.statusCode === 401)) {
        clearRefreshCookie(res, this.config.isProduction);
      }
      throw error;
    }
  }

  @Post('sign-out')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiSecurity(SecurityScheme.RefreshCookie)
  @Authenticated({ optional: true })
  @ApiOperation({
    summary: 'Sign out: revokes the session (of the refresh cookie and of the bearer token) and clears the cookie',
    description:
      'Works with the refresh cookie, the bearer token, both or neither: whatever session they name ends, and the answer is 204 ' +
      'either way, so a client can always sign out. Other sessions of the account stay.',
  })
  @ApiNoContentResponse({ description: 'signed out (also when there was no session)' })
  async signOut(@CurrentUser() user: AuthUser | undefined, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<void> {
    await this.auth.signOut(readRefreshCookie(req), user);
    clearRefreshCookie(res, this.config.isProduction);
  }

  @Post('verify-email')
  @HttpCode(HttpStatus.OK)
  @AuthRateLimit('ip')
  @ApiOperation({
    summary: 'Confirm an email address with the token of the mailed link ($APP_URL/verify-email?token=...)',
    description:
      'Single use, valid 24 hours. Other unverified accounts that used the same address are removed, and the address is told by mail. ' +
      'When other sign-ups of the address were waiting, the account starts afresh (whoever opened the link may not have made it): ' +
      'its sessions end, and the mailed notice carries a link to choose a password.',
  })
  @ApiOkResponse({ type: EmailVerifyResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: `${AuthMessages.invalidLink} (INVALID_LINK)` })
  async verifyEmail(@Body() body: EmailVerifyDto): Promise<EmailVerifyResponseDto> {
    const { fresh } = await this.auth.verifyEmail(body.token);
    return { message: fresh ? FRESH_ACCOUNT_MESSAGE : AuthMessages.emailVerified, starts_afresh: fresh };
  }

  @Post('verify-email/resend')
  @HttpCode(HttpStatus.ACCEPTED)
  @Authenticated({ optional: true })
  @AuthRateLimit('email')
  @ApiOperation({
    summary: 'Mail a new verification link: to the signed-in caller, or (signed out) to `email`',
    description: 'Answers the same whatever the address; at most 5 links an hour per account are mailed.',
  })
  @ApiAcceptedResponse({ type: MessageResponseDto })
  async resendEmailVerification(@CurrentUser() user: AuthUser | undefined, @Body() body: EmailResendDto): Promise<MessageResponseDto> {
    await this.auth.resendVerification(user, body.email);
    return { message: AuthMessages.verificationSent };
  }

  @Post('password/forgot')
  @HttpCode(HttpStatus.ACCEPTED)
  @AuthRateLimit('email')
  @ApiOperation({
    summary: '"Forgot password?": mail a reset link ($APP_URL/reset-password?token=..., valid 1 hour)',
    description: 'The same answer, in about the same time, whether or not the address has an account.',
  })
  @ApiAcceptedResponse({ type: MessageResponseDto })
  async requestPasswordReset(@Body() body: PasswordForgotDto): Promise<MessageResponseDto> {
    await this.auth.forgotPassword(body.email);
    return { message: AuthMessages.resetRequested };
  }

  @Post('password/reset')
  @HttpCode(HttpStatus.OK)
  @AuthRateLimit('ip')
  @ApiOperation({
    summary: 'Set a new password with the token of the mailed link',
    description:
      'Every session of the account ends (sign in again), the address counts as verified, and a "password changed" mail is sent. ' +
      'An unverified account starts afresh: what its maker set (two-factor, settings, name, uploads...) is discarded.',
  })
  @ApiOkResponse({ type: MessageResponseDto })
  @ApiBadRequestResponse({
    type: ErrorResponseDto,
    description: `${AuthMessages.invalidLink} (INVALID_LINK), or a too short or too common password`,
  })
  async resetPassword(@Body() body: PasswordResetDto): Promise<MessageResponseDto> {
    await this.auth.resetPassword(body.token, body.password);
    return { message: AuthMessages.passwordReset };
  }

  @Get('google')
  @ApiOperation({
    summary: 'Start Google sign-in (browser navigation)',
    description: 'Redirects to Google. When Google sign-in is not configured, redirects to `/?auth_error=google_unavailable`.',
  })
  @ApiFoundResponse({
    description: "to Google's consent screen",
    headers: {
      ...locationHeader(
        "Google's consent screen; `$APP_URL/?auth_error=google_unavailable` when Google sign-in is not configured (google_failed when the redirect cannot be made)",
      ),
      ...setCookieHeader(
        `when redirecting to Google: the signed, single-use OAuth state cookie ${OAUTH_STATE_COOKIE}, checked by the callback`,
      ),
    },
  })
  async startGoogleSignIn(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.google.start(req, res);
  }

  @Get('google/callback')
  @ApiOperation({
    summary: 'Where Google sends the browser back',
    description:
      'On success sets the refresh cookie and redirects to `/try` (the user app then calls POST /api/auth/refresh). With two-factor on, ' +
      'redirects to `/?auth=2fa#mfa_token=<token>` for the code. On failure redirects to `/?auth_error=<code>`: google_unavailable, ' +
      'google_denied, google_state_invalid, google_email_unverified, google_failed.',
  })
  @ApiFoundResponse({
    description: 'to /try, to the two-factor step, or to /?auth_error=<code>',
    headers: {
      ...locationHeader('`$APP_URL/try`, `$APP_URL/?auth=2fa#mfa_token=<token>`, or `$APP_URL/?auth_error=<code>`'),
      ...setCookieHeader(
        `on success without two-factor: the refresh cookie ${REFRESH_COOKIE} (httpOnly, path ${REFRESH_COOKIE_PATH}) and the device cookie ${DEVICE_COOKIE}`,
      ),
    },
  })
  async finishGoogleSignIn(@Req() req: Request, @Res() res: Response): Promise<void> {
    const { location, session } = await this.google.finish(req, res, clientInfo(req));
    if (session) {
      setRefreshCookie(res, session.refreshToken, session.sessionExpiresAt, this.config.isProduction);
      this.devices.remember(req, res, session.body.user.email);
    }
    res.redirect(302, location);
  }

  @Get('is-admin')
  @Authenticated()
  @ApiOperation({
    summary: "Whether the caller is an admin (the product's is_admin)",
    description: 'True for the admin role only: support staff and users answer false.',
  })
  @ApiOkResponse({ type: AdminCheckResponseDto })
  isAdmin(@CurrentUser() user: AuthUser): AdminCheckResponseDto {
    return { is_admin: user.role === UserRole.Admin };
  }

  private answer(res: Response, result: SessionResult): SessionResponseDto {
    setRefreshCookie(res, result.refreshToken, result.sessionExpiresAt, this.config.isProduction);
    res.setHeader('Cache-Control', 'no-store');
    return result.body;
  }
}
