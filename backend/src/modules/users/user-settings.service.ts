import { Injectable } from '@nestjs/common';
import { SettingsResponseDto } from './dto/settings-response.dto';
import { DEFAULT_USER_SETTINGS, UserSettingsEntity } from './user-settings.entity';
import { UsersRepository } from './users.repository';

function toResponse(
  s: Pick<UserSettingsEntity, 'emailNotifications' | 'generationNotifications' | 'marketingEmails'>,
): SettingsResponseDto {
  return {
    email_notifications: s.emailNotifications,
    generation_notifications: s.generationNotifications,
    marketing_emails: s.marketingEmails,
  };
}

/** Notification preferences; a user who never saved any has the defaults (on, on, off). */
@Injectable()
export class UserSettingsService {
  constructor(private readonly users: UsersRepository) {}

  async get(userId: string): Promise<SettingsResponseDto> {
    const row = await this.users.findSettings(userId);
    return toResponse(row ?? DEFAULT_USER_SETTINGS);
  }

  async put(userId: string, values: SettingsResponseDto): Promise<SettingsResponseDto> {
    await this.users.upsertSettings({
      userId,
      emailNotifications: values.email_notifications,
      generationNotifications: values.generation_notifications,
      marketingEmails: values.marketing_emails,
      updatedAt: new Date(),
    });
    return this.get(userId);
  }
}
