import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean, IsDefined } from 'class-validator';

/** `{ read: true }`: marks a notification read (there is no way back: `read: false` is refused). */
export class NotificationUpdateDto {
  @ApiProperty({ enum: [true] })
  @IsBoolean({ message: 'read must be true' })
  @IsDefined({ message: 'read is required (send { "read": true })' })
  read: boolean;
}
