import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsNotEmpty, IsString, MaxLength } from 'class-validator';

/** What staff write on a ticket (the person's own messages come through "My tickets"). */
const STAFF_MESSAGE_KINDS = ['reply', 'note'] as const;

/** A reply (mailed to the requester) or an internal note (never mailed). */
export class SupportMessageCreateDto {
  @ApiProperty({ enum: STAFF_MESSAGE_KINDS })
  @IsIn(STAFF_MESSAGE_KINDS, { message: 'Kind must be reply or note' })
  kind: (typeof STAFF_MESSAGE_KINDS)[number];

  @ApiProperty({ maxLength: 10000 })
  @MaxLength(10000, { message: 'Message must be at most 10000 characters' })
  @IsNotEmpty({ message: 'Message is required' })
  @IsString({ message: 'Message is required' })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  body: string;
}
