import { ApiProperty } from '@nestjs/swagger';
import { PAYMENT_KINDS } from '../../billing/billing.entities';

/** A row of the console's Payments page: one Stripe object that moved money. */
export class AdminPaymentRowDto {
  @ApiProperty({ description: "the Stripe object's id (cs_… for a pack, in_… for an invoice, ch_… for a refund, dp_… for a dispute)" })
  id: string;

  @ApiProperty({ enum: PAYMENT_KINDS, description: "pack (a credit pack), subscription (a plan's invoice), refund, dispute" })
  kind: string;

  @ApiProperty({ format: 'uuid' }) user_id: string;
  @ApiProperty({ nullable: true, type: String }) user_email: string | null;

  @ApiProperty({
    type: 'integer',
    description: "in the currency's smallest unit (cents); a refund's is what was refunded of its charge so far",
    example: 1499,
  })
  amount: number;

  @ApiProperty({ example: 'usd' }) currency: string;

  @ApiProperty({
    description:
      'pack: paid, partially_refunded, refunded, disputed; subscription: paid, failed; refund: refunded; dispute: Stripe’s status',
    example: 'paid',
  })
  status: string;

  @ApiProperty({ nullable: true, type: String, description: "the pack's id or the plan's tier", example: 'pack-70' })
  product: string | null;

  @ApiProperty({ nullable: true, type: String }) payment_intent_id: string | null;
  @ApiProperty({ nullable: true, type: String }) subscription_id: string | null;

  @ApiProperty({ nullable: true, type: String, description: "the object in Stripe's dashboard (its test-mode pages with a test key)" })
  stripe_url: string | null;

  @ApiProperty({ nullable: true, type: String, description: "the subscription in Stripe's dashboard, for an invoice" })
  stripe_subscription_url: string | null;

  @ApiProperty({ format: 'date-time', description: 'when the webhook recorded it' }) created_at: string;
}

/** Revenue for the dashboard, in the catalogue's currency (amounts in cents). */
export class AdminRevenueDto {
  @ApiProperty({ example: 'usd' }) currency: string;

  @ApiProperty({
    description: "monthly recurring revenue: the catalogue's monthly price of every live subscription (active, trialing, past_due)",
  })
  mrr: number;

  @ApiProperty({ type: 'integer', description: 'live subscriptions' }) active_subscriptions: number;
  @ApiProperty({ type: 'integer', description: 'credit packs bought in the last 30 days' }) packs_sold_30d: number;
  @ApiProperty({ description: 'what those packs were paid' }) pack_revenue_30d: number;
  @ApiProperty({ description: "subscriptions' invoices paid in the last 30 days" }) subscription_revenue_30d: number;
  @ApiProperty({ description: 'packs and invoices paid in the last 30 days (before refunds)' }) revenue_30d: number;
  @ApiProperty({ type: 'integer', description: 'refunds and disputes recorded in the last 30 days' }) refunds_30d: number;
  @ApiProperty({ description: 'what they took back' }) refunded_amount_30d: number;
}
