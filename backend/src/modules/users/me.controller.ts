import { Body, Controller, Get, Patch, Put } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AuthUser, Authenticated, CurrentUser, ReadsProfile } from '../../common/auth';
import { ErrorResponseDto } from '../../common/errors/error-response.dto';
import { ProfileResponseDto } from './dto/profile-response.dto';
import { ProfileUpdateDto } from './dto/profile-update.dto';
import { SettingsResponseDto } from './dto/settings-response.dto';
import { SettingsUpdateDto } from './dto/settings-update.dto';
import { StatsResponseDto } from './dto/stats-response.dto';
import { MeService } from './me.service';

@ApiTags('me')
@Authenticated()
@Controller('me')
export class MeController {
  constructor(private readonly me: MeService) {}

  @Get()
  @Authenticated({ scopes: ['account:read'] })
  @ApiOperation({
    summary: 'My profile, with tier and credits',
    description:
      'Also the role, the credit balance (subscription, purchased and held credits), and whether the address is verified, the 18+ ' +
      'confirmation given, two-factor on and a password set.',
  })
  @ApiOkResponse({ type: ProfileResponseDto })
  @ReadsProfile()
  getMe(@CurrentUser() user: AuthUser): Promise<ProfileResponseDto> {
    return this.me.getProfile(user.id, user.profile);
  }

  @Patch()
  @ApiOperation({
    summary: 'Change my full name (the email cannot be changed), or confirm once that I am 18 or older',
    description:
      'Send only what changes. `age_confirmed` accepts only true (Google accounts start unconfirmed) and cannot be undone. ' +
      'Any other field, email included, is refused (400). Answers the updated profile.',
  })
  @ApiOkResponse({ type: ProfileResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'an unknown field (email included) or a bad value' })
  updateMe(@CurrentUser() user: AuthUser, @Body() body: ProfileUpdateDto): Promise<ProfileResponseDto> {
    return this.me.updateProfile(user.id, body);
  }

  @Get('settings')
  @ApiOperation({
    summary: 'My notification preferences',
    description: 'email_notifications and generation_notifications are on and marketing_emails off until changed.',
  })
  @ApiOkResponse({ type: SettingsResponseDto })
  getMySettings(@CurrentUser() user: AuthUser): Promise<SettingsResponseDto> {
    return this.me.getSettings(user.id);
  }

  @Put('settings')
  @ApiOperation({
    summary: 'Save my notification preferences',
    description: 'The whole set at once: all three booleans are required. Answers the saved preferences.',
  })
  @ApiOkResponse({ type: SettingsResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto })
  updateMySettings(@CurrentUser() user: AuthUser, @Body() body: SettingsUpdateDto): Promise<SettingsResponseDto> {
    return this.me.updateSettings(user.id, body);
  }

  @Get('stats')
  @Authenticated({ scopes: ['account:read'] })
  @ApiOperation({
    summary: 'My generation statistics and last activity',
    description:
      'Generations in total, successful and failed, credits spent, and the latest recorded activity: zeros and null when there is nothing yet.',
  })
  @ApiOkResponse({ type: StatsResponseDto })
  getMyStats(@CurrentUser() user: AuthUser): Promise<StatsResponseDto> {
    return this.me.getStats(user.id);
  }
}
