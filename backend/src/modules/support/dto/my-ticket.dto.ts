import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { INQUIRY_KINDS, INQUIRY_STATUSES, type InquiryKind, type InquiryStatus } from '../support.entities';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** A message of the person's ticket as they see it: a reply of the support team, or their own. */
export class MyTicketMessageDto {
  @ApiProperty({ enum: ['reply', 'customer'], description: 'reply: from the support team; customer: yours' })
  kind: 'reply' | 'customer';
  @ApiProperty() body: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

/** One of the person's tickets ("My tickets"). */
export class MyTicketDto {
  @ApiProperty({ type: 'integer', example: 1042, description: 'the ticket number (#1042)' }) number: number;
  @ApiProperty({
    enum: INQUIRY_STATUSES,
    description: 'open: waiting for the support team; in_progress: answered, waiting for you; resolved; closed (no more replies)',
  })
  status: InquiryStatus;
  @ApiProperty({ enum: INQUIRY_KINDS }) kind: InquiryKind;
  @ApiProperty() subject: string;
  @ApiProperty({ description: 'what you wrote first' }) message: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) resolved_at: string | null;
  @ApiProperty({ description: 'replies of the support team and your own messages, oldest first', type: [MyTicketMessageDto] })
  messages: MyTicketMessageDto[];
}

/** GET /api/me/tickets: the newest tickets first. */
export class MyTicketsResponseDto {
  @ApiProperty({ type: [MyTicketDto] }) tickets: MyTicketDto[];
  @ApiProperty({ type: 'integer', description: 'how many tickets you have in all' }) total: number;
}

/** POST /api/me/tickets/:number/messages: the person writes on their ticket. */
export class MyTicketReplyDto {
  @ApiProperty({ maxLength: 5000 })
  @MaxLength(5000, { message: 'Message must be at most 5000 characters' })
  @IsNotEmpty({ message: 'Message is required' })
  @IsString({ message: 'Message is required' })
  @Transform(trim)
  message: string;
}
