import { FULL_NAME_MAX_LENGTH, FullNameMessages } from '@fitting-room/shared/profile-rules';
import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Equals, IsBoolean, IsDefined, IsEmail, IsNotEmpty, IsString, Length, MaxLength } from 'class-validator';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, PasswordMessages } from '../../../common/security/password-policy';
import { AuthMessages } from '../auth.exception';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/**
 * POST /api/auth/sign-up. Every field is required; `age_confirmed` must be true (18+).
 * class-validator runs a property's rules bottom-up and the pipe reports the first failure of
 * each field, so the most basic rule is written last.
 */
export class AuthSignUpDto {
  @ApiProperty({ example: 'Ada Lovelace', maxLength: FULL_NAME_MAX_LENGTH })
  @MaxLength(FULL_NAME_MAX_LENGTH, { message: FullNameMessages.tooLong })
  @IsNotEmpty({ message: FullNameMessages.required })
  @IsString({ message: FullNameMessages.required })
  @Transform(trim)
  full_name: string;

  @ApiProperty({ example: 'ada@example.com', format: 'email', maxLength: 320 })
  // a domain without a dot is allowed (admin@localhost, intranet hosts): the mailed link is the real check
  @IsEmail({ require_tld: false }, { message: 'Please enter a valid email address' })
  @MaxLength(320, { message: 'Please enter a valid email address' })
  @IsNotEmpty({ message: 'Email is required' })
  @IsString({ message: 'Email is required' })
  @Transform(trim)
  email: string;

  @ApiProperty({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH, description: 'not one of the most common passwords' })
  @Length(PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH, { message: PasswordMessages.length })
  @IsString({ message: 'Password is required' })
  password: string;

  @ApiProperty({ enum: [true], description: 'the person confirms being 18 or older' })
  @Equals(true, { message: AuthMessages.ageConfirmation })
  @IsBoolean({ message: AuthMessages.ageConfirmation })
  @IsDefined({ message: AuthMessages.ageConfirmation })
  age_confirmed: true;
}
