import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { AuthMessages } from '../auth.exception';

const required = { message: AuthMessages.credentialsRequired };

/**
 * POST /api/auth/sign-in. A malformed email is not told apart: it simply matches no account.
 * (class-validator runs a property's rules bottom-up: the most basic rule is written last.)
 */
export class AuthSignInDto {
  @ApiProperty({ example: 'ada@example.com' })
  @MaxLength(320, { message: AuthMessages.invalidCredentials })
  @IsNotEmpty(required)
  @IsString(required)
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  email: string;

  @ApiProperty()
  @MaxLength(1024, { message: AuthMessages.invalidCredentials })
  @IsNotEmpty(required)
  @IsString(required)
  password: string;
}
