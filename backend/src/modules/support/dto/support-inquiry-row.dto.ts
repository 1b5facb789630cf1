import { ApiProperty } from '@nestjs/swagger';
import {
  DELIVERY_STATES,
  INQUIRY_KINDS,
  INQUIRY_PRIORITIES,
  INQUIRY_STATUSES,
  MESSAGE_KINDS,
  type DeliveryState,
  type InquiryKind,
  type InquiryPriority,
  type InquiryStatus,
  type SupportMessageKind,
} from '../support.entities';

export const SLA_STATES = ['ok', 'due_soon', 'overdue'] as const;
export type SlaState = (typeof SLA_STATES)[number];

/** A ticket as the console lists it. */
export class SupportInquiryRowDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: INQUIRY_STATUSES }) status: InquiryStatus;
  @ApiProperty({ enum: INQUIRY_PRIORITIES }) priority: InquiryPriority;
  @ApiProperty({ enum: INQUIRY_KINDS }) kind: InquiryKind;
  @ApiProperty() subject: string;
  @ApiProperty() message: string;
  @ApiProperty() name: string;
  @ApiProperty() email: string;
  @ApiProperty({ nullable: true, type: String, format: 'uuid', description: 'the sender, when signed in' }) user_id: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid', description: 'the generation an abuse report names' }) generation_id:
    string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    enum: ['id', 'link', 'metadata', 'hash', 'none'],
    description: 'how a report found its generation: given, from a link, from an uploaded copy (its metadata or its picture), or not found',
  })
  image_match: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) resolved_at: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'date-time',
    description: 'when the generation the report names was removed from this ticket; null while it was not',
  })
  generation_removed_at: string | null;
  @ApiProperty({ description: 'whole hours since the ticket was sent' }) age_hours: number;
  @ApiProperty({
    enum: SLA_STATES,
    nullable: true,
    description: 'against the 24-48 h promise: ok < 24 h, due_soon 24-48 h, overdue > 48 h; null unless open or in_progress',
  })
  sla: SlaState | null;
}

export class SupportMessageDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: MESSAGE_KINDS }) kind: SupportMessageKind;
  @ApiProperty() body: string;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) author_id: string | null;
  @ApiProperty({ nullable: true, type: String }) author_email: string | null;
  @ApiProperty({
    enum: DELIVERY_STATES,
    nullable: true,
    description: 'replies: queued (waiting for the mail job), sent, logged (no SMTP configured) or failed; null for notes',
  })
  delivered: DeliveryState | null;
  @ApiProperty({ nullable: true, type: String }) delivery_error: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

/** A ticket with its replies and notes, oldest first. */
export class SupportInquiryDetailsDto extends SupportInquiryRowDto {
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'who removed the reported generation (null when not removed, or that account is deleted)',
  })
  generation_removed_by_email: string | null;
  @ApiProperty({ type: [SupportMessageDto] }) messages: SupportMessageDto[];
}
