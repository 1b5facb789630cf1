import { Body, Controller, Delete, HttpCode, HttpStatus, Inject, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AuthUser, Authenticated, CurrentUser } from '../../common/auth';
import { ErrorResponseDto } from '../../common/errors/error-response.dto';
import { APP_CONFIG } from '../../config/config.module';
import { clearRefreshCookie, REFRESH_COOKIE } from '../auth/refresh-cookie';
import { AccountDeletionService } from './account-deletion.service';
import { AccountDeleteDto } from './dto/account-delete.dto';
import { PrivacyMessages } from './privacy.exception';
import type { AppConfig } from '../../config/app-config';
import type { Response } from 'express';

@ApiTags('me')
@Authenticated()
@Controller('me')
export class PrivacyController {
  constructor(
    private readonly accounts: AccountDeletionService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Delete()
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({
    summary: 'Delete my account and all its data ("Delete All My Data")',
    description:
      'Removes the photos, results, profile, settings, activity and sessions of the caller at once, and clears the refresh cookie ' +
      `\`${REFRESH_COOKIE}\`. Credit ledger entries are kept without the account (the books still add up); analytics events lose ` +
      'their properties. The access token stops working straight away. This cannot be undone.',
  })
  @ApiNoContentResponse({ description: 'the account is deleted' })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: PrivacyMessages.confirmRequired })
  async deleteMyAccount(
    @CurrentUser() user: AuthUser,
    @Body() _body: AccountDeleteDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    await this.accounts.deleteAccount(user.id);
    clearRefreshCookie(res, this.config.isProduction);
    res.setHeader('Cache-Control', 'no-store');
  }
}
