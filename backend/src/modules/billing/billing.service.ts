import { createHash } from 'node:crypto';
import { plural } from '@fitting-room/shared/wording';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import Stripe from 'stripe';
import { appLink, APP_PAGES } from '../../common/app-links';
import {
  AppError,
  ConflictError,
  ErrorCode,
  ErrorMessages,
  NotFoundError,
  ServiceUnavailableError,
  ValidationError,
} from '../../common/errors';
import { publishStripeEvent } from '../../common/observability/signals';
import { type AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { JobName, MessageQueueService, OnJob, type JobContext, type JobPayload } from '../../queue';
import { AuditAction, AuditService } from '../audit/audit.service';
import { CREDIT_PACKS, planForTier } from '../catalog/plans';
import { isTier, type Tier } from '../catalog/tiers';
import { CreditsService } from '../credits/credits.service';
import { NotificationsService } from '../notifications/notifications.service';
import { NotificationType } from '../notifications/system-notification.entity';
import { ACCOUNT_DELETING_EVENT } from '../privacy/account-deletion.service';
import { UserMailService } from '../users/user-mail.service';
import { UsersRepository } from '../users/users.repository';
import { BillingRepository, LIVE_SUBSCRIPTION_STATUSES, type PaymentRecord } from './billing.repository';
import { CATALOG_CURRENCY, findPortalConfiguration, packLookupKey, planLookupKey, tierOfPrice } from './stripe-catalog';
import { isMissing, STRIPE_API_VERSION, STRIPE_CLIENT } from './stripe.client';
import type { EntityManager } from 'typeorm';

/** Checkout, the billing portal and the webhook while payments are off (no STRIPE_SECRET_KEY): 501. */
export class PaymentsNotConfiguredError extends AppError {
  constructor() {
    super(ErrorCode.SERVICE_UNAVAILABLE, ErrorMessages.checkoutComingSoon, 501);
  }
}

/** The events this module applies; enable these on the webhook endpoint (docs/payments.md). */
export const HANDLED_STRIPE_EVENTS = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'invoice.paid',
  'invoice.payment_failed',
  'invoice.payment_action_required',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'charge.refunded',
  'charge.dispute.created',
] as const;

