import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { CREDIT_PACKS } from '../../catalog/plans';
import { TIERS } from '../../catalog/tiers';

/** What to pay for: one paid plan (a monthly subscription) or one credit pack, never both. */
export class CheckoutRequestDto {
  @ApiPropertyOptional({ enum: TIERS.filter((t) => t !== 'free'), description: 'a paid plan: a monthly subscription' })
  @IsOptional()
  @IsString()
  @IsIn(TIERS, { message: `plan must be one of: ${TIERS.join(', ')}` })
  plan?: string;

  @ApiPropertyOptional({ enum: CREDIT_PACKS.map((p) => p.id), description: 'a credit pack: a one-time payment; its credits never expire' })
  @IsOptional()
  @IsString()
  @IsIn(CREDIT_PACKS.map((p) => p.id), { message: `pack must be one of: ${CREDIT_PACKS.map((p) => p.id).join(', ')}` })
  pack?: string;
}

/** Where to send the person: Stripe's page (Checkout or the billing portal). */
export class BillingRedirectDto {
  @ApiProperty({ example: 'https://checkout.stripe.com/c/pay/cs_test_a1b2c3', description: "Stripe's own page; open it in the browser" })
  url: string;
}

export class StripeWebhookAckDto {
  @ApiProperty({ example: true })
  received: boolean;
}
