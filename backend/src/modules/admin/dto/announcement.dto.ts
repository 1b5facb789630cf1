import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** POST /api/admin/announcements: marketing mail to everyone who opted in. */
export class AnnouncementCreateDto {
  @ApiProperty({ example: 'New: the Resort collection', maxLength: 150 })
  @MaxLength(150, { message: 'The subject must be at most 150 characters' })
  @IsNotEmpty({ message: 'Please fill in all fields' })
  @IsString({ message: 'Please fill in all fields' })
  @Transform(trim)
  subject: string;

  @ApiProperty({ description: 'plain text; blank lines separate paragraphs', maxLength: 5000 })
  @MaxLength(5000, { message: 'The message must be at most 5000 characters' })
  @IsNotEmpty({ message: 'Please fill in all fields' })
  @IsString({ message: 'Please fill in all fields' })
  @Transform(trim)
  body: string;
}

export class AnnouncementResponseDto {
  @ApiProperty({
    type: 'integer',
    example: 42,
    description: 'verified accounts that opted in to marketing emails, to whom it is being sent',
  })
  recipients: number;
}
