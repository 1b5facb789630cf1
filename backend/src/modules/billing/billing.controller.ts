import { Body, Controller, Headers, HttpCode, Post, Req, type RawBodyRequest } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { type AuthUser, Authenticated, CurrentUser } from '../../common/auth';
import { ErrorResponseDto } from '../../common/errors';
import { StripeWebhookRateLimit } from '../auth/rate-limit/auth-rate-limit';
import { BillingService } from './billing.service';
import { BillingRedirectDto, CheckoutRequestDto, StripeWebhookAckDto } from './dto/billing.dto';
import type { Request } from 'express';

const NOT_CONFIGURED = {
  status: 501,
  type: ErrorResponseDto,
  description: 'payments are not configured: "Stripe integration coming soon!"',
};

@ApiTags('billing')
@Authenticated()
@Controller('billing')
export class BillingController {
  constructor(private readonly billing: BillingService) {}

  @Post('checkout')
  // paying needs a confirmed address (and the 18+ confirmation): an unconfirmed account may belong to
  // someone who signed up with another person's address, and taking it over would leave their subscription running
  @Authenticated({ verifiedAdult: true })
  @HttpCode(200)
  @ApiOperation({
    summary: 'Pay for a plan or a credit pack through Stripe Checkout',
    description:
      'Send `{ plan }` (a paid plan: a monthly subscription) or `{ pack }` (a one-time credit pack). Answers the URL of the ' +
      "Checkout Session, Stripe's own page. Nothing changes here: the plan or the credits come when Stripe reports the payment.",
  })
  @ApiOkResponse({ type: BillingRedirectDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'neither or both, an unknown plan or pack, or the Free plan' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'a subscription exists already (change it in the billing portal)' })
  @ApiServiceUnavailableResponse({ type: ErrorResponseDto, description: 'the prices are not set up in Stripe yet' })
  @ApiResponse(NOT_CONFIGURED)
  createCheckoutSession(@CurrentUser() user: AuthUser, @Body() body: CheckoutRequestDto): Promise<BillingRedirectDto> {
    return this.billing.checkout(user.id, body);
  }

  @Post('portal')
  @HttpCode(200)
  @ApiOperation({
    summary: "Open Stripe's billing portal",
    description: 'Payment methods, invoices and cancelling (at the end of the period). Answers the URL of the portal session.',
  })
  @ApiOkResponse({ type: BillingRedirectDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'nothing bought yet' })
  @ApiResponse(NOT_CONFIGURED)
  createPortalSession(@CurrentUser() user: AuthUser): Promise<BillingRedirectDto> {
    return this.billing.portal(user.id);
  }
}

/** Raw body of the webhook: the JSON parser keeps it (rawBody), other types arrive as a Buffer. */
function rawBodyOf(req: RawBodyRequest<Request>): Buffer {
  if (Buffer.isBuffer(req.rawBody)) return req.rawBody;
  if (Buffer.isBuffer(req.body)) return req.body;
  return Buffer.alloc(0);
}

@ApiTags('webhooks')
@Controller('webhooks/stripe')
export class StripeWebhookController {
  constructor(private readonly billing: BillingService) {}

  @Post()
  @HttpCode(200)
  @StripeWebhookRateLimit()
  @ApiOperation({
    summary: "Stripe's webhook",
    description:
      'Called by Stripe, not by browsers. The Stripe-Signature header is verified over the raw body; each event is stored once by ' +
      'its id and applied by a queue job, so a replay changes nothing.',
  })
  @ApiOkResponse({ type: StripeWebhookAckDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'missing or invalid Stripe-Signature: nothing changes' })
  @ApiResponse(NOT_CONFIGURED)
  async receiveStripeWebhook(
    @Headers('stripe-signature') signature: string | undefined,
    @Req() req: RawBodyRequest<Request>,
  ): Promise<StripeWebhookAckDto> {
    await this.billing.acceptWebhook(signature, rawBodyOf(req));
    return { received: true };
  }
}
