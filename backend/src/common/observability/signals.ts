import { channel } from 'node:diagnostics_channel';

/**
 * What the domain tells the metrics, through Node's diagnostics channels: a producer publishes a
 * plain message and does not know who listens (the metrics of each app in the process subscribe;
 * nobody subscribed costs one `hasSubscribers` check). Used where no event bus reaches: the vendor
 * HTTP helper is a plain function, and the credits ledger and the Stripe webhook report flows
 * that are not domain events of their own. Only labels of a bounded set travel here: no ids, no
 * personal data.
 */

/** One call to an AI vendor (provider-http.ts), when its answer (or its failure) is known. */
export interface VendorCallSignal {
  /** the vendor's name as the adapter gives it ("FASHN", "DashScope", "fal.ai") */
  vendor: string;
  method: string;
  /** ok, or what went wrong: http_4xx, http_5xx, timeout, network, bad_response */
  outcome: 'ok' | 'http_4xx' | 'http_5xx' | 'timeout' | 'network' | 'bad_response';
  seconds: number;
}

/** Credits that moved in the ledger (credits.service.ts). */
export interface CreditsSignal {
  flow: 'granted' | 'held' | 'captured' | 'released';
  credits: number;
}

/** A Stripe webhook event at one of its steps (billing.service.ts). */
export interface StripeEventSignal {
  /** received (stored, queued), processed (applied), retrying (a run failed, another follows), failed (the last run failed) */
  stage: 'received' | 'processed' | 'retrying' | 'failed';
  /** the event's type, as Stripe names it */
  type: string;
  /** seconds from Stripe's `created` to this step */
  lagSeconds?: number;
}

const vendorCalls = channel('fitting-room:vendor-call');
const credits = channel('fitting-room:credits');
const stripeEvents = channel('fitting-room:stripe-event');

export const signals = {
  vendorCalls,
  credits,
  stripeEvents,
};

export function publishVendorCall(signal: VendorCallSignal): void {
  if (vendorCalls.hasSubscribers) vendorCalls.publish(signal);
}

export function publishCredits(flow: CreditsSignal['flow'], amount: number): void {
  if (amount > 0 && credits.hasSubscribers) credits.publish({ flow, credits: amount } satisfies CreditsSignal);
}

export function publishStripeEvent(signal: StripeEventSignal): void {
  if (stripeEvents.hasSubscribers) stripeEvents.publish(signal);
}
