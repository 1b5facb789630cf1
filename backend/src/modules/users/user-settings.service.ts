import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { SettingsResponseDto } from './dto/settings-response.dto';
import { DEFAULT_USER_SETTINGS, UserSettingsEntity } from './user-settings.entity';

function toResponse(s: Pick<UserSettingsEntity, 'emailNotifications' | 'generationNotifications' | 'marketingEmails'>): SettingsResponseDto {
  return {
    email_notifications: s.emailNotifications,
    generation_notifications: s.generationNotifications,
    marketing_emails: s.marketingEmails,
  };
}

/** Notification preferences; a user who never saved any has the defaults (on, on, off). */
@Injectable()
export class UserSettingsService {
  constructor(@InjectRepository(UserSettingsEntity) private readonly settings: Repository<UserSettingsEntity>) {}

  async get(userId: string): Promise<SettingsResponseDto> {
    const row = await this.settings.findOne({ where: { userId } });
    return toResponse(row ?? DEFAULT_USER_SETTINGS);
  }

  async put(userId: string, values: SettingsResponseDto): Promise<SettingsResponseDto> {
    await this.settings.upsert(
      {
        userId,
        emailNotifications: values.email_notifications,
        generationNotifications: values.generation_notifications,
        marketingEmails: values.marketing_emails,
        updatedAt: new Date(),
      },
      { conflictPaths: ['userId'] },
    );
    return this.get(userId);
  }
}
