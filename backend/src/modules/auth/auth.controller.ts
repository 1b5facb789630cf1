import { Body, Controller, Get, HttpCode, HttpStatus, Inject, Post, Req, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiFoundResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { type AuthUser, Authenticated, CurrentUser } from '../../common/auth';
import { ErrorResponseDto } from '../../common/errors/error-response.dto';
import { AuthError, ErrorMessages } from '../../common/errors';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { UserRole } from '../users/user.entity';
import { AuthMessages } from './auth.exception';
import { AuthService, SessionResult } from './auth.service';
import { AdminCheckResponseDto } from './dto/admin-check-response.dto';
import { AuthSignInDto } from './dto/auth-sign-in.dto';
import { AuthSignUpDto } from './dto/auth-sign-up.dto';
import { SessionResponseDto } from './dto/session-response.dto';
import { GoogleOAuthService } from './google/google-oauth.service';
import { AuthRateLimit } from './rate-limit/auth-rate-limit';
import { clearRefreshCookie, readRefreshCookie, REFRESH_COOKIE, setRefreshCookie } from './refresh-cookie';
import type { ClientInfo } from './sessions.service';

function clientInfo(req: Request): ClientInfo {
  return { userAgent: req.headers['user-agent'] ?? null, ip: req.ip ?? null };
}

@ApiTags('auth')
@Controller('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly google: GoogleOAuthService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('sign-up')
  @AuthRateLimit('credentials')
  @ApiOperation({
    summary: 'Create an account (18+ confirmed) and sign in',
    description: `Sets the refresh cookie \`${REFRESH_COOKIE}\`. A used email answers 409 "${AuthMessages.emailTaken}".`,
  })
  @ApiCreatedResponse({ type: SessionResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'a missing or bad field, age not confirmed, or a too common password' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: AuthMessages.emailTaken })
  async signUp(@Body() body: AuthSignUpDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<SessionResponseDto> {
    return this.answer(res, await this.auth.signUp(body, clientInfo(req)));
  }

  @Post('sign-in')
  @HttpCode(HttpStatus.OK)
  @AuthRateLimit('credentials')
  @ApiOperation({ summary: 'Sign in with email and password', description: `Sets the refresh cookie \`${REFRESH_COOKIE}\`.` })
  @ApiOkResponse({ type: SessionResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: AuthMessages.credentialsRequired })
  @ApiUnauthorizedResponse({ type: ErrorResponseDto, description: `${AuthMessages.invalidCredentials} (code INVALID_CREDENTIALS), whatever the cause` })
  async signIn(@Body() body: AuthSignInDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<SessionResponseDto> {
    return this.answer(res, await this.auth.signIn(body, clientInfo(req)));
  }

  @Post('refresh')
  @HttpCode(HttpStatus.OK)
  @AuthRateLimit('refresh')
  @ApiOperation({
    summary: `Exchange the refresh cookie (${REFRESH_COOKIE}) for a new session; the cookie rotates`,
    description: 'Presenting a refresh token that was already rotated revokes its whole session. Sessions end AUTH_SESSION_TTL_DAYS (30) days after sign-in whatever happens.',
  })
  @ApiOkResponse({ type: SessionResponseDto })
  @ApiUnauthorizedResponse({ type: ErrorResponseDto, description: ErrorMessages.auth })
  async refreshSession(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<SessionResponseDto> {
    try {
      return this.answer(res, await this.auth.refresh(readRefreshCookie(req), clientInfo(req)));
    } catch (error) {
      // a dead session's cookie is useless: drop it (but keep it through a transient failure)
      if (error instanceof AuthError) clearRefreshCookie(res, this.config.isProduction);
      throw error;
    }
  }

  @Post('sign-out')
  @HttpCode(HttpStatus.NO_CONTENT)
  @Authenticated({ optional: true })
  @ApiOperation({ summary: 'Sign out: revokes the session (of the refresh cookie and of the bearer token) and clears the cookie' })
  @ApiNoContentResponse({ description: 'signed out (also when there was no session)' })
  async signOut(@CurrentUser() user: AuthUser | undefined, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<void> {
    await this.auth.signOut(readRefreshCookie(req), user);
    clearRefreshCookie(res, this.config.isProduction);
  }

  @Get('google')
  @ApiOperation({
    summary: 'Start Google sign-in (browser navigation)',
    description: 'Redirects to Google. When Google sign-in is not configured, redirects to `/?auth_error=google_unavailable`.',
  })
  @ApiFoundResponse({ description: "to Google's consent screen" })
  async startGoogleSignIn(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.google.start(req, res);
  }

  @Get('google/callback')
  @ApiOperation({
    summary: 'Where Google sends the browser back',
    description:
      'On success sets the refresh cookie and redirects to `/try` (the user app then calls POST /api/auth/refresh). ' +
      'On failure redirects to `/?auth_error=<code>`: google_unavailable, google_denied, google_state_invalid, google_email_unverified, google_failed.',
  })
  @ApiFoundResponse({ description: 'to /try, or to /?auth_error=<code>' })
  async finishGoogleSignIn(@Req() req: Request, @Res() res: Response): Promise<void> {
    const { location, session } = await this.google.finish(req, res, clientInfo(req));
    if (session) setRefreshCookie(res, session.refreshToken, session.sessionExpiresAt, this.config.isProduction);
    res.redirect(302, location);
  }

  @Get('is-admin')
  @Authenticated()
  @ApiOperation({ summary: 'Whether the caller is an admin (the spec\'s is_admin)' })
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
