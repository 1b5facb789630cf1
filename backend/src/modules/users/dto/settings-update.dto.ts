import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';

/** PUT /api/me/settings: the whole set of preferences. */
export class SettingsUpdateDto {
  @ApiProperty()
  @IsBoolean()
  email_notifications: boolean;

  @ApiProperty()
  @IsBoolean()
  generation_notifications: boolean;

  @ApiProperty()
  @IsBoolean()
  marketing_emails: boolean;
}
