import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsIn, IsNotEmpty, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { INQUIRY_KINDS, type InquiryKind } from '../support.entities';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const emptyToUndefined = ({ value }: { value: unknown }) =>
  typeof value === 'string' && value.trim() === '' ? undefined : typeof value === 'string' ? value.trim() : value;

export const SUPPORT_LIMITS = { name: 100, email: 320, subject: 200, message: 5000 } as const;

/**
 * POST /api/support/inquiries, the public contact form. class-validator runs a property's rules
 * bottom-up and the pipe reports the first failure of each field, so the most basic rule is last.
 */
export class SupportInquiryCreateDto {
  @ApiProperty({ example: 'Ada Lovelace', maxLength: SUPPORT_LIMITS.name })
  @MaxLength(SUPPORT_LIMITS.name, { message: `Name must be at most ${SUPPORT_LIMITS.name} characters` })
  @IsNotEmpty({ message: 'Name is required' })
  @IsString({ message: 'Name is required' })
  @Transform(trim)
  name: string;

  @ApiProperty({ example: 'ada@example.com', format: 'email', maxLength: SUPPORT_LIMITS.email })
  // a domain without a dot is allowed (admin@localhost, intranet hosts): the mailed link is the real check
  @IsEmail({ require_tld: false }, { message: 'Please enter a valid email address' })
  @MaxLength(SUPPORT_LIMITS.email, { message: 'Please enter a valid email address' })
  @IsNotEmpty({ message: 'Email is required' })
  @IsString({ message: 'Email is required' })
  @Transform(trim)
  email: string;

  @ApiProperty({ example: 'A question about credits', maxLength: SUPPORT_LIMITS.subject })
  @MaxLength(SUPPORT_LIMITS.subject, { message: `Subject must be at most ${SUPPORT_LIMITS.subject} characters` })
  @IsNotEmpty({ message: 'Subject is required' })
  @IsString({ message: 'Subject is required' })
  @Transform(trim)
  subject: string;

  @ApiProperty({ maxLength: SUPPORT_LIMITS.message })
  @MaxLength(SUPPORT_LIMITS.message, { message: `Message must be at most ${SUPPORT_LIMITS.message} characters` })
  @IsNotEmpty({ message: 'Message is required' })
  @IsString({ message: 'Message is required' })
  @Transform(trim)
  message: string;

  @ApiPropertyOptional({
    enum: INQUIRY_KINDS,
    default: 'question',
    description: 'abuse_report: "Report an image" (starts at priority high)',
  })
  @IsIn(INQUIRY_KINDS, { message: `Kind must be one of ${INQUIRY_KINDS.join(', ')}` })
  @IsOptional()
  kind?: InquiryKind;

  @ApiPropertyOptional({
    description:
      'a link to the reported image (a result link of this site); with kind abuse_report. Or send the image itself as the multipart file `image`.',
    maxLength: 2000,
  })
  @MaxLength(2000, { message: 'The link is too long' })
  @IsString({ message: 'The link must be text' })
  @IsOptional()
  @Transform(emptyToUndefined)
  image_url?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'the generation an abuse report is about (it need not be yours)' })
  @IsUUID('all', { message: 'Generation id must be a valid id (for example 0b0f3c4e-6a3e-4a57-9d6c-2d0b8f1e4c11)' })
  @IsOptional()
  @Transform(emptyToUndefined)
  generation_id?: string;
}
