import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Inject, Logger, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { type AuthUser, Authenticated, CurrentUser } from '../../common/auth';
import { ErrorResponseDto } from '../../common/errors/error-response.dto';
import { RETRY_AFTER_HEADER } from '../../common/response-headers';
import { APP_CONFIG } from '../../config/config.module';
import { AuthMessages } from '../auth/auth-messages';
import { AuthRateLimit } from '../auth/rate-limit/auth-rate-limit';
import { clearRefreshCookie, REFRESH_COOKIE } from '../auth/refresh-cookie';
import { AccountDeletionService } from './account-deletion.service';
import { AccountReauthService, GOOGLE_REAUTH_MINUTES } from './account-reauth.service';
import { DATA_EXPORTS_PER_HOUR, DataExportService } from './data-export.service';
import { AccountDeleteDto } from './dto/account-delete.dto';
import { userIdHash } from './personal-text';
import { PrivacyMessages } from './privacy.exception';
import type { AppConfig } from '../../config/app-config';
import type { Response } from 'express';

@ApiTags('me')
@Authenticated()
@Controller('me')
export class PrivacyController {
  constructor(
    private readonly accounts: AccountDeletionService,
    private readonly reauth: AccountReauthService,
    private readonly exports: DataExportService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('export')
  @ApiProduces('application/zip')
  @ApiOperation({
    summary: 'Download my data ("Download my data"): a ZIP of everything the account holds',
    description:
      'profile.json, settings.json, photos/ and photos.json, results/ and generations.json, credits.json (balance and ledger), ' +
      'activity.json, tickets.json (messages and the replies sent, not staff notes), sessions.json, and a README. The files are the ' +
      `stored photos and results themselves, not links. Written as it is made. At most ${DATA_EXPORTS_PER_HOUR} an hour per account ` +
      '(429 with Retry-After).',
  })
  @ApiOkResponse({
    description: 'the ZIP (Content-Disposition: attachment)',
    content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiTooManyRequestsResponse({ type: ErrorResponseDto, description: 'too many exports this hour', headers: RETRY_AFTER_HEADER })
  async exportMyData(@CurrentUser() user: AuthUser, @Res() res: Response): Promise<void> {
    await this.exports.admit(user.id);
    const day = new Date().toISOString().slice(0, 10);
    const slug =
      this.config.appName
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '') || 'my';
    res.status(200);
    res.setHeader('Content-Type', 'application/zip');
    res.setHeader('Content-Disposition', `attachment; filename="${slug}-data-${day}.zip"`);
    res.setHeader('Cache-Control', 'no-store');
    try {
      await this.exports.write(user.id, this.config.appName, res);
      res.end();
    } catch (error) {
      // the headers are gone already: an archive cut short must not look complete
      new Logger('DataExport').error({ event: 'data_export_failed', account: userIdHash(user.id), err: error }, 'a data export failed');
      res.destroy(error instanceof Error ? error : undefined);
    }
  }

  @Delete()
  @HttpCode(HttpStatus.NO_CONTENT)
  @AuthRateLimit('ip')
  @ApiOperation({
    summary: 'Delete my account and all its data ("Delete All My Data")',
    description:
      'Removes the photos, results, profile, settings, activity and sessions of the caller at once, and clears the refresh cookie ' +
      `\`${REFRESH_COOKIE}\`. Credit ledger entries are kept without the account (the books still add up); analytics events lose ` +
      'their properties. The access token stops working straight away. This cannot be undone. The caller proves again who they are: ' +
      '`code` (a code of the authenticator app, or a recovery code) when two-factor is on, else `password`; an account that signs in ' +
      `with Google only needs a session from a Google sign-in of the last ${GOOGLE_REAUTH_MINUTES} minutes. Without it nothing is deleted.`,
  })
  @ApiNoContentResponse({ description: 'the account is deleted' })
  @ApiBadRequestResponse({
    type: ErrorResponseDto,
    description: `${PrivacyMessages.confirmRequired}; ${PrivacyMessages.passwordRequired}; ${PrivacyMessages.codeRequired}; a wrong password (WRONG_PASSWORD) or code (INVALID_CODE)`,
  })
  @ApiForbiddenResponse({ type: ErrorResponseDto, description: `${AuthMessages.reauthWithGoogle} (REAUTH_REQUIRED)` })
  async deleteMyAccount(
    @CurrentUser() user: AuthUser,
    @Body() body: AccountDeleteDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    await this.reauth.confirm(user, { password: body.password, code: body.code });
    await this.accounts.deleteAccount(user.id);
    clearRefreshCookie(res, this.config.isProduction);
    res.setHeader('Cache-Control', 'no-store');
  }
}
