import { Body, Controller, Get, HttpCode, HttpStatus, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AuthUser, Authenticated, CurrentUser } from '../../common/auth';
import { ErrorResponseDto } from '../../common/errors/error-response.dto';
import { ActivityService } from '../analytics/activity.service';
import { ActivityType } from '../analytics/user-activity-log.entity';
import { AuthMessages } from './auth.exception';
import { AuthService } from './auth.service';
import { MessageResponseDto } from './dto/auth-links.dto';
import {
  PasswordChangeDto,
  RecoveryCodesLeftResponseDto,
  RecoveryCodesRenewDto,
  RecoveryCodesResponseDto,
  TwoFactorDisableDto,
  TwoFactorEnableDto,
  TwoFactorSetupResponseDto,
} from './dto/two-factor.dto';
import { AuthRateLimit } from './rate-limit/auth-rate-limit';
import { RECOVERY_CODE_COUNT } from './two-factor/totp';
import { TwoFactorService } from './two-factor/two-factor.service';

/** Settings' security: change password and two-factor authentication. */
@ApiTags('me')
@Authenticated()
@Controller('me')
export class MeSecurityController {
  constructor(
    private readonly auth: AuthService,
    private readonly twoFactor: TwoFactorService,
    private readonly activity: ActivityService,
  ) {}

  @Post('password')
  @HttpCode(HttpStatus.OK)
  @AuthRateLimit('ip')
  @ApiOperation({
    summary: 'Change my password (the current one is needed); my other sessions end and a notice is mailed',
    description:
      'The session making the call stays signed in; pending password-reset links stop working. An account that signs in with Google ' +
      'only has no password to change (NO_PASSWORD): it sets one through "Forgot password?".',
  })
  @ApiOkResponse({ type: MessageResponseDto })
  @ApiBadRequestResponse({
    type: ErrorResponseDto,
    description: `${AuthMessages.wrongPassword} (WRONG_PASSWORD), ${AuthMessages.noPassword} (NO_PASSWORD), or a too short or common password`,
  })
  async changeMyPassword(@CurrentUser() user: AuthUser, @Body() body: PasswordChangeDto): Promise<MessageResponseDto> {
    await this.auth.changePassword(user, body.current_password, body.new_password);
    return { message: 'Your password was changed. Your other devices were signed out.' };
  }

  @Post('2fa/setup')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Start turning on two-factor: a new secret for an authenticator app (TOTP: SHA-1, 6 digits, 30 s)',
    description: 'Nothing changes at sign-in until POST /api/me/2fa/enable confirms a code.',
  })
  @ApiOkResponse({ type: TwoFactorSetupResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'two-factor is already on' })
  setUpMyTwoFactor(@CurrentUser() user: AuthUser): Promise<TwoFactorSetupResponseDto> {
    return this.twoFactor.setup(user.id);
  }

  @Post('2fa/enable')
  @HttpCode(HttpStatus.OK)
  @AuthRateLimit('ip')
  @ApiOperation({
    summary: 'Turn two-factor on with a code from the app; answers ten single-use recovery codes, shown this once',
    description:
      'Confirms the secret of POST /api/me/2fa/setup (400 when no setup is waiting); from then on signing in asks for a code. ' +
      'A notice is mailed.',
  })
  @ApiOkResponse({ type: RecoveryCodesResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: `${AuthMessages.invalidCode} (INVALID_CODE)` })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'two-factor is already on' })
  async enableMyTwoFactor(@CurrentUser() user: AuthUser, @Body() body: TwoFactorEnableDto): Promise<RecoveryCodesResponseDto> {
    const codes = await this.twoFactor.enable(user.id, body.code);
    await this.auth.sendAccountMail({ kind: 'two-factor', userId: user.id, enabled: true });
    await this.activity.record(user.id, ActivityType.TwoFactorEnabled);
    return { recovery_codes: codes };
  }

  @Post('2fa/disable')
  @HttpCode(HttpStatus.OK)
  @AuthRateLimit('ip')
  @ApiOperation({
    summary: 'Turn two-factor off: needs a code from the app or a recovery code',
    description:
      'The secret and the remaining recovery codes are dropped and signing in asks for the password only. A notice is mailed. 409 when two-factor is not on.',
  })
  @ApiOkResponse({ type: MessageResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: `${AuthMessages.invalidCode} (INVALID_CODE)` })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'two-factor is not on' })
  async disableMyTwoFactor(@CurrentUser() user: AuthUser, @Body() body: TwoFactorDisableDto): Promise<MessageResponseDto> {
    const looksLikeRecovery = body.code !== undefined && /[a-z]/i.test(body.code);
    await this.twoFactor.disable(
      user.id,
      looksLikeRecovery ? { recovery_code: body.code } : { code: body.code, recovery_code: body.recovery_code },
    );
    await this.auth.sendAccountMail({ kind: 'two-factor', userId: user.id, enabled: false });
    await this.activity.record(user.id, ActivityType.TwoFactorDisabled);
    return { message: 'Two-factor authentication is off.' };
  }

  @Get('2fa/recovery-codes')
  @ApiOperation({
    summary: 'How many of my recovery codes are left',
    description: 'The codes themselves are shown once, when made. `remaining` is null when two-factor is off.',
  })
  @ApiOkResponse({ type: RecoveryCodesLeftResponseDto })
  async getMyRecoveryCodes(@CurrentUser() user: AuthUser): Promise<RecoveryCodesLeftResponseDto> {
    return { remaining: await this.twoFactor.recoveryCodesLeft(user.id), total: RECOVERY_CODE_COUNT };
  }

  @Post('2fa/recovery-codes')
  @HttpCode(HttpStatus.OK)
  @AuthRateLimit('ip')
  @ApiOperation({
    summary: 'Renew my recovery codes with a code from the app: a new set of ten, shown this once; the old ones stop working',
    description: 'A recovery code cannot renew the set (INVALID_CODE). 409 when two-factor is not on. A notice is mailed.',
  })
  @ApiOkResponse({ type: RecoveryCodesResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: `${AuthMessages.invalidCode} (INVALID_CODE)` })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'two-factor is not on' })
  async renewMyRecoveryCodes(@CurrentUser() user: AuthUser, @Body() body: RecoveryCodesRenewDto): Promise<RecoveryCodesResponseDto> {
    const codes = await this.twoFactor.renewRecoveryCodes(user.id, body.code);
    await this.auth.sendAccountMail({ kind: 'two-factor', userId: user.id, enabled: true, renewed: true });
    return { recovery_codes: codes };
  }
}