function isLive(status: string): boolean {
  return (LIVE_SUBSCRIPTION_STATUSES as readonly string[]).includes(status);
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

/**
 * The subscription of an invoice: `parent.subscription_details.subscription` since API version
 * 2025-03-31, `subscription` before (https://docs.stripe.com/api/invoices/object).
 */
function subscriptionOfInvoice(invoice: Stripe.Invoice): string | null {
  const legacy = (invoice as unknown as { subscription?: string | { id: string } | null }).subscription;
  return idOf(invoice.parent?.subscription_details?.subscription ?? legacy);
}

/** The period end of a subscription: on its items since API version 2025-03-31, on the subscription before. */
function periodEndOf(sub: Stripe.Subscription): Date | null {
  const seconds = sub.items.data[0]?.current_period_end ?? (sub as unknown as { current_period_end?: number }).current_period_end ?? null;
  return seconds ? new Date(seconds * 1000) : null;
}

/** What the billing module tells a person (the API's messages). */
export const BILLING_MESSAGES = {
  nothingToManage: 'There is nothing to manage yet: choose a plan or a credit pack first.',
  customerGone:
    'Your billing details were no longer at our payment provider and have been set up again: there is nothing to manage yet. Choose a plan or a credit pack to start.',
} as const;

/**
 * Payments through Stripe (docs/payments.md). Checkout Sessions for the paid plans (monthly
 * subscriptions) and the credit packs (one-time), the billing portal for payment methods and
 * cancelling, and the webhook as the source of truth: each verified event is stored once by its id
 * and applied by a queue job, reading the current state of a subscription from Stripe rather than
 * trusting the order in which events arrive.
 */
@Injectable()
export class BillingService {
  private readonly logger = new Logger('Billing');
  /** our billing portal configuration at Stripe, once found */
  private portalConfigurationId: string | null = null;
  /** API versions of events already warned about (not the one the code is pinned to) */
  private readonly warnedVersions = new Set<string>();

  constructor(
    @Inject(STRIPE_CLIENT) private readonly stripe: Stripe | null,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repo: BillingRepository,
    private readonly users: UsersRepository,
    private readonly credits: CreditsService,
    private readonly audit: AuditService,
    private readonly queue: MessageQueueService,
    private readonly notifications: NotificationsService,
    @Optional() private readonly mail?: UserMailService,
  ) {}

  private client(): Stripe {
    if (!this.stripe) throw new PaymentsNotConfiguredError();
    return this.stripe;
  }

  /**
   * A Checkout Session for a paid plan (a monthly subscription) or a credit pack (a one-time
   * payment); answers the session's own URL, where the person pays.
   * https://docs.stripe.com/api/checkout/sessions/create
   */
  async checkout(userId: string, input: { plan?: string; pack?: string }): Promise<{ url: string }> {
    const stripe = this.client();
    if ((input.plan === undefined) === (input.pack === undefined)) throw new ValidationError('Choose either a plan or a credit pack');
    let lookupKey: string;
    let item: { kind: 'plan'; tier: Tier } | { kind: 'pack'; packId: string };
    if (input.plan !== undefined) {
      if (!isTier(input.plan)) throw new ValidationError(`Unknown plan: ${input.plan}`);
      if (planForTier(input.plan).price <= 0) throw new ValidationError('The Free plan needs no payment');
      if (await this.repo.hasLiveSubscription(userId)) {
        throw new ConflictError('You already have a subscription: change or cancel it in the billing portal.');
      }
      lookupKey = planLookupKey(input.plan);
      item = { kind: 'plan', tier: input.plan };
    } else {
      const pack = CREDIT_PACKS.find((p) => p.id === input.pack);
      if (!pack) throw new ValidationError(`Unknown credit pack: ${input.pack}`);
      lookupKey = packLookupKey(pack.id);
      item = { kind: 'pack', packId: pack.id };
    }
    const prices = await stripe.prices.list({ lookup_keys: [lookupKey], active: true, limit: 1 });
    const price = prices.data[0];
    if (!price) {
      this.logger.error(`No active Stripe price with lookup key ${lookupKey}: run npm run stripe:sync`);
      throw new ServiceUnavailableError('Payments are not set up yet. Please try again later.');
    }
    const metadata: Record<string, string> =
      item.kind === 'plan' ? { user_id: userId, kind: 'plan', tier: item.tier } : { user_id: userId, kind: 'pack', pack_id: item.packId };
    const create = (customer: string) =>
      stripe.checkout.sessions.create({
        mode: item.kind === 'plan' ? 'subscription' : 'payment',
        line_items: [{ price: price.id, quantity: 1 }],
        customer,
        client_reference_id: userId,
        metadata,
        // back on the Subscription page, which shows the outcome (docs/payments.md)
        success_url: appLink(this.config.appUrl, APP_PAGES.subscription, { checkout: 'success' }),
        cancel_url: appLink(this.config.appUrl, APP_PAGES.subscription, { checkout: 'cancelled' }),
        ...(item.kind === 'plan' ? { subscription_data: { metadata } } : { payment_intent_data: { metadata } }),
      });
    const customer = await this.customerFor(stripe, userId);
    let session: Stripe.Checkout.Session;
    try {
      session = await create(customer);
    } catch (error) {
      // the stored customer is gone at Stripe (deleted there, or test keys switched to live): a new one, and on
      if (!isMissing(error, 'customer')) throw error;
      session = await create(await this.replaceStaleCustomer(stripe, userId, customer));
    }
    if (!session.url) throw new ServiceUnavailableError();
    await this.audit.record({
      actorId: userId,
      action: AuditAction.BillingCheckout,
      targetType: 'checkout_session',
      targetId: session.id,
      targetUserId: userId,
      after: { ...metadata, price_lookup_key: lookupKey },
    });
    return { url: session.url };
  }

  /**
   * The billing portal (plan switching, payment methods, invoices, cancelling), with the
   * configuration `npm run stripe:sync` made: answers its URL.
   * https://docs.stripe.com/api/customer_portal/sessions/create
   */
  async portal(userId: string): Promise<{ url: string }> {
    const stripe = this.client();
    const customer = await this.repo.customerOf(userId);
    if (!customer) throw new ValidationError(BILLING_MESSAGES.nothingToManage);
    const create = async (fresh: boolean) =>
      stripe.billingPortal.sessions.create({
        customer,
        return_url: appLink(this.config.appUrl, APP_PAGES.subscription),
        ...(await this.portalConfiguration(stripe, fresh)),
      });
    let session: Stripe.BillingPortal.Session;
    try {
      session = await create(false);
    } catch (error) {
      if (isMissing(error, 'customer')) {
        // Stripe no longer has this customer (deleted there, or test keys switched to live): there is
        // nothing of theirs to manage. A new customer replaces it (checkout and the portal work from
        // now on), and the person is told rather than shown an empty portal.
        await this.replaceStaleCustomer(stripe, userId, customer);
        throw new ValidationError(BILLING_MESSAGES.customerGone);
      }
      // the configuration was deactivated since it was looked up: look again, once
      if ((error as { param?: string }).param !== 'configuration') throw error;
      session = await create(true);
    }
    await this.audit.record({
      actorId: userId,
      action: AuditAction.BillingPortal,
      targetType: 'customer',
      targetId: customer,
      targetUserId: userId,
    });
    return { url: session.url };
  }

  private async customerFor(stripe: Stripe, userId: string): Promise<string> {
    const known = await this.repo.customerOf(userId);
    if (known) return known;
    return this.repo.saveCustomer(userId, await this.createCustomer(stripe, userId, `customer-${userId}`));
  }

  /**
   * A new customer in place of one Stripe no longer has. Its own idempotency key: the first one
   * would answer the stale customer again (https://docs.stripe.com/api/idempotent_requests).
   */
  private async replaceStaleCustomer(stripe: Stripe, userId: string, stale: string): Promise<string> {
    const key = `customer-${userId}-after-${createHash('sha256').update(stale).digest('hex').slice(0, 24)}`;
    const fresh = await this.createCustomer(stripe, userId, key);
    this.logger.warn(
      { event: 'stripe_customer_replaced', user: userId },
      'the Stripe customer of an account was gone: a new one replaces it',
    );
    const customer = await this.repo.replaceCustomer(userId, stale, fresh);
    await this.audit.record({
      actorId: userId,
      action: AuditAction.BillingCustomerReplaced,
      targetType: 'customer',
      targetId: customer,
      targetUserId: userId,
      before: { customer: stale },
      after: { customer },
    });
    return customer;
  }

  private async createCustomer(stripe: Stripe, userId: string, idempotencyKey: string): Promise<string> {
    const user = await this.users.findById(userId);
    if (!user) throw new ValidationError('Unknown account');
    const created = await stripe.customers.create(
      { email: user.email, name: user.fullName || undefined, metadata: { user_id: userId } },
      { idempotencyKey },
    );
    return created.id;
  }

  /**
   * `{ configuration }` of our billing portal configuration (made by stripe:sync, found by its
   * metadata, kept for the process), or nothing: Stripe then uses the account's default one, if
   * someone saved it in the Dashboard.
   */
  private async portalConfiguration(stripe: Stripe, fresh: boolean): Promise<{ configuration?: string }> {
    if (fresh || !this.portalConfigurationId) {
      const found = await findPortalConfiguration(stripe);
      this.portalConfigurationId = found?.id ?? null;
      if (!found)
        this.logger.error('No billing portal configuration of ours at Stripe: run npm run stripe:sync (plans cannot be switched)');
    }
    return this.portalConfigurationId ? { configuration: this.portalConfigurationId } : {};
  }

  /**
   * "Delete All My Data": the account's subscriptions are cancelled at once at Stripe (no more
   * charges for an account that is gone). A failure never blocks the deletion: the admins are told
   * to cancel by hand.
   */
  @OnEvent(ACCOUNT_DELETING_EVENT, { promisify: true })
  async onAccountDeleting(event: { userId: string }): Promise<void> {
    if (!this.stripe) return;
    for (const id of await this.repo.billingSubscriptionsOf(event.userId)) {
      try {
        await this.stripe.subscriptions.cancel(id, {}, { idempotencyKey: `cancel-deleted-${id}` });
      } catch (error) {
        this.logger.error(
          { event: 'stripe_cancel_failed', subscription: id, err: error },
          'could not cancel the subscription of a deleted account',
        );
        await this.notifications.notify({
          type: NotificationType.SubscriptionNotCancelled,
          severity: 'critical',
          title: 'Cancel a subscription by hand',
          message: `An account was deleted but its Stripe subscription ${id} could not be cancelled: cancel it in Stripe's Dashboard.`,
          dedupeKey: `stripe-cancel:${id}`,
        });
      }
    }
  }

  /**
   * The webhook: verifies the Stripe-Signature over the raw bytes with the SDK (timestamp within
   * 5 minutes), stores the event once by its id and queues the job that applies it. A missing or
   * forged signature is a 400 and changes nothing; a replayed event changes nothing.
   * https://docs.stripe.com/webhooks#verify-events
   */
  async acceptWebhook(signature: string | string[] | undefined, raw: Buffer): Promise<void> {
    const stripe = this.client();
    const secret = this.config.stripe.webhookSecret;
    if (!secret) throw new PaymentsNotConfiguredError();
    if (typeof signature !== 'string' || !signature) throw new ValidationError('The Stripe-Signature header is missing');
    let event: Stripe.Event;
    try {
      event = stripe.webhooks.constructEvent(raw, signature, secret);
    } catch {
      throw new ValidationError('The Stripe signature is not valid');
    }
    if (event.api_version && event.api_version !== STRIPE_API_VERSION && !this.warnedVersions.has(event.api_version)) {
      // the endpoint renders events in its own version: object shapes may differ from what this code reads
      this.warnedVersions.add(event.api_version);
      this.logger.warn(
        `Stripe sends events in API version ${event.api_version}, the code is pinned to ${STRIPE_API_VERSION}: ` +
          'set the webhook endpoint to that version (docs/payments.md)',
      );
    }
    const stored = await this.repo.insertEvent(event.id, event.type, event);
    if (!stored) {
      const known = await this.repo.findEvent(event.id);
      if (known?.handled_at) return; // a replay: applied already
      await this.repo.requeueEvent(event.id); // delivered again before it was applied: tried again from the start
    }
    const { eventAttempts, eventRetryMs } = this.config.stripe;
    publishStripeEvent({ stage: 'received', type: typeLabel(event.type), lagSeconds: lagOf(event) });
    await this.queue.add(
      JobName.BillingStripeEvent,
      { eventId: event.id },
      { jobId: `stripe-${event.id}`, attempts: eventAttempts, backoffMs: eventRetryMs },
    );
  }

  /**
   * Applies a stored event. A failure is retried (STRIPE_EVENT_ATTEMPTS runs in all); when the last
   * one fails too, the event has failed for good: it is marked so, and the admins get a critical
   * notification (once per event) to fix the cause and replay it from the console.
   */
  @OnJob(JobName.BillingStripeEvent)
  async handleStripeEvent(data: JobPayload<JobName.BillingStripeEvent>, ctx: JobContext): Promise<void> {
    const stored = await this.repo.findEvent(data.eventId);
    if (!stored || stored.handled_at) return;
    try {
      await this.apply(stored.payload as unknown as Stripe.Event);
      await this.repo.markEventHandled(data.eventId);
      publishStripeEvent({ stage: 'processed', type: typeLabel(stored.type), lagSeconds: lagOf(stored.payload) });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const final = ctx.attempt >= ctx.maxAttempts;
      await this.repo.markEventFailed(data.eventId, message, final);
      publishStripeEvent({ stage: final ? 'failed' : 'retrying', type: typeLabel(stored.type), lagSeconds: lagOf(stored.payload) });
      if (final) {
        await this.notifications.notify({
          type: NotificationType.StripeEventFailed,
          severity: 'critical',
          title: 'A Stripe event could not be applied',
          message:
            `Stripe event ${data.eventId} (${stored.type}) failed on all ${plural(ctx.maxAttempts, 'attempt')}: ${message.slice(0, 500)}. ` +
            "Fix the cause, then replay it on the console's Stripe events page (Stripe keeps events for 30 days).",
          dedupeKey: `${NotificationType.StripeEventFailed}:${data.eventId}`,
        });
      }
      throw error;
    }
  }

  /**
   * The console's replay of a stored event: read again from Stripe's Events API (the stored body is
   * cleared once applied; Stripe keeps events 30 days, https://docs.stripe.com/api/events/retrieve)
   * and applied again. Applying is idempotent (a pack once per session, a renewal once per invoice,
   * a subscription from its current state), so replaying an applied event changes nothing that is
   * already right. Throws the reason when it cannot be applied; the event keeps that error.
   */
  async replayEvent(eventId: string): Promise<void> {
    const stripe = this.client();
    const known = await this.repo.findEvent(eventId);
    if (!known) throw new NotFoundError('No Stripe event with this id was received');
    let event: Stripe.Event;
    try {
      event = await stripe.events.retrieve(eventId);
    } catch (error) {
      if (!isMissing(error)) throw new ServiceUnavailableError('Stripe could not be reached: try the replay again in a moment.');
      if (!known.payload || !('data' in known.payload)) {
        throw new ConflictError(
          `Stripe no longer has event ${eventId} (it keeps events for 30 days), and its body was cleared once applied.`,
        );
      }
      event = known.payload as unknown as Stripe.Event; // not applied yet: its verified body is still stored
    }
    if (event.type !== known.type) throw new ConflictError(`Stripe answers event ${eventId} as ${event.type}, not ${known.type}`);
    if (!known.handled_at) await this.repo.storeEventPayload(eventId, event);
    try {
      await this.apply(event);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await this.repo.markEventFailed(eventId, message);
      throw new ConflictError(`The event could not be applied: ${message}`);
    }
    await this.repo.markEventHandled(eventId);
  }

  private async apply(event: Stripe.Event): Promise<void> {
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded':
        return this.onCheckoutCompleted(event.data.object);
      case 'checkout.session.async_payment_failed':
        return this.onAsyncPaymentFailed(event.data.object);
      case 'invoice.paid':
        return this.onInvoicePaid(event.data.object);
      case 'invoice.payment_failed':
        return this.onPaymentFailed(event.data.object);
      case 'invoice.payment_action_required':
        return this.onPaymentActionRequired(event.data.object);
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted':
        await this.syncSubscription(event.data.object.id);
        return;
      case 'charge.refunded': {
        const charge = event.data.object;
        const share = charge.amount > 0 ? charge.amount_refunded / charge.amount : 1;
        const paymentIntent = idOf(charge.payment_intent);
        await this.recordReversal(paymentIntent, idOf(charge.customer), {
          stripeId: charge.id,
          kind: 'refund',
          amount: charge.amount_refunded,
          currency: charge.currency,
          status: 'refunded',
          packStatus: charge.amount_refunded >= charge.amount ? 'refunded' : 'partially_refunded',
        });
        return this.reverse(paymentIntent, share, charge.id, charge.id, 'refund');
      }
      case 'charge.dispute.created': {
        const dispute = event.data.object;
        let paymentIntent = idOf(dispute.payment_intent);
        if (!paymentIntent) paymentIntent = idOf((await this.client().charges.retrieve(idOf(dispute.charge)!)).payment_intent);
        await this.recordReversal(paymentIntent, null, {
          stripeId: dispute.id,
          kind: 'dispute',
          amount: dispute.amount,
          currency: dispute.currency,
          status: dispute.status,
          packStatus: 'disputed',
        });
        return this.reverse(paymentIntent, 1, dispute.id, idOf(dispute.charge), 'dispute');
      }
      default:
        this.logger.debug(`Stripe event ${event.type} ignored`);
    }
  }

  private async onCheckoutCompleted(session: Stripe.Checkout.Session): Promise<void> {
    const userId = session.client_reference_id ?? session.metadata?.user_id;
    if (!userId) throw new Error(`Checkout Session ${session.id} names no user`);
    const customer = idOf(session.customer);
    if (customer) await this.repo.saveCustomer(userId, customer);
    if (session.mode === 'subscription') {
      const subscription = idOf(session.subscription);
      if (subscription) await this.syncSubscription(subscription);
      return;
    }
    if (session.mode !== 'payment' || session.payment_status !== 'paid') return; // an async payment completes later
    const pack = CREDIT_PACKS.find((p) => p.id === session.metadata?.pack_id);
    if (!pack) throw new Error(`Checkout Session ${session.id} names no known pack`);
    const credits = pack.credits + pack.bonus;
    const paymentIntent = idOf(session.payment_intent);
    const added = await this.repo.transaction(async (m) => {
      const inserted = await this.repo.insertPurchase(m, {
        sessionId: session.id,
        userId,
        paymentIntentId: paymentIntent,
        packId: pack.id,
        credits,
      });
      if (!inserted) return false;
      await this.repo.recordPayment(m, {
        stripeId: session.id,
        kind: 'pack',
        userId,
        amount: session.amount_total ?? 0,
        currency: session.currency ?? CATALOG_CURRENCY,
        status: 'paid',
        product: pack.id,
        paymentIntentId: paymentIntent,
        subscriptionId: null,
      });
      const reason = `Credit pack: ${plural(pack.credits, 'credit')}${pack.bonus > 0 ? ` + ${pack.bonus} bonus` : ''}`;
      await this.credits.addPurchase(userId, credits, paymentIntent ?? session.id, reason, m);
      await this.audit.record(
        {
          actorId: userId,
          action: AuditAction.BillingPackPaid,
          targetType: 'purchase',
          targetId: session.id,
          targetUserId: userId,
          after: { pack_id: pack.id, credits, payment_intent: paymentIntent, amount_total: session.amount_total },
        },
        m,
      );
      return true;
    });
    if (!added) return;
    await this.mail?.send({
      kind: 'account-notice',
      userId,
      title: 'Credits added',
      lines: [
        `Thank you for your purchase: ${credits} credits (${pack.bonus > 0 ? `${pack.credits} + ${pack.bonus} bonus` : 'the pack'}) are now in your account.`,
        'Purchased credits never expire. Your receipt comes from Stripe, our payment provider.',
      ],
    });
  }

  private async onInvoicePaid(invoice: Stripe.Invoice): Promise<void> {
    const subscriptionId = subscriptionOfInvoice(invoice);
    if (!subscriptionId) return;
    const sub = await this.syncSubscription(subscriptionId);
    if (!sub) return;
    await this.repo.transaction(async (m) => {
      await this.repo.setPaymentFailed(m, subscriptionId, false);
      if (invoice.id) await this.repo.recordPayment(m, invoicePayment(invoice, sub, subscriptionId, 'paid'));
      // the first invoice's credits come with the plan change (an upgrade tops up at once); a renewal resets
      if (invoice.billing_reason !== 'subscription_cycle' || !isLive(sub.status) || !invoice.id) return;
      if (!(await this.credits.applyPaidRenewal(sub.userId, sub.tier, invoice.id, new Date(), m))) return;
      await this.audit.record(
        {
          actorId: sub.userId,
          action: AuditAction.BillingRenewal,
          targetType: 'invoice',
          targetId: invoice.id,
          targetUserId: sub.userId,
          after: { tier: sub.tier, subscription_credits: planForTier(sub.tier).monthlyCredits, subscription: subscriptionId },
        },
        m,
      );
    });
  }

  private async onPaymentFailed(invoice: Stripe.Invoice): Promise<void> {
    const subscriptionId = subscriptionOfInvoice(invoice);
    if (!subscriptionId) return;
    const sub = await this.syncSubscription(subscriptionId);
    if (!sub || !isLive(sub.status)) return;
    await this.repo.transaction(async (m) => {
      await this.repo.setPaymentFailed(m, subscriptionId, true);
      if (invoice.id) await this.repo.recordPayment(m, invoicePayment(invoice, sub, subscriptionId, 'failed'));
      await this.audit.record(
        {
          actorId: sub.userId,
          action: AuditAction.BillingPaymentFailed,
          targetType: 'invoice',
          targetId: invoice.id ?? subscriptionId,
          targetUserId: sub.userId,
          after: { attempt_count: invoice.attempt_count, next_payment_attempt: invoice.next_payment_attempt, subscription: subscriptionId },
        },
        m,
      );
    });
    const plan = planForTier(sub.tier);
    await this.mail?.send({
      kind: 'account-notice',
      userId: sub.userId,
      title: 'Your payment did not go through',
      lines: [
        `We could not take the payment for your ${plan.displayName}.`,
        'Your plan and credits stay as they are while we try again over the next days.',
        'Please update your payment method on the Subscription page so that your plan continues.',
      ],
    });
  }

  /**
   * A renewal's payment needs the cardholder (3-D Secure): like a failed payment (the banner, the
   * plan and credits kept while the invoice is open), and a mail with the invoice's own page, where
   * the person confirms the payment (`hosted_invoice_url`). Told once per invoice; nothing when the
   * invoice was paid meanwhile. https://docs.stripe.com/billing/subscriptions/overview#requires-action
   */
  private async onPaymentActionRequired(invoice: Stripe.Invoice): Promise<void> {
    const subscriptionId = subscriptionOfInvoice(invoice);
    if (!subscriptionId) return;
    const sub = await this.syncSubscription(subscriptionId);
    if (!sub || !isLive(sub.status)) return;
    const tell = await this.repo.transaction(async (m) => {
      const before = invoice.id ? await this.repo.lockPaymentStatus(m, invoice.id) : undefined;
      if (before === 'paid') return false; // confirmed meanwhile (the events crossed)
      await this.repo.setPaymentFailed(m, subscriptionId, true);
      if (invoice.id) await this.repo.recordPayment(m, invoicePayment(invoice, sub, subscriptionId, 'action_required'));
      if (before === 'action_required') return false; // told already
      await this.audit.record(
        {
          actorId: sub.userId,
          action: AuditAction.BillingPaymentActionRequired,
          targetType: 'invoice',
          targetId: invoice.id ?? subscriptionId,
          targetUserId: sub.userId,
          after: { subscription: subscriptionId, amount_due: invoice.amount_due },
        },
        m,
      );
      return true;
    });
    if (!tell) return;
    const plan = planForTier(sub.tier);
    await this.mail?.send({
      kind: 'account-notice',
      userId: sub.userId,
      title: 'Please confirm your payment',
      lines: [
        `Your bank asks you to confirm the payment for your ${plan.displayName} (${money(invoice.amount_due, invoice.currency)}).`,
        invoice.hosted_invoice_url
          ? `Confirm it on our payment provider's page: ${invoice.hosted_invoice_url}`
          : 'Please update your payment method on the Subscription page.',
        'Your plan and credits stay as they are meanwhile; the renewal credits come once the payment is confirmed.',
      ],
    });
  }

  /**
   * A pack paid with a delayed method (a bank debit) whose money never came: no credits (none were
   * added: the session completed unpaid), and the person is told. A replay of the event mails again.
   * https://docs.stripe.com/checkout/fulfillment#delayed-notification
   */
  private async onAsyncPaymentFailed(session: Stripe.Checkout.Session): Promise<void> {
    const userId = session.client_reference_id ?? session.metadata?.user_id;
    if (!userId) throw new Error(`Checkout Session ${session.id} names no user`);
    const pack = CREDIT_PACKS.find((p) => p.id === session.metadata?.pack_id);
    if (!pack) throw new Error(`Checkout Session ${session.id} names no known pack`);
    if (!(await this.users.findById(userId))) return; // the account was deleted meanwhile
    await this.audit.record({
      actorId: userId,
      action: AuditAction.BillingPackFailed,
      targetType: 'checkout_session',
      targetId: session.id,
      targetUserId: userId,
      after: { pack_id: pack.id, amount_total: session.amount_total },
    });
    await this.mail?.send({
      kind: 'account-notice',
      userId,
      title: 'Your payment did not go through',
      lines: [
        `The payment for ${plural(pack.credits + pack.bonus, 'credit')} (${money(session.amount_total ?? 0, session.currency ?? CATALOG_CURRENCY)}) did not go through, so no credits were added and nothing was charged.`,
        `You can buy the pack again with another payment method: ${appLink(this.config.appUrl, APP_PAGES.pricing)}`,
      ],
    });
  }

  /** "Plan changed": a subscription started, was switched in the portal, or ended (the Free plan). */
  private async mailPlanChanged(userId: string, from: Tier, to: Tier): Promise<void> {
    const plan = planForTier(to);
    await this.mail?.send({
      kind: 'account-notice',
      userId,
      title: 'Your plan changed',
      lines: [
        `Your plan is now ${plan.displayName} (before: ${planForTier(from).displayName}).`,
        plan.price > 0
          ? `It comes with ${plan.monthlyCredits} credits every month, without rollover. Your receipts come from Stripe, our payment provider.`
          : `It comes with ${plan.monthlyCredits} free credits every month. Purchased credits stay yours.`,
        'You can see your plan and credits on the Subscription page.',
      ],
    });
  }

  /**
   * Reads the subscription as it is now at Stripe (whatever the order of the events) and makes the
   * account match: a live subscription gives its plan's tier (an upgrade tops the subscription
   * credits up at once); once it ends (cancelled at the period end, or unpaid), the free tier and
   * its monthly credits. Answers the stored subscription.
   */
  private async syncSubscription(id: string): Promise<{ userId: string; tier: Tier; status: string } | null> {
    const sub = await this.client().subscriptions.retrieve(id);
    const customer = idOf(sub.customer);
    const userId = sub.metadata?.user_id || (customer ? await this.repo.userOfCustomer(customer) : undefined);
    if (!userId) throw new Error(`Subscription ${id} belongs to no known account`);
    if (!(await this.users.findById(userId))) {
      // the account was deleted: nothing to apply, and nothing more to charge
      if (isLive(sub.status)) await this.client().subscriptions.cancel(id, {}, { idempotencyKey: `cancel-deleted-${id}` });
      return null;
    }
    const price = sub.items.data[0]?.price;
    const lookupKey = price?.lookup_key ?? null;
    // the plan from the price's Product or metadata: an archived price (a newer one took its lookup key) still counts
    const tier = tierOfPrice(price);
    if (!tier) throw new Error(`Subscription ${id} has a price that is not in the catalogue (${price?.id ?? 'no price'})`);
    const planChange = await this.repo.transaction(async (m): Promise<{ from: Tier; to: Tier } | null> => {
      const user = await this.users.lockForUpdate(m, userId);
      if (!user) return null; // deleted meanwhile
      const before = await this.repo.lockSubscription(m, id);
      const row = {
        stripeSubscriptionId: id,
        userId,
        priceLookupKey: lookupKey,
        tier,
        status: sub.status,
        currentPeriodEnd: periodEndOf(sub),
        cancelAtPeriodEnd: sub.cancel_at_period_end,
      };
      await this.repo.upsertSubscription(m, row);
      const changed =
        !before ||
        before.status !== row.status ||
        before.tier !== row.tier ||
        before.cancelAtPeriodEnd !== row.cancelAtPeriodEnd ||
        before.currentPeriodEnd?.getTime() !== row.currentPeriodEnd?.getTime();
      let creditsAdded = 0;
      let newTier: Tier = user.tier;
      if (isLive(sub.status)) {
        if (user.tier !== tier) newTier = tier;
      } else if (['canceled', 'unpaid', 'incomplete_expired'].includes(sub.status)) {
        const other = await this.repo.otherLiveSubscription(m, userId, id);
        const fallback: Tier = other && isTier(other.tier) ? other.tier : 'free';
        if (user.tier !== fallback) newTier = fallback;
        if (!other && before && isLive(before.status)) await this.credits.applyPlanEnded(userId, id, new Date(), m);
      }
      if (newTier !== user.tier) {
        await this.users.setTier(m, userId, newTier);
        creditsAdded = await this.credits.applyPlanChange(userId, user.tier, newTier, null, m);
      }
      const planChange = newTier !== user.tier ? { from: user.tier, to: newTier } : null;
      if (!changed && !planChange) return null;
      await this.audit.record(
        {
          actorId: userId,
          action: AuditAction.BillingSubscription,
          targetType: 'subscription',
          targetId: id,
          targetUserId: userId,
          before: before ? { status: before.status, tier: user.tier, cancel_at_period_end: before.cancelAtPeriodEnd } : null,
          after: { status: row.status, tier: newTier, cancel_at_period_end: row.cancelAtPeriodEnd, credits_added: creditsAdded },
        },
        m,
      );
      return planChange;
    });
    if (planChange) await this.mailPlanChanged(userId, planChange.from, planChange.to);
    return { userId, tier, status: sub.status };
  }

  /**
   * Keeps a refund or dispute on the Payments page, for whoever paid through the payment intent
   * (or the charge's customer), and marks the pack's own row refunded or disputed.
   */
  private async recordReversal(
    paymentIntent: string | null,
    customer: string | null,
    r: { stripeId: string; kind: 'refund' | 'dispute'; amount: number; currency: string; status: string; packStatus: string },
  ): Promise<void> {
    const paid = paymentIntent ? await this.repo.paymentOfIntent(paymentIntent) : undefined;
    const userId = paid?.user_id ?? (customer ? await this.repo.userOfCustomer(customer) : undefined);
    if (!userId) return;
    await this.repo.transaction(async (m) => {
      await this.repo.recordPayment(m, {
        stripeId: r.stripeId,
        kind: r.kind,
        userId,
        amount: r.amount,
        currency: r.currency,
        status: r.status,
        product: paid?.product ?? null,
        paymentIntentId: paymentIntent,
        subscriptionId: null,
      });
      if (paymentIntent) await this.repo.setPackPaymentStatus(m, paymentIntent, r.packStatus);
    });
  }

  /**
   * A refund (`share` of the charge refunded so far) or a dispute (all of it) of a pack: takes its
   * credits back as far as the balance allows, never below zero, and tells the admins.
   */
  private async reverse(
    paymentIntent: string | null,
    share: number,
    externalId: string,
    chargeId: string | null,
    why: 'refund' | 'dispute',
  ): Promise<void> {
    if (!paymentIntent) return;
    const outcome = await this.repo.transaction(async (m: EntityManager) => {
      const purchase = await this.repo.lockPurchaseByPaymentIntent(m, paymentIntent);
      if (!purchase) return null; // not a pack (a subscription's invoice): Stripe ends or keeps the subscription
      const target = Math.min(purchase.credits, Math.ceil(purchase.credits * Math.min(1, Math.max(0, share))));
      const wanted = target - purchase.refunded_credits;
      if (wanted <= 0) return null;
      const reason = why === 'refund' ? `Credit pack refunded (${purchase.pack_id})` : `Credit pack payment disputed (${purchase.pack_id})`;
      const taken = await this.credits.reversePurchase(purchase.user_id, wanted, externalId, reason, m);
      await this.repo.setRefunded(m, purchase.checkout_session_id, target, chargeId);
      await this.audit.record(
        {
          actorId: purchase.user_id,
          action: AuditAction.BillingReversal,
          targetType: 'purchase',
          targetId: purchase.checkout_session_id,
          targetUserId: purchase.user_id,
          before: { refunded_credits: purchase.refunded_credits },
          after: { refunded_credits: target, credits_taken: taken, why, stripe_id: externalId },
        },
        m,
      );
      return { userId: purchase.user_id, packId: purchase.pack_id, wanted, taken };
    });
    if (!outcome) return;
    const short = outcome.wanted - outcome.taken;
    await this.notifications.notify({
      type: NotificationType.PaymentReversed,
      severity: short > 0 || why === 'dispute' ? 'warning' : 'info',
      title: why === 'refund' ? 'A credit pack was refunded' : 'A credit pack payment is disputed',
      message:
        `${why === 'refund' ? 'A refund' : 'A dispute'} of pack ${outcome.packId} (account ${outcome.userId}, Stripe ${externalId}): ` +
        `${outcome.taken} of ${plural(outcome.wanted, 'credit')} taken back` +
        (short > 0 ? `; ${short} had already been spent and could not be taken back.` : '.'),
      dedupeKey: `${NotificationType.PaymentReversed}:${externalId}`,
    });
  }
}

