import { ApiProperty } from '@nestjs/swagger';
import { Equals } from 'class-validator';
import { PrivacyMessages } from '../privacy.exception';

/** The word that confirms DELETE /api/me. */
export const ACCOUNT_DELETE_CONFIRMATION = 'DELETE';

/** DELETE /api/me: the caller confirms, in so many words, that the account and all its data go for good. */
export class AccountDeleteDto {
  @ApiProperty({ enum: [ACCOUNT_DELETE_CONFIRMATION], description: 'must be exactly "DELETE"' })
  @Equals(ACCOUNT_DELETE_CONFIRMATION, { message: PrivacyMessages.confirmRequired })
  confirm: typeof ACCOUNT_DELETE_CONFIRMATION;
}
