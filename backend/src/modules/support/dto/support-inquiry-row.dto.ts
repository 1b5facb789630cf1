import { ApiProperty } from '@nestjs/swagger';
import {
  DELIVERY_STATES,
  IMAGE_MATCHES,
  INQUIRY_KINDS,
  INQUIRY_PRIORITIES,
  INQUIRY_STATUSES,
  MESSAGE_KINDS,
  type DeliveryState,
  type ImageMatch,
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
  @ApiProperty({ type: 'integer', example: 1042, description: 'the ticket number people see (#1042)' }) number: number;
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
    enum: IMAGE_MATCHES,
    description:
      'how a report found its generation: given (id), from a link, from an uploaded copy (its metadata; hash: its picture, one result clearly ahead of ' +
      'every other), candidates (the copy looks like several results: an admin chooses), chosen (an admin chose among them), or none',
  })
  image_match: ImageMatch | null;
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
  @ApiProperty({ type: 'integer', description: 'whole hours since the ticket was sent' }) age_hours: number;
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

/** A result a report names or offers, as the ticket shows it beside the copy. */
export class ReviewedResultDto {
  @ApiProperty({ format: 'uuid' }) generation_id: string;
  @ApiProperty({ description: 'false once the generation is gone (removed, or its account deleted)' }) exists: boolean;
  @ApiProperty({ nullable: true, type: String, enum: ['image', 'video'] }) type: 'image' | 'video' | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) created_at: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'a signed link to the result, valid 5 minutes; only for those who may see results (admins), null for support or when gone',
  })
  result_url: string | null;
}

/** A result a report's copy looks like, and how much. */
export class ReportCandidateDto extends ReviewedResultDto {
  @ApiProperty({
    description: '0-100: the share of the result (inside the copy) that agrees with the copy; or of the 64 bits of the older hash',
  })
  score: number;
  @ApiProperty({ nullable: true, type: Number, description: "share (0-1) of the result's grid inside the copy that agrees with it" })
  agreement: number | null;
  @ApiProperty({ nullable: true, type: Number, description: 'share (0-1) of the result the copy shows' }) coverage: number | null;
  @ApiProperty({ nullable: true, type: 'integer', description: 'corners of the result found in the copy, in place' }) inliers:
    number | null;
  @ApiProperty({
    nullable: true,
    type: 'integer',
    description: 'a result without a picture signature yet, found by the older 64-bit hash: the bits that differ',
  })
  hash_distance: number | null;
}

/** A ticket with its replies and notes, oldest first. */
export class SupportInquiryDetailsDto extends SupportInquiryRowDto {
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      'the copy a report uploaded, kept privately (re-encoded, no metadata): a signed link valid 5 minutes; null without one, or once deleted',
  })
  reported_image_url: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'date-time',
    description:
      "when the kept copy was deleted (REPORTED_IMAGE_RETENTION_DAYS after the ticket was resolved, or with the reporter's data)",
  })
  reported_image_deleted_at: string | null;
  @ApiProperty({ nullable: true, type: ReviewedResultDto, description: 'the generation the report names, to show beside the copy' })
  reported_generation: ReviewedResultDto | null;
  @ApiProperty({
    type: [ReportCandidateDto],
    description: 'the results the copy looked most like, best first (up to 5); an admin may choose one (POST .../match)',
  })
  image_candidates: ReportCandidateDto[];
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'who removed the reported generation (null when not removed, or that account is deleted)',
  })
  generation_removed_by_email: string | null;
  @ApiProperty({ type: [SupportMessageDto] }) messages: SupportMessageDto[];
}
