import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, PasswordMessages } from '../../../common/security/password-policy';
import { AuthMessages } from '../auth.exception';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const invalidLink = { message: AuthMessages.invalidLink };

/** POST /api/auth/verify-email: the token of the mailed link. */
export class EmailVerifyDto {
  @ApiProperty({ description: 'the `token` of the link `$APP_URL/verify-email?token=...`' })
  @MaxLength(200, invalidLink)
  @IsNotEmpty(invalidLink)
  @IsString(invalidLink)
  token: string;
}

/** POST /api/auth/verify-email/resend: signed in, no body; signed out, the address. */
export class EmailResendDto {
  @ApiPropertyOptional({ example: 'ada@example.com', description: 'only when signed out' })
  @IsOptional()
  @MaxLength(320, { message: 'Please enter a valid email address' })
  @IsString({ message: 'Email is required' })
  @Transform(trim)
  email?: string;
}

/** POST /api/auth/password/forgot. */
export class PasswordForgotDto {
  @ApiProperty({ example: 'ada@example.com' })
  @MaxLength(320, { message: 'Please enter a valid email address' })
  @IsNotEmpty({ message: 'Email is required' })
  @IsString({ message: 'Email is required' })
  @Transform(trim)
  email: string;
}

/** POST /api/auth/password/reset: the mailed link's token and the new password. */
export class PasswordResetDto {
  @ApiProperty({ description: 'the `token` of the link `$APP_URL/reset-password?token=...`' })
  @MaxLength(200, invalidLink)
  @IsNotEmpty(invalidLink)
  @IsString(invalidLink)
  token: string;

  @ApiProperty({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH, description: 'not one of the most common passwords' })
  @Length(PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH, { message: PasswordMessages.length })
  @IsString({ message: 'Password is required' })
  password: string;
}

/** A short answer that only says what happened. */
export class MessageResponseDto {
  @ApiProperty()
  message: string;
}

/** The answer of a confirmation link: what happened, and whether the account started afresh (its sessions ended). */
export class EmailVerifyResponseDto extends MessageResponseDto {
  @ApiProperty({
    description:
      'true when other sign-ups of the address were waiting: the account was emptied and its sessions ended; ' +
      'the mailed notice carries a link to choose a password',
  })
  starts_afresh: boolean;
}
