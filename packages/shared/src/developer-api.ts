/**
 * The developer API's facts, read by the API, the user app's Settings and docs/api.md: the scopes a
 * personal API token may carry, the token's recognisable prefix, the events a webhook endpoint may
 * subscribe to, and the header names of idempotent starts and signed deliveries.
 */

/** What a personal API token may do; each route that accepts tokens declares the one it needs. */
export const API_TOKEN_SCOPES = {
  'account:read': 'Read my profile, credit balance and upload allowance',
  'uploads:read': 'Read my photos (fresh signed links)',
  'uploads:write': 'Upload and delete my photos',
  'generations:read': 'List, read, follow and download my generations',
  'generations:write': 'Check, start, cancel and delete my generations',
} as const;

export type ApiTokenScope = keyof typeof API_TOKEN_SCOPES;

export const API_TOKEN_SCOPE_NAMES = Object.keys(API_TOKEN_SCOPES) as ApiTokenScope[];

export function isApiTokenScope(value: unknown): value is ApiTokenScope {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(API_TOKEN_SCOPES, value);
}

/**
 * Every personal API token starts with this, so that secret scanners (and people) recognise a leaked
 * one: `frk_`, 30 random base62 characters, then 6 base62 characters of the CRC32 of those 30.
 */
export const API_TOKEN_PREFIX = 'frk_';

/** The events a developer webhook endpoint may subscribe to. */
export const WEBHOOK_EVENTS = {
  'generation.completed': 'A generation finished and its result is stored (credits charged)',
  'generation.failed': 'A generation failed, timed out or was cancelled (its credits released)',
  'credits.changed': 'My credit balance changed (a charge, a grant, a purchase, an adjustment, an expiry)',
} as const;

export type WebhookEventType = keyof typeof WEBHOOK_EVENTS;

export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENTS) as WebhookEventType[];

/** The event "Send test event" delivers; endpoints need not subscribe to it. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the endpoint's secret>` */
export const WEBHOOK_SIGNATURE_HEADER = 'Fitting-Room-Signature';

/** A receiver refuses a delivery whose `t` is further than this from its clock (replays). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** POST /api/generations and POST /api/uploads: the same key and body within 24 hours answer the first answer again. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
