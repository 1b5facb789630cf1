import { ApiProperty } from '@nestjs/swagger';
import { NOTIFICATION_SEVERITIES, type NotificationSeverity } from '../system-notification.entity';

/** A system notification as the console lists it. */
export class NotificationRowDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({
    example: 'abuse_report',
    description: 'support_inquiry, abuse_report, generation_failures, queue_backlog, account_deleted',
  })
  type: string;
  @ApiProperty() title: string;
  @ApiProperty() message: string;
  @ApiProperty({ enum: NOTIFICATION_SEVERITIES }) severity: NotificationSeverity;
  @ApiProperty() read: boolean;
  @ApiProperty({ nullable: true, type: String, format: 'uuid', description: 'the user who marked it read' }) read_by: string | null;
  @ApiProperty({ nullable: true, type: String, description: "the reader's email (null once that account is gone)" }) read_by_email:
    string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) read_at: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}
