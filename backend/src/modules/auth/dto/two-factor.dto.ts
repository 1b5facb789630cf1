import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, PasswordMessages } from '../../../common/security/password-policy';

/** POST /api/me/password. */
export class PasswordChangeDto {
  @ApiProperty()
  @MaxLength(1024, { message: 'Your current password is required' })
  @IsNotEmpty({ message: 'Your current password is required' })
  @IsString({ message: 'Your current password is required' })
  current_password: string;

  @ApiProperty({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH, description: 'not one of the most common passwords' })
  @Length(PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH, { message: PasswordMessages.length })
  @IsString({ message: 'A new password is required' })
  new_password: string;
}

/** POST /api/me/2fa/setup: a new secret to add to an authenticator app (two-factor is not on yet). */
export class TwoFactorSetupResponseDto {
  @ApiProperty({ example: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', description: 'base32, for typing into the app by hand' })
  secret: string;

  @ApiProperty({
    example: 'otpauth://totp/Fitting%20Room:ada%40example.com?issuer=Fitting%20Room&secret=...&algorithm=SHA1&digits=6&period=30',
  })
  otpauth_url: string;

  @ApiProperty({ description: 'the otpauth URL as a QR code: a data URL of a PNG' })
  qr_code: string;
}

/** POST /api/me/2fa/enable: the first code from the app proves it was set up. */
export class TwoFactorEnableDto {
  @ApiProperty({ example: '123456' })
  @MaxLength(20, { message: 'Please enter the 6-digit code' })
  @IsNotEmpty({ message: 'Please enter the 6-digit code' })
  @IsString({ message: 'Please enter the 6-digit code' })
  code: string;
}

/** POST /api/me/2fa/disable: a code from the app, or a recovery code. */
export class TwoFactorDisableDto {
  @ApiPropertyOptional({ example: '123456', description: 'a code of the app (a recovery code is accepted here too)' })
  @IsOptional()
  @MaxLength(40, { message: 'Please enter the 6-digit code' })
  @IsString({ message: 'Please enter the 6-digit code' })
  code?: string;

  @ApiPropertyOptional({ example: 'k7m2q-x9trw' })
  @IsOptional()
  @MaxLength(40, { message: 'Please enter a recovery code' })
  @IsString({ message: 'Please enter a recovery code' })
  recovery_code?: string;
}

/** Ten single-use codes, shown once: each signs in once without the app. */
export class RecoveryCodesResponseDto {
  @ApiProperty({ type: [String], example: ['k7m2q-x9trw', 'b3hd8-pq2mz'] })
  recovery_codes: string[];
}

/** GET /api/me/2fa/recovery-codes: how many of the recovery codes are left (the codes themselves are never shown again). */
export class RecoveryCodesLeftResponseDto {
  @ApiProperty({ type: 'integer', nullable: true, example: 7, description: 'unused recovery codes; null when two-factor is off' })
  remaining: number | null;

  @ApiProperty({ type: 'integer', example: 10, description: 'how many a new set has' })
  total: number;
}

/** POST /api/me/2fa/recovery-codes: a code of the app proves it is the person (a recovery code is refused here). */
export class RecoveryCodesRenewDto {
  @ApiProperty({ example: '123456' })
  @MaxLength(20, { message: 'Please enter the 6-digit code' })
  @IsNotEmpty({ message: 'Please enter the 6-digit code' })
  @IsString({ message: 'Please enter the 6-digit code' })
  code: string;
}
