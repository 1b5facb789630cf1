import { ApiProperty } from '@nestjs/swagger';
import {
  INQUIRY_KINDS,
  INQUIRY_PRIORITIES,
  INQUIRY_STATUSES,
  type InquiryKind,
  type InquiryPriority,
  type InquiryStatus,
} from '../support.entities';

/** The answer to the contact form. */
export class SupportInquiryCreatedDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: 'integer', example: 1042, description: 'the ticket number to quote (#1042)' }) number: number;
  @ApiProperty({ enum: INQUIRY_STATUSES }) status: InquiryStatus;
  @ApiProperty({ enum: INQUIRY_KINDS }) kind: InquiryKind;
  @ApiProperty({ enum: INQUIRY_PRIORITIES }) priority: InquiryPriority;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}