/** An amount in the currency's smallest unit as a person reads it: 1499 usd -> "$14.99". */
function money(amount: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(amount / 100);
}

/** A subscription's invoice as a row of the Payments page: what it asked (failed, action_required) or what was paid. */
function invoicePayment(
  invoice: Stripe.Invoice,
  sub: { userId: string; tier: Tier },
  subscriptionId: string,
  status: 'paid' | 'failed' | 'action_required',
): PaymentRecord {
  return {
    stripeId: invoice.id!,
    kind: 'subscription',
    userId: sub.userId,
    amount: status === 'paid' ? invoice.amount_paid : invoice.amount_due,
    currency: invoice.currency,
    status,
    product: sub.tier,
    paymentIntentId: null,
    subscriptionId,
  };
}

/** An event's type as a metric label: one this module applies, or `other` (a bounded set). */
function typeLabel(type: string): string {
  return (HANDLED_STRIPE_EVENTS as readonly string[]).includes(type) ? type : 'other';
}

/** Seconds since Stripe created the event (its `created`, in seconds since the epoch); undefined when unknown. */
function lagOf(event: unknown): number | undefined {
  const created = (event as { created?: unknown } | null)?.created;
  return typeof created === 'number' ? Math.max(0, Date.now() / 1000 - created) : undefined;
}
