import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { UserRole, UserTier } from '../user.entity';

/** Where the available credits come from: the two buckets of the ledger and what running work holds. */
export class ProfileCreditBalanceDto {
  @ApiProperty({ type: 'integer', example: 3, description: 'credits of the plan; reset each month, without rollover' })
  subscription: number;

  @ApiProperty({ type: 'integer', example: 0, description: 'credits of bought packs (and admin grants); they never expire' })
  purchased: number;

  @ApiProperty({
    type: 'integer',
    example: 0,
    description: 'held by generations still running; `credits` = subscription + purchased - held',
  })
  held: number;
}

/** Payments (Stripe): what the user app offers (checkout, the billing portal) and shows as a banner. */
export class ProfileBillingDto {
  @ApiProperty({ description: 'payments through Stripe are on; without them checkout answers "Stripe integration coming soon!"' })
  payments_enabled: boolean;

  @ApiProperty({ description: 'the billing portal can be opened (the account has bought something through Stripe)' })
  portal_available: boolean;

  @ApiProperty({
    description: 'the last payment of the subscription failed and Stripe is retrying; the plan and credits stay meanwhile',
  })
  payment_failed: boolean;
}

/** The signed-in user's profile: the product's profiles row with its tier and credits. */
export class ProfileResponseDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'ada@example.com', description: 'read-only' })
  email: string;

  @ApiProperty({ example: 'Ada Lovelace' })
  full_name: string;

  @ApiProperty({ enum: UserTier, enumName: 'UserTier' })
  tier: UserTier;

  @ApiProperty({ type: 'integer', example: 3, description: 'credits available' })
  credits: number;

  @ApiProperty({ type: ProfileCreditBalanceDto })
  credit_balance: ProfileCreditBalanceDto;

  @ApiProperty({ enum: UserRole, enumName: 'UserRole' })
  role: UserRole;

  @ApiProperty({
    description:
      'whether the person has confirmed being 18 or older. Always true after an email sign-up; false for a new Google ' +
      'account until it confirms with PATCH /api/me { age_confirmed: true }',
  })
  age_confirmed: boolean;

  @ApiProperty({
    description:
      'whether the person proved they own the address (mailed link, Google or a password reset); uploading and generating need it',
  })
  email_verified: boolean;

  @ApiProperty({ description: 'whether signing in asks for a code from an authenticator app' })
  two_factor_enabled: boolean;

  @ApiProperty({ description: 'false for an account that signs in with Google only (it can set a password through "Forgot password?")' })
  has_password: boolean;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiPropertyOptional({ type: ProfileBillingDto, description: 'GET and PATCH /api/me only' })
  billing?: ProfileBillingDto;
}
