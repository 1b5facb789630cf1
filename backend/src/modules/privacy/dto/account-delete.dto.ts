import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Equals, IsOptional, IsString, MaxLength } from 'class-validator';
import { PrivacyMessages } from '../privacy.exception';

/** The word that confirms DELETE /api/me. */
export const ACCOUNT_DELETE_CONFIRMATION = 'DELETE';

/**
 * DELETE /api/me: the caller confirms, in so many words, that the account and all its data go for
 * good, and proves again who they are (AccountReauthService): the password, a two-factor code, or
 * (Google only) a fresh Google sign-in.
 */
export class AccountDeleteDto {
  @ApiProperty({ enum: [ACCOUNT_DELETE_CONFIRMATION], description: 'must be exactly "DELETE"' })
  @Equals(ACCOUNT_DELETE_CONFIRMATION, { message: PrivacyMessages.confirmRequired })
  confirm: typeof ACCOUNT_DELETE_CONFIRMATION;

  @ApiPropertyOptional({ description: 'the account password (accounts with a password and two-factor off)' })
  @IsOptional()
  @MaxLength(1024, { message: PrivacyMessages.passwordRequired })
  @IsString({ message: PrivacyMessages.passwordRequired })
  password?: string;

  @ApiPropertyOptional({ example: '123456', description: 'with two-factor on: a code of the authenticator app, or a recovery code' })
  @IsOptional()
  @MaxLength(40, { message: PrivacyMessages.codeRequired })
  @IsString({ message: PrivacyMessages.codeRequired })
  code?: string;
}
