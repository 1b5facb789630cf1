import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

/** What POST /api/auth/sign-in answers instead of a session when the account has two-factor on. */
export class MfaChallengeResponseDto {
  @ApiProperty({ enum: [true] })
  mfa_required: true;

  @ApiProperty({ description: 'send it with a code to POST /api/auth/sign-in/2fa within 5 minutes (5 tries)' })
  mfa_token: string;
}

/** POST /api/auth/sign-in/2fa: the second step, with a code from the app or a recovery code. */
export class AuthSignInMfaDto {
  @ApiProperty()
  @MaxLength(200, { message: 'Invalid sign-in token' })
  @IsNotEmpty({ message: 'Invalid sign-in token' })
  @IsString({ message: 'Invalid sign-in token' })
  mfa_token: string;

  @ApiPropertyOptional({ example: '123456', description: 'the 6-digit code of the authenticator app' })
  @IsOptional()
  @MaxLength(20, { message: 'Please enter the 6-digit code' })
  @IsString({ message: 'Please enter the 6-digit code' })
  code?: string;

  @ApiPropertyOptional({ example: 'k7m2q-x9trw', description: 'one of the recovery codes, instead of `code`' })
  @IsOptional()
  @MaxLength(40, { message: 'Please enter a recovery code' })
  @IsString({ message: 'Please enter a recovery code' })
  recovery_code?: string;
}
