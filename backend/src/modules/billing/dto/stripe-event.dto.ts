import { ApiProperty } from '@nestjs/swagger';
import { STRIPE_EVENT_STATUSES } from '../billing.repository';

/** A Stripe webhook event as received and stored (never its body): the console's Stripe events page. */
export class StripeEventRowDto {
  @ApiProperty({ description: "Stripe's id of the event (evt_…)", example: 'evt_1Pgc76B7WZ01zgkWwyRHS12y' })
  id: string;

  @ApiProperty({ example: 'invoice.paid' })
  type: string;

  @ApiProperty({
    enum: STRIPE_EVENT_STATUSES,
    description:
      'pending (queued), retrying (an attempt failed, more to come), failed (every attempt failed: replay it once the cause is fixed), applied',
  })
  status: string;

  @ApiProperty({ nullable: true, type: String, description: 'why the last attempt failed' })
  error: string | null;

  @ApiProperty({ format: 'date-time' }) received_at: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) handled_at: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time', description: 'when its last attempt failed' }) failed_at: string | null;

  @ApiProperty({ description: "the event in Stripe's dashboard (its test-mode pages with a test key)" })
  stripe_url: string;
}
