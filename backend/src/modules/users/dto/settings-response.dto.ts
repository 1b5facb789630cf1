import { ApiProperty } from '@nestjs/swagger';

/** Notification preferences. */
export class SettingsResponseDto {
  @ApiProperty({ default: true })
  email_notifications: boolean;

  @ApiProperty({ default: true })
  generation_notifications: boolean;

  @ApiProperty({ default: false })
  marketing_emails: boolean;
}
