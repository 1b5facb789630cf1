import { plural } from '@fitting-room/shared/wording';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import Stripe from 'stripe';
import { appLink, APP_PAGES } from '../../common/app-links';
import { AppError, ConflictError, ErrorCode, ErrorMessages, ServiceUnavailableError, ValidationError } from '../../common/errors';
import { type AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { JobName, MessageQueueService, OnJob, type JobPayload } from '../../queue';
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
import { CATALOG_CURRENCY, packLookupKey, planLookupKey, tierOfLookupKey } from './stripe-catalog';
import { STRIPE_CLIENT } from './stripe.client';
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
  'invoice.paid',
  'invoice.payment_failed',
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
    const customer = await this.customerFor(stripe, userId);
    const metadata: Record<string, string> =
      item.kind === 'plan' ? { user_id: userId, kind: 'plan', tier: item.tier } : { user_id: userId, kind: 'pack', pack_id: item.packId };
    const session = await stripe.checkout.sessions.create({
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

  /** The billing portal (payment methods, invoices, cancelling): answers its URL. https://docs.stripe.com/api/customer_portal/sessions/create */
  async portal(userId: string): Promise<{ url: string }> {
    const stripe = this.client();
    const customer = await this.repo.customerOf(userId);
    if (!customer) throw new ValidationError('There is nothing to manage yet: choose a plan or a credit pack first.');
    const session = await stripe.billingPortal.sessions.create({
      customer,
      return_url: appLink(this.config.appUrl, APP_PAGES.subscription),
    });
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
    const user = await this.users.findById(userId);
    if (!user) throw new ValidationError('Unknown account');
    const created = await stripe.customers.create(
      { email: user.email, name: user.fullName || undefined, metadata: { user_id: userId } },
      { idempotencyKey: `customer-${userId}` },
    );
    return this.repo.saveCustomer(userId, created.id);
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
    const stored = await this.repo.insertEvent(event.id, event.type, event);
    if (!stored) {
      const known = await this.repo.findEvent(event.id);
      if (known?.handled_at) return; // a replay: applied already
    }
    await this.queue.add(JobName.BillingStripeEvent, { eventId: event.id }, { jobId: `stripe-${event.id}`, attempts: 8, backoffMs: 2000 });
  }

  @OnJob(JobName.BillingStripeEvent)
  async handleStripeEvent(data: JobPayload<JobName.BillingStripeEvent>): Promise<void> {
    const stored = await this.repo.findEvent(data.eventId);
    if (!stored || stored.handled_at) return;
    try {
      await this.apply(stored.payload as unknown as Stripe.Event);
      await this.repo.markEventHandled(data.eventId);
    } catch (error) {
      await this.repo.markEventFailed(data.eventId, error instanceof Error ? error.message : String(error));
      throw error;
    }
  }

  private async apply(event: Stripe.Event): Promise<void> {
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded':
        return this.onCheckoutCompleted(event.data.object);
      case 'invoice.paid':
        return this.onInvoicePaid(event.data.object);
      case 'invoice.payment_failed':
        return this.onPaymentFailed(event.data.object);
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
    const lookupKey = sub.items.data[0]?.price?.lookup_key ?? null;
    const tier = tierOfLookupKey(lookupKey);
    if (!tier) throw new Error(`Subscription ${id} has a price that is not in the catalogue (${lookupKey ?? 'no lookup key'})`);
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

/** A subscription's invoice as a row of the Payments page: what it asked (failed) or what was paid. */
function invoicePayment(
  invoice: Stripe.Invoice,
  sub: { userId: string; tier: Tier },
  subscriptionId: string,
  status: 'paid' | 'failed',
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
