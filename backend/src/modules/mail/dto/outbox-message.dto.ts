import { ApiProperty } from '@nestjs/swagger';

/** A message written to the outbox (the bucket's outbox/ or $DATA_DIR/mail) because no SMTP server is configured. */
export class OutboxMessageDto {
  @ApiProperty({ description: 'the .eml file name (sorts oldest first)', example: '20261123T201502123Z-0001a1b2c3-verify-email.eml' })
  id: string;

  @ApiProperty({ example: 'ada@example.com' })
  to: string;

  @ApiProperty({ example: 'Confirm your email address for Fitting Room' })
  subject: string;

  @ApiProperty({ description: 'the template that made it', example: 'verify-email' })
  template: string;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ type: [String], description: 'the links of the message (verification, reset, unsubscribe...)' })
  links: string[];
}

export class OutboxMessageDetailDto extends OutboxMessageDto {
  @ApiProperty({ description: 'the plain-text part' })
  text: string;

  @ApiProperty({ description: 'the HTML part' })
  html: string;
}
