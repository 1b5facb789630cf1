import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { MESSAGE_KINDS, type SupportMessageKind } from '../support.entities';

/** A reply (mailed to the requester) or an internal note (never mailed). */
export class SupportMessageCreateDto {
  @ApiProperty({ enum: MESSAGE_KINDS })
  @IsIn(MESSAGE_KINDS, { message: 'Kind must be reply or note' })
  kind: SupportMessageKind;

  @ApiProperty({ maxLength: 10000 })
  @MaxLength(10000, { message: 'Message must be at most 10000 characters' })
  @IsNotEmpty({ message: 'Message is required' })
  @IsString({ message: 'Message is required' })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  body: string;
}
