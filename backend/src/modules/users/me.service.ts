import { Injectable } from '@nestjs/common';
import { ActivityService } from '../analytics/activity.service';
import { AnalyticsService } from '../analytics/analytics.service';
import { ActivityType } from '../analytics/user-activity-log.entity';
import { BillingStatusRepository } from '../billing/billing-status.repository';
import { ProfileResponseDto } from './dto/profile-response.dto';
import { ProfileUpdateDto } from './dto/profile-update.dto';
import { SettingsResponseDto } from './dto/settings-response.dto';
import { SettingsUpdateDto } from './dto/settings-update.dto';
import { StatsResponseDto } from './dto/stats-response.dto';
import { UserSettingsService } from './user-settings.service';
import { UsersService } from './users.service';
import type { ProfileRow } from './users.repository';

/** The signed-in user's own account: profile, settings and stats, always scoped to the caller's id. */
@Injectable()
export class MeService {
  constructor(
    private readonly users: UsersService,
    private readonly settings: UserSettingsService,
    private readonly activity: ActivityService,
    private readonly analytics: AnalyticsService,
    private readonly billing: BillingStatusRepository,
  ) {}

  /**
   * The profile with the billing state (a failed payment Stripe is retrying: the user app shows a
   * banner); `read`: the profile the guard read with the session, when it did.
   */
  async getProfile(userId: string, read?: ProfileRow): Promise<ProfileResponseDto> {
    const [profile, billing] = await Promise.all([this.users.getProfile(userId, read), this.billing.statusOf(userId)]);
    return { ...profile, billing };
  }

  async updateProfile(userId: string, dto: ProfileUpdateDto): Promise<ProfileResponseDto> {
    const { profile, changed } = await this.users.updateProfile(userId, { fullName: dto.full_name, ageConfirmed: dto.age_confirmed });
    if (changed.length) await this.activity.record(userId, ActivityType.ProfileUpdate, { fields: changed });
    return { ...profile, billing: await this.billing.statusOf(userId) };
  }

  getSettings(userId: string): Promise<SettingsResponseDto> {
    return this.settings.get(userId);
  }

  async updateSettings(userId: string, dto: SettingsUpdateDto): Promise<SettingsResponseDto> {
    const saved = await this.settings.put(userId, dto);
    await this.activity.record(userId, ActivityType.SettingsUpdate, { ...saved });
    return saved;
  }

  getStats(userId: string): Promise<StatsResponseDto> {
    return this.analytics.userStats(userId);
  }
}
