import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Stripe from 'stripe';
import { LocalHttpServer } from './local-http-server';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * A local Stripe speaking the parts of its API the app uses, as the official SDK calls them
 * (https://docs.stripe.com/api): form-encoded bodies with bracketed keys, `Authorization: Bearer
 * <secret key>`, errors as `{ error: { type, code, message, param } }` with Stripe's statuses,
 * idempotency keys, and list objects.
 *
 * Every object it answers is built from Stripe's own example of that resource
 * (`stripe/fixtures3.json`, from the public repository stripe/openapi; see stripe/README.md): the
 * same fields, and ids of the same shape and LENGTH as the fixture's (a Checkout Session id is 66
 * characters, a customer id 18: `idShape`), and URLs as long as the real ones (a Checkout page with
 * its `#fid...` fragment, a portal session under `/p/session/test_...`). `useLongIds()` makes it
 * issue 255-character ids, the most Stripe documents.
 *
 * It enforces what the app could get wrong: required fields, a lookup key used by one price only
 * (unless `transfer_lookup_key`), amounts that cannot be edited, the mode of a Checkout Session
 * matching its price, metadata limits, customers that do not exist (deleted, or of another account),
 * the shape of a billing portal configuration and that a portal session has one, idempotency keys
 * reused with other parameters, and events older than 30 days.
 *
 * Test helpers play the person and Stripe's own side: pay a Checkout Session (its `url` here is a
 * page a browser can use: Pay, or Cancel back to the app), pay later (a delayed payment method),
 * renew, fail a renewal, need 3-D Secure on a renewal (the hosted invoice page completes it), switch
 * plans in the portal, cancel at the period end, end the period, refund, dispute, delete a customer.
 * Each produces the events Stripe would send, signed with the SDK's generateTestHeaderString and
 * delivered to the app through `send` (or returned undelivered, to deliver in another order).
 */

type Obj = Record<string, unknown>;

/**
 * Stripe's example object of every API resource (what Stripe's own mock server, stripe-mock, answers
 * with): https://github.com/stripe/openapi/blob/master/openapi/fixtures3.json
 */
const FIXTURES = (
  JSON.parse(fs.readFileSync(path.join(__dirname, 'stripe', 'fixtures3.json'), 'utf8')) as { resources: Record<string, Obj> }
).resources;

/** A fresh copy of Stripe's example object of `resource` (e.g. `checkout.session`). */
export function fixture(resource: string): Obj {
  const example = FIXTURES[resource];
  if (!example) throw new Error(`Stripe's fixtures have no ${resource}`);
  return structuredClone(example);
}

/** The shape of an id: its prefix (up to the last `_`, e.g. `cs_test_`) and its length. */
function shapeOf(exampleId: string): { prefix: string; length: number } {
  const cut = exampleId.lastIndexOf('_') + 1;
  if (cut === 0) throw new Error(`${exampleId} has no prefix`);
  return { prefix: exampleId.slice(0, cut), length: exampleId.length };
}

/** The prefix and length of `resource`'s ids, as in Stripe's fixture (checkout.session: `cs_test_`, 66). */
export function idShape(resource: string): { prefix: string; length: number } {
  return shapeOf(String(fixture(resource).id));
}

/** The longest id Stripe documents: "object IDs ... can be up to 255 characters" (https://docs.stripe.com/upgrades#what-changes-does-stripe-consider-to-be-backward-compatible). */
export const LONGEST_STRIPE_ID = 255;

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly param?: string,
    readonly type = 'invalid_request_error',
  ) {
    super(message);
  }
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
function randomText(length: number, alphabet = ALPHANUMERIC): string {
  return [...randomBytes(length)].map((b) => alphabet[b % alphabet.length]).join('');
}

/** Opaque URL tokens as Stripe's pages use them (base64url-looking). */
function opaque(length: number): string {
  return randomText(length, `${ALPHANUMERIC}-_`);
}

/** Stripe's form encoding (the SDK uses qs with indices): `a[b][0][c]=v` into nested objects and arrays. */
export function parseStripeForm(body: string): Obj {
  const root: Obj = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const keyPath = rawKey.replace(/\]/g, '').split('[');
    let node: Obj = root;
    keyPath.forEach((part, i) => {
      if (i === keyPath.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Obj;
    });
  }
  const arrays = (v: unknown): unknown => {
    if (!v || typeof v !== 'object') return v;
    const o = v as Obj;
    const keys = Object.keys(o);
    const mapped = Object.fromEntries(keys.map((k) => [k, arrays(o[k])]));
    return keys.length > 0 && keys.every((k) => /^\d+$/.test(k))
      ? keys.sort((a, b) => Number(a) - Number(b)).map((k) => mapped[k])
      : mapped;
  };
  return arrays(root) as Obj;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function now(): number {
  return Math.floor(Date.now() / 1000);
}

const DAY = 86_400;

function checkMetadata(metadata: unknown, param: string): Obj {
  if (metadata === undefined || metadata === '') return {};
  if (typeof metadata !== 'object') throw new StripeApiError(400, `Invalid object`, 'parameter_invalid_empty', param);
  const entries = Object.entries(metadata as Obj);
  // https://docs.stripe.com/api/metadata: up to 50 keys, keys up to 40 characters, values up to 500
  if (entries.length > 50) throw new StripeApiError(400, 'Metadata can have at most 50 keys', 'parameter_invalid_empty', param);
  for (const [k, v] of entries) {
    if (k.length > 40)
      throw new StripeApiError(400, `Metadata key ${k} is longer than 40 characters`, 'parameter_invalid_string_too_long', param);
    if (String(v).length > 500) throw new StripeApiError(400, `Metadata value of ${k} is longer than 500 characters`, undefined, param);
  }
  return metadata as Obj;
}

function required(body: Obj, name: string, param = name): unknown {
  if (body[name] === undefined || body[name] === '')
    throw new StripeApiError(400, `Missing required param: ${param}.`, 'parameter_missing', param);
  return body[name];
}

function bool(value: unknown, param: string): boolean {
  if (value === 'true' || value === true) return true;
  if (value === 'false' || value === false) return false;
  throw new StripeApiError(400, `Invalid boolean: ${String(value)}`, 'parameter_invalid_boolean', param);
}

function oneOfValues<T extends string>(value: unknown, allowed: readonly T[], param: string): T {
  if (!allowed.includes(value as T)) {
    throw new StripeApiError(400, `Invalid ${param}: must be one of ${allowed.join(', ')}`, 'parameter_invalid', param);
  }
  return value as T;
}

function list(data: unknown[], url: string): Obj {
  return { object: 'list', data, has_more: false, url };
}

function limitOf(query: Obj): number {
  // https://docs.stripe.com/api/pagination: limit between 1 and 100, 10 by default
  const limit = query.limit === undefined ? 10 : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    throw new StripeApiError(400, 'limit must be between 1 and 100', undefined, 'limit');
  return limit;
}

/** What the fake keeps of a Checkout Session beyond Stripe's object (its line items and the data it hands on). */
interface SessionExtras {
  items: Obj[];
  subscriptionData: Obj | null;
}

export class FakeStripe {
  private readonly http = new LocalHttpServer((req, res) => this.handle(req, res));
  private readonly stripeSdk = new Stripe('sk_test_signing_only');
  readonly products = new Map<string, Obj>();
  readonly prices = new Map<string, Obj>();
  readonly customers = new Map<string, Obj>();
  readonly sessions = new Map<string, Obj>();
  readonly subscriptions = new Map<string, Obj>();
  readonly invoices = new Map<string, Obj>();
  readonly charges = new Map<string, Obj>();
  readonly portalSessions = new Map<string, Obj>();
  readonly portalConfigurations = new Map<string, Obj>();
  /** every event Stripe produced, by id (GET /v1/events/:id answers them for 30 days) */
  readonly events = new Map<string, Obj>();
  /** every API call the app made: method and path */
  readonly calls: string[] = [];
  /** the Stripe-Version header of every API call */
  readonly versions = new Set<string>();
  /** the API version the events are rendered in (a webhook endpoint's version); the SDK's own by default */
  apiVersion: string = Stripe.API_VERSION;
  /** Calls that answer as Stripe does when it fails: `GET /v1/subscriptions` -> how many more times a 500 */
  readonly failures = new Map<string, number>();
  private readonly idempotent = new Map<string, { params: string; status: number; body: Obj }>();
  private readonly sessionExtras = new Map<string, SessionExtras>();
  private readonly deletedCustomers = new Set<string>();
  /** portal page token -> portal session id; hosted invoice token -> invoice id */
  private readonly portalTokens = new Map<string, string>();
  private readonly invoiceTokens = new Map<string, string>();
  private idLength: number | null = null;
  private readonly livemode: boolean;
  /** the account, as Stripe's fixture names it: it appears in hosted invoice URLs */
  private readonly accountId = String(fixture('account').id);

  constructor(private readonly options: FakeStripeOptions) {
    this.livemode = /^(sk|rk)_live_/.test(options.secretKey);
  }

  start(): Promise<string> {
    return this.http.start();
  }

  stop(): Promise<void> {
    return this.http.stop();
  }

  get url(): string {
    return this.http.baseUrl;
  }

  set send(send: FakeStripeOptions['send']) {
    this.options.send = send;
  }

  /** From now on every new object gets a 255-character id (the longest Stripe documents). */
  useLongIds(): void {
    this.idLength = LONGEST_STRIPE_ID;
  }

  /** From now on new objects get ids as long as the fixture's again. */
  useFixtureIds(): void {
    this.idLength = null;
  }

  /** A new id of `resource` (a fixture name), shaped as Stripe's: its prefix, random characters, its length. */
  newId(resource: string, example?: string): string {
    const shape = example ? shapeOf(example) : idShape(resource);
    const prefix = this.livemode ? shape.prefix.replace(/_test_$/, '_live_') : shape.prefix;
    return `${prefix}${randomText((this.idLength ?? shape.length) - prefix.length)}`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    const reply = (status: number, body: Obj) => {
      res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': `req_${randomText(14)}` });
      res.end(JSON.stringify(body));
    };
    try {
      // the pages a person opens (not the API): Checkout, the billing portal, a hosted invoice
      const page = /^\/c\/pay\/(cs_(?:test|live)_\w+)$/.exec(url.pathname);
      if (page) return await this.checkoutPage(req.method ?? 'GET', page[1], res);
      const portalPage = /^\/p\/session\/((?:test|live)_[\w-]+)$/.exec(url.pathname);
      if (portalPage) return this.portalPage(portalPage[1], res);
      const invoicePage = /^\/i\/acct_\w+\/((?:test|live)_[\w-]+)$/.exec(url.pathname);
      if (invoicePage) return await this.invoicePage(req.method ?? 'GET', invoicePage[1], res);

      // https://docs.stripe.com/api/authentication: the secret key as a Bearer token; anything else is a 401
      const auth = req.headers.authorization ?? '';
      if (auth !== `Bearer ${this.options.secretKey}`) {
        throw new StripeApiError(401, 'Invalid API Key provided: the fake Stripe knows one key only.', undefined, undefined);
      }
      const version = req.headers['stripe-version'];
      if (typeof version === 'string') this.versions.add(version);
      let body: Obj = {};
      // https://docs.stripe.com/api: "accepts form-encoded request bodies, returns JSON-encoded responses"
      if (req.method === 'POST') {
        if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) {
          throw new StripeApiError(400, 'Stripe expects a form-encoded body (application/x-www-form-urlencoded).');
        }
        body = parseStripeForm(raw);
      } else {
        body = parseStripeForm(url.searchParams.toString());
      }
      this.calls.push(`${req.method} ${url.pathname}`);
      const failing = this.failureOf(req.method ?? 'GET', url.pathname);
      if (failing) throw new StripeApiError(500, 'An unknown error occurred', undefined, undefined, 'api_error');
      // https://docs.stripe.com/api/idempotent_requests: the same key answers the first result; with
      // other parameters it is an error
      const key = req.headers['idempotency-key'];
      const cacheKey = typeof key === 'string' && req.method === 'POST' ? `${url.pathname} ${key}` : undefined;
      const cached = cacheKey ? this.idempotent.get(cacheKey) : undefined;
      if (cached) {
        if (cached.params !== raw) {
          throw new StripeApiError(
            400,
            `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${String(key)}' if you meant to execute a different request.`,
            'idempotency_key_in_use',
            undefined,
            'idempotency_error',
          );
        }
        return reply(cached.status, cached.body);
      }
      const result = this.route(req.method ?? 'GET', url.pathname, body);
      if (cacheKey) this.idempotent.set(cacheKey, { params: raw, status: 200, body: result });
      reply(200, result);
    } catch (error) {
      // https://docs.stripe.com/api/errors: { error: { type, code, message, param } } with the HTTP status
      if (error instanceof StripeApiError) {
        return reply(error.status, { error: { type: error.type, message: error.message, code: error.code, param: error.param } });
      }
      reply(500, { error: { type: 'api_error', message: error instanceof Error ? error.message : String(error) } });
    }
  }

  /** Counts a call down against `failures` (keys like `GET /v1/subscriptions`, matched as a prefix of the path). */
  private failureOf(method: string, pathname: string): boolean {
    for (const [key, left] of this.failures) {
      const [m, prefix] = key.split(' ');
      if (m !== method || !pathname.startsWith(prefix) || left <= 0) continue;
      this.failures.set(key, left - 1);
      return true;
    }
    return false;
  }

  private html(res: ServerResponse, status: number, title: string, body: string): void {
    res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>${escapeHtml(title)} (fake Stripe)</title></head><body>${body}</body></html>`,
    );
  }

  /**
   * Stripe's hosted Checkout page, as far as a person uses it: the amount, a Pay button (a form
   * POST: the session is paid, Stripe's signed webhooks are delivered to the app, and the browser
   * is sent to success_url, its {CHECKOUT_SESSION_ID} filled in), and a link back to cancel_url.
   */
  private async checkoutPage(method: string, id: string, res: ServerResponse): Promise<void> {
    const session = this.found(this.sessions, id, 'checkout.session');
    if (session.status !== 'open') return this.html(res, 410, 'Checkout', `<h1>This Checkout Session is no longer available</h1>`);
    if (method === 'POST') {
      await this.pay(id);
      const back = String(session.success_url).replace('{CHECKOUT_SESSION_ID}', id);
      res.writeHead(303, { Location: back });
      res.end();
      return;
    }
    const amount = `$${(Number(session.amount_total) / 100).toFixed(2)}`;
    const cancel = session.cancel_url ? `<p><a href="${escapeHtml(String(session.cancel_url))}">Cancel</a></p>` : '';
    this.html(
      res,
      200,
      'Checkout',
      `<main><h1>Pay ${amount}</h1><p>${session.mode === 'subscription' ? 'per month' : 'one-time payment'}</p>` +
        // the form names the page without its #fragment: a redirect keeps the fragment of the URL it answers
        // (RFC 9110 10.2.2), and Stripe's own page goes to success_url exactly
        `<form method="post" action="/c/pay/${escapeHtml(id)}"><button type="submit">Pay</button></form>${cancel}</main>`,
    );
  }

  /** The billing portal a person opens: what its configuration lets them do, and the way back (return_url). */
  private portalPage(token: string, res: ServerResponse): void {
    const session = this.found(this.portalSessions, this.portalTokens.get(token) ?? '', 'billing_portal.session');
    const config = this.portalConfigurations.get(String(session.configuration));
    const features = (config?.features ?? {}) as Record<string, Obj>;
    const offered = Object.entries(features)
      .filter(([, f]) => f.enabled)
      .map(([name]) => `<li>${escapeHtml(name.replace(/_/g, ' '))}</li>`)
      .join('');
    const back = session.return_url ? `<p><a href="${escapeHtml(String(session.return_url))}">Return</a></p>` : '';
    this.html(res, 200, 'Billing portal', `<h1>Billing portal</h1><ul>${offered}</ul>${back}`);
  }

  /** Stripe's hosted invoice page: an open invoice's amount and a button that authenticates (3-D Secure) and pays it. */
  private async invoicePage(method: string, token: string, res: ServerResponse): Promise<void> {
    const invoice = this.found(this.invoices, this.invoiceTokens.get(token) ?? '', 'invoice');
    if (method === 'POST' && invoice.status === 'open') await this.payInvoice(String(invoice.id));
    const amount = `$${(Number(invoice.amount_due) / 100).toFixed(2)}`;
    if (invoice.status === 'paid') return this.html(res, 200, 'Invoice', `<h1>Invoice paid</h1><p>${amount}</p>`);
    this.html(
      res,
      200,
      'Invoice',
      `<main><h1>Pay ${amount}</h1><form method="post"><button type="submit">Authenticate and pay</button></form></main>`,
    );
  }

  private route(method: string, pathname: string, body: Obj): Obj {
    const m = (pattern: RegExp) => pattern.exec(pathname);
    let match: RegExpExecArray | null;
    if (method === 'POST' && pathname === '/v1/products') return this.createProduct(body);
    if (method === 'GET' && (match = m(/^\/v1\/products\/([^/]+)$/))) return this.found(this.products, match[1], 'product');
    if (method === 'POST' && pathname === '/v1/prices') return this.createPrice(body);
    if (method === 'GET' && pathname === '/v1/prices') return this.listPrices(body);
    if (method === 'POST' && (match = m(/^\/v1\/prices\/([^/]+)$/))) return this.updatePrice(match[1], body);
    if (method === 'POST' && pathname === '/v1/customers') return this.createCustomer(body);
    if (method === 'GET' && (match = m(/^\/v1\/customers\/([^/]+)$/))) return this.retrieveCustomer(match[1]);
    if (method === 'DELETE' && (match = m(/^\/v1\/customers\/([^/]+)$/))) return this.deleteCustomerNow(match[1]);
    if (method === 'POST' && pathname === '/v1/checkout/sessions') return this.createSession(body);
    if (method === 'POST' && pathname === '/v1/billing_portal/sessions') return this.createPortalSession(body);
    if (method === 'POST' && pathname === '/v1/billing_portal/configurations') return this.createPortalConfiguration(body);
    if (method === 'GET' && pathname === '/v1/billing_portal/configurations') return this.listPortalConfigurations(body);
    if (method === 'GET' && (match = m(/^\/v1\/billing_portal\/configurations\/([^/]+)$/)))
      return this.found(this.portalConfigurations, match[1], 'billing_portal.configuration');
    if (method === 'POST' && (match = m(/^\/v1\/billing_portal\/configurations\/([^/]+)$/)))
      return this.updatePortalConfiguration(match[1], body);
    if (method === 'GET' && (match = m(/^\/v1\/subscriptions\/([^/]+)$/))) return this.found(this.subscriptions, match[1], 'subscription');
    if (method === 'DELETE' && (match = m(/^\/v1\/subscriptions\/([^/]+)$/))) return this.cancelNow(match[1]);
    if (method === 'GET' && (match = m(/^\/v1\/charges\/([^/]+)$/))) return this.found(this.charges, match[1], 'charge');
    if (method === 'GET' && (match = m(/^\/v1\/events\/([^/]+)$/))) return this.retrieveEvent(match[1]);
    throw new StripeApiError(404, `Unrecognized request URL (${method}: ${pathname}).`);
  }

  private found(map: Map<string, Obj>, id: string, what: string): Obj {
    const o = map.get(id);
    if (!o) throw new StripeApiError(404, `No such ${what}: '${id}'`, 'resource_missing', 'id');
    return o;
  }

  private createProduct(body: Obj): Obj {
    const name = required(body, 'name') as string;
    const id = (body.id as string) || this.newId('product');
    if (this.products.has(id)) throw new StripeApiError(400, `Product already exists.`, 'resource_already_exists', 'id');
    // https://docs.stripe.com/api/products/object
    const product = {
      ...fixture('product'),
      id,
      name,
      active: true,
      description: null,
      default_price: null,
      package_dimensions: null,
      type: 'service',
      metadata: checkMetadata(body.metadata, 'metadata'),
      created: now(),
      updated: now(),
      livemode: this.livemode,
    };
    this.products.set(id, product);
    return product;
  }

  private createPrice(body: Obj): Obj {
    const product = required(body, 'product') as string;
    if (!this.products.has(product)) throw new StripeApiError(400, `No such product: '${product}'`, 'resource_missing', 'product');
    const currency = required(body, 'currency') as string;
    if (!/^[a-z]{3}$/.test(currency)) throw new StripeApiError(400, `Invalid currency: ${currency}`, 'parameter_invalid', 'currency');
    const amount = required(body, 'unit_amount') as string;
    if (!/^\d+$/.test(amount)) throw new StripeApiError(400, 'Invalid integer: unit_amount', 'parameter_invalid_integer', 'unit_amount');
    const recurring = body.recurring as Obj | undefined;
    if (recurring) oneOfValues(recurring.interval, ['day', 'week', 'month', 'year'], 'recurring[interval]');
    const lookupKey = (body.lookup_key as string) || null;
    if (lookupKey) {
      // https://docs.stripe.com/api/prices/create#create_price-lookup_key: up to 200 characters
      if (lookupKey.length > 200) throw new StripeApiError(400, 'lookup_key is longer than 200 characters', undefined, 'lookup_key');
      const holder = [...this.prices.values()].find((p) => p.lookup_key === lookupKey);
      if (holder) {
        // https://docs.stripe.com/api/prices/create#create_price-transfer_lookup_key: the key moves to the new price
        if (body.transfer_lookup_key !== 'true') {
          throw new StripeApiError(
            400,
            `A price (\`${String(holder.id)}\`) already uses that lookup key.`,
            'lookup_key_already_used',
            'lookup_key',
          );
        }
        holder.lookup_key = null;
      }
    }
    const example = fixture('price');
    // https://docs.stripe.com/api/prices/object
    const price = {
      ...example,
      id: this.newId('price'),
      active: true,
      currency,
      product,
      unit_amount: Number(amount),
      unit_amount_decimal: amount,
      lookup_key: lookupKey,
      nickname: null,
      type: recurring ? 'recurring' : 'one_time',
      recurring: recurring
        ? {
            ...(example.recurring as Obj),
            interval: recurring.interval,
            interval_count: Number(recurring.interval_count ?? 1),
            usage_type: 'licensed',
          }
        : null,
      transform_quantity: null,
      metadata: checkMetadata(body.metadata, 'metadata'),
      created: now(),
      livemode: this.livemode,
    };
    this.prices.set(price.id, price);
    return price;
  }

  private listPrices(query: Obj): Obj {
    const limit = limitOf(query);
    let data = [...this.prices.values()];
    if (query.lookup_keys !== undefined) {
      const keys = ([] as unknown[]).concat(query.lookup_keys).map(String);
      // https://docs.stripe.com/api/prices/list#list_prices-lookup_keys: at most 10
      if (keys.length > 10) throw new StripeApiError(400, 'lookup_keys: at most 10 keys', undefined, 'lookup_keys');
      data = data.filter((p) => keys.includes(String(p.lookup_key)));
    }
    if (query.active !== undefined) data = data.filter((p) => String(p.active) === query.active);
    return list(data.slice(0, limit), '/v1/prices');
  }

  private updatePrice(id: string, body: Obj): Obj {
    const price = this.found(this.prices, id, 'price');
    // https://docs.stripe.com/api/prices/update: an amount cannot be changed
    for (const k of Object.keys(body)) {
      if (!['active', 'lookup_key', 'metadata', 'nickname', 'transfer_lookup_key'].includes(k)) {
        throw new StripeApiError(400, `Received unknown parameter: ${k}`, 'parameter_unknown', k);
      }
    }
    if (body.active !== undefined) price.active = bool(body.active, 'active');
    if (body.metadata !== undefined) price.metadata = { ...(price.metadata as Obj), ...checkMetadata(body.metadata, 'metadata') };
    return price;
  }

  private createCustomer(body: Obj): Obj {
    // https://docs.stripe.com/api/customers/object
    const customer = {
      ...fixture('customer'),
      id: this.newId('customer'),
      email: body.email ?? null,
      name: body.name ?? null,
      discount: null,
      invoice_prefix: randomText(8).toUpperCase(),
      metadata: checkMetadata(body.metadata, 'metadata'),
      created: now(),
      livemode: this.livemode,
    };
    this.customers.set(customer.id, customer);
    return customer;
  }

  /**
   * A customer that does not exist here: deleted, or never made with this account's keys (test keys
   * switched to live). Stripe answers `resource_missing` on the parameter that names it.
   */
  private liveCustomer(id: string, param: string): Obj {
    const customer = this.customers.get(id);
    if (!customer || this.deletedCustomers.has(id)) throw new StripeApiError(400, `No such customer: '${id}'`, 'resource_missing', param);
    return customer;
  }

  /** https://docs.stripe.com/api/customers/retrieve: a deleted customer answers `{ id, object, deleted: true }`. */
  private retrieveCustomer(id: string): Obj {
    if (this.deletedCustomers.has(id)) return { ...fixture('deleted_customer'), id };
    return this.found(this.customers, id, 'customer');
  }

  private deleteCustomerNow(id: string): Obj {
    this.found(this.customers, id, 'customer');
    void this.deleteCustomer(id).catch(() => undefined);
    return { ...fixture('deleted_customer'), id };
  }

  private createSession(body: Obj): Obj {
    // https://docs.stripe.com/api/checkout/sessions/create
    const mode = oneOfValues(required(body, 'mode'), ['payment', 'subscription', 'setup'], 'mode');
    if (body.ui_mode !== 'embedded') required(body, 'success_url');
    if (body.customer && body.customer_email) {
      throw new StripeApiError(
        400,
        'You may only specify one of these parameters: customer, customer_email.',
        'parameter_invalid',
        'customer',
      );
    }
    if (body.customer) this.liveCustomer(String(body.customer), 'customer');
    if (body.client_reference_id && String(body.client_reference_id).length > 200) {
      throw new StripeApiError(400, 'client_reference_id is longer than 200 characters', undefined, 'client_reference_id');
    }
    if (body.subscription_data && mode !== 'subscription') {
      throw new StripeApiError(400, 'subscription_data can only be used in subscription mode.', 'parameter_invalid', 'subscription_data');
    }
    if (body.payment_intent_data && mode !== 'payment') {
      throw new StripeApiError(400, 'payment_intent_data can only be used in payment mode.', 'parameter_invalid', 'payment_intent_data');
    }
    const items = required(body, 'line_items') as Obj[];
    if (!Array.isArray(items) || items.length === 0) throw new StripeApiError(400, 'line_items must not be empty', undefined, 'line_items');
    let total = 0;
    for (const [i, item] of items.entries()) {
      const price = this.prices.get(String(item.price));
      if (!price) throw new StripeApiError(400, `No such price: '${String(item.price)}'`, 'resource_missing', `line_items[${i}][price]`);
      if (!price.active) throw new StripeApiError(400, `The price specified is inactive.`, 'price_inactive', `line_items[${i}][price]`);
      if (mode === 'payment' && price.recurring) {
        throw new StripeApiError(400, 'You specified `payment` mode but passed a recurring price. Use `subscription` mode instead.');
      }
      if (mode === 'subscription' && !price.recurring) {
        throw new StripeApiError(400, 'You must provide at least one recurring price in `subscription` mode.');
      }
      total += Number(price.unit_amount) * Number(item.quantity ?? 1);
    }
    const id = this.newId('checkout.session');
    const created = now();
    // https://docs.stripe.com/api/checkout/sessions/object: `url` is Stripe's hosted page; its
    // fragment (#fid...) carries the page's own state, so it is hundreds of characters long
    const session = {
      ...fixture('checkout.session'),
      id,
      mode,
      status: 'open',
      payment_status: 'unpaid',
      url: `${this.url}/c/pay/${id}#fid${opaque(240)}`,
      customer: body.customer ?? null,
      customer_email: body.customer_email ?? null,
      customer_details: null,
      client_reference_id: body.client_reference_id ?? null,
      metadata: checkMetadata(body.metadata, 'metadata'),
      success_url: body.success_url,
      cancel_url: body.cancel_url ?? null,
      amount_subtotal: total,
      amount_total: total,
      currency: 'usd',
      currency_conversion: null,
      shipping_address_collection: null,
      shipping_cost: null,
      shipping_options: [],
      total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
      invoice: null,
      invoice_creation: null,
      after_expiration: null,
      custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
      collected_information: null,
      payment_intent: null,
      subscription: null,
      created,
      // https://docs.stripe.com/api/checkout/sessions/create#create_checkout_session-expires_at: 24 hours by default
      expires_at: created + DAY,
      livemode: this.livemode,
    };
    this.sessions.set(id, session);
    this.sessionExtras.set(id, { items, subscriptionData: (body.subscription_data as Obj | undefined) ?? null });
    return session;
  }

  /** DELETE /v1/subscriptions/:id: cancelled at once; Stripe then sends customer.subscription.deleted. https://docs.stripe.com/api/subscriptions/cancel */
  private cancelNow(id: string): Obj {
    const sub = this.subscription(id);
    if (sub.status === 'canceled') {
      throw new StripeApiError(400, `A canceled subscription can only update its cancellation_details and metadata.`, 'resource_missing');
    }
    Object.assign(sub, { status: 'canceled', canceled_at: now(), ended_at: now() });
    const event = this.event('customer.subscription.deleted', sub);
    setImmediate(() => void this.deliver(event).catch(() => undefined));
    return sub;
  }

  /**
   * https://docs.stripe.com/api/customer_portal/sessions/create. Without `configuration` the
   * session uses the account's default one, which exists only once someone saved the portal's
   * settings in the Dashboard; a new account (this fake) has none, and Stripe refuses the session
   * (its message as reported in https://github.com/mozilla/fxa/issues/13245).
   */
  private createPortalSession(body: Obj): Obj {
    const customer = required(body, 'customer') as string;
    this.liveCustomer(customer, 'customer');
    let configuration: Obj | undefined;
    if (body.configuration !== undefined) {
      configuration = this.portalConfigurations.get(String(body.configuration));
      if (!configuration) {
        throw new StripeApiError(400, `No such configuration: '${String(body.configuration)}'`, 'resource_missing', 'configuration');
      }
      if (!configuration.active) {
        throw new StripeApiError(400, 'The configuration is not active.', 'parameter_invalid', 'configuration');
      }
    } else {
      configuration = [...this.portalConfigurations.values()].find((c) => c.is_default);
      if (!configuration) {
        throw new StripeApiError(
          400,
          `You can’t create a portal session in ${this.livemode ? 'live' : 'test'} mode until you save your customer portal settings in ${this.livemode ? 'live' : 'test'} mode at https://dashboard.stripe.com/${this.livemode ? '' : 'test/'}settings/billing/portal.`,
        );
      }
    }
    const id = this.newId('billing_portal.session');
    const token = `${this.livemode ? 'live' : 'test'}_${opaque(96)}`;
    this.portalTokens.set(token, id);
    // https://docs.stripe.com/api/customer_portal/sessions/object: `url` is the short-lived portal page
    const session = {
      ...fixture('billing_portal.session'),
      id,
      customer,
      configuration: configuration.id,
      flow: null,
      locale: null,
      return_url: body.return_url ?? null,
      url: `${this.url}/p/session/${token}`,
      created: now(),
      livemode: this.livemode,
    };
    this.portalSessions.set(id, session);
    return session;
  }

  /** The features of a portal configuration, checked as https://docs.stripe.com/api/customer_portal/configurations/create documents them. */
  private portalFeatures(features: Obj, base: Obj, creating: boolean): Obj {
    if (typeof features !== 'object') throw new StripeApiError(400, `Invalid object`, 'parameter_invalid', 'features');
    const out: Obj = structuredClone(base);
    const feature = (name: string, check: (given: Obj, param: string) => Obj) => {
      const given = features[name] as Obj | undefined;
      if (given === undefined) return;
      const param = `features[${name}]`;
      if (typeof given !== 'object') throw new StripeApiError(400, `Invalid object`, 'parameter_invalid', param);
      if (creating) required(given, 'enabled', `${param}[enabled]`);
      out[name] = { ...((out[name] as Obj | undefined) ?? {}), ...check(given, param) };
    };
    const enabled = (given: Obj, param: string) =>
      given.enabled === undefined ? {} : { enabled: bool(given.enabled, `${param}[enabled]`) };
    feature('customer_update', (given, param) => ({
      ...enabled(given, param),
      ...(given.allowed_updates === undefined
        ? {}
        : {
            allowed_updates: ([] as unknown[])
              .concat(given.allowed_updates === '' ? [] : given.allowed_updates)
              .map((u) => oneOfValues(u, ['address', 'email', 'name', 'phone', 'shipping', 'tax_id'], `${param}[allowed_updates]`)),
          }),
    }));
    feature('invoice_history', (given, param) => enabled(given, param));
    feature('payment_method_update', (given, param) => enabled(given, param));
    feature('subscription_cancel', (given, param) => ({
      ...enabled(given, param),
      ...(given.mode === undefined ? {} : { mode: oneOfValues(given.mode, ['immediately', 'at_period_end'], `${param}[mode]`) }),
      ...(given.proration_behavior === undefined
        ? {}
        : {
            proration_behavior: oneOfValues(
              given.proration_behavior,
              ['none', 'create_prorations', 'always_invoice'],
              `${param}[proration_behavior]`,
            ),
          }),
    }));
    feature('subscription_update', (given, param) => {
      const update: Obj = enabled(given, param);
      if (given.default_allowed_updates !== undefined) {
        update.default_allowed_updates = ([] as unknown[])
          .concat(given.default_allowed_updates === '' ? [] : given.default_allowed_updates)
          .map((u) => oneOfValues(u, ['price', 'quantity', 'promotion_code'], `${param}[default_allowed_updates]`));
      }
      if (given.proration_behavior !== undefined) {
        update.proration_behavior = oneOfValues(
          given.proration_behavior,
          ['none', 'create_prorations', 'always_invoice'],
          `${param}[proration_behavior]`,
        );
      }
      if (given.products !== undefined) {
        const products = ([] as Obj[]).concat(given.products === '' ? [] : (given.products as Obj[]));
        // "The list of up to 10 products that support subscription updates."
        if (products.length > 10) throw new StripeApiError(400, 'At most 10 products', 'parameter_invalid', `${param}[products]`);
        update.products = products.map((p, i) => {
          const at = `${param}[products][${i}]`;
          const product = String(required(p, 'product', `${at}[product]`));
          if (!this.products.has(product))
            throw new StripeApiError(400, `No such product: '${product}'`, 'resource_missing', `${at}[product]`);
          const prices = ([] as unknown[]).concat(required(p, 'prices', `${at}[prices]`)).map(String);
          for (const priceId of prices) {
            const price = this.prices.get(priceId);
            if (!price) throw new StripeApiError(400, `No such price: '${priceId}'`, 'resource_missing', `${at}[prices]`);
            if (price.product !== product) {
              throw new StripeApiError(
                400,
                `The price ${priceId} does not belong to product ${product}.`,
                'parameter_invalid',
                `${at}[prices]`,
              );
            }
            if (!price.recurring) {
              throw new StripeApiError(400, `The price ${priceId} is not a recurring price.`, 'parameter_invalid', `${at}[prices]`);
            }
          }
          return { product, prices, adjustable_quantity: { enabled: false, maximum: null, minimum: 1 } };
        });
      }
      return update;
    });
    return out;
  }

  private checkBusinessProfile(body: Obj): Obj | undefined {
    const profile = body.business_profile as Obj | undefined;
    if (profile === undefined) return undefined;
    // https://docs.stripe.com/api/customer_portal/configurations/update: "The maximum length is 60 characters."
    if (profile.headline !== undefined && String(profile.headline).length > 60) {
      throw new StripeApiError(400, 'The headline is longer than 60 characters', 'parameter_invalid', 'business_profile[headline]');
    }
    return profile;
  }

  /** https://docs.stripe.com/api/customer_portal/configurations/create: `features` is required, each feature's `enabled` too. */
  private createPortalConfiguration(body: Obj): Obj {
    const features = required(body, 'features') as Obj;
    const example = fixture('billing_portal.configuration');
    const disabled = structuredClone(example.features as Record<string, Obj>);
    for (const f of Object.values(disabled)) f.enabled = false;
    const subscriptionUpdate = disabled.subscription_update;
    Object.assign(subscriptionUpdate, { products: [], schedule_at_period_end: { conditions: [] } });
    const profile = this.checkBusinessProfile(body);
    const configuration = {
      ...example,
      id: this.newId('billing_portal.configuration'),
      active: true,
      is_default: false,
      business_profile: { ...(example.business_profile as Obj), privacy_policy_url: null, terms_of_service_url: null, ...(profile ?? {}) },
      default_return_url: body.default_return_url || null,
      features: this.portalFeatures(features, disabled, true),
      metadata: checkMetadata(body.metadata, 'metadata'),
      name: body.name || null,
      created: now(),
      updated: now(),
      livemode: this.livemode,
    };
    this.portalConfigurations.set(configuration.id, configuration);
    return configuration;
  }

  /** https://docs.stripe.com/api/customer_portal/configurations/list: `active`, `is_default`, `limit`. */
  private listPortalConfigurations(query: Obj): Obj {
    const limit = limitOf(query);
    let data = [...this.portalConfigurations.values()];
    if (query.active !== undefined) data = data.filter((c) => c.active === bool(query.active, 'active'));
    if (query.is_default !== undefined) data = data.filter((c) => c.is_default === bool(query.is_default, 'is_default'));
    return list(data.slice(0, limit), '/v1/billing_portal/configurations');
  }

  /** https://docs.stripe.com/api/customer_portal/configurations/update */
  private updatePortalConfiguration(id: string, body: Obj): Obj {
    const configuration = this.found(this.portalConfigurations, id, 'billing_portal.configuration');
    for (const k of Object.keys(body)) {
      if (!['active', 'business_profile', 'default_return_url', 'features', 'login_page', 'metadata', 'name'].includes(k)) {
        throw new StripeApiError(400, `Received unknown parameter: ${k}`, 'parameter_unknown', k);
      }
    }
    if (body.active !== undefined) configuration.active = bool(body.active, 'active');
    const profile = this.checkBusinessProfile(body);
    if (profile) configuration.business_profile = { ...(configuration.business_profile as Obj), ...profile };
    if (body.default_return_url !== undefined) configuration.default_return_url = body.default_return_url || null;
    if (body.features !== undefined)
      configuration.features = this.portalFeatures(body.features as Obj, configuration.features as Obj, false);
    if (body.metadata !== undefined)
      configuration.metadata = { ...((configuration.metadata as Obj | null) ?? {}), ...checkMetadata(body.metadata, 'metadata') };
    if (body.name !== undefined) configuration.name = body.name || null;
    configuration.updated = now();
    return configuration;
  }

  /**
   * https://docs.stripe.com/api/events/retrieve: "Retrieves the details of an event if it was created
   * in the last 30 days."
   */
  private retrieveEvent(id: string): Obj {
    const event = this.events.get(id);
    if (!event || Number(event.created) < now() - 30 * DAY)
      throw new StripeApiError(404, `No such event: '${id}'`, 'resource_missing', 'id');
    return event;
  }

  // --- Stripe's side: what happens when a person pays, time passes, or money goes back ---

  /** The event Stripe would send, signed as Stripe signs it (https://docs.stripe.com/webhooks#verify-events). */
  signed(event: Obj, secret = this.options.webhookSecret, timestamp = now()): { payload: string; signature: string } {
    const payload = JSON.stringify(event, null, 2);
    return { payload, signature: this.stripeSdk.webhooks.generateTestHeaderString({ payload, secret, timestamp }) };
  }

  /** https://docs.stripe.com/api/events/object: the object as it is now, rendered in the endpoint's API version. */
  private event(type: string, object: Obj): Obj {
    const event = {
      ...fixture('event'),
      id: this.newId('event'),
      api_version: this.apiVersion,
      created: now(),
      type,
      data: { object: structuredClone(object) },
      livemode: this.livemode,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
    };
    this.events.set(event.id, event);
    return event;
  }

  /** Makes a stored event older (Stripe keeps events 30 days). */
  ageEvent(id: string, days: number): void {
    const event = this.events.get(id);
    if (!event) throw new Error(`no event ${id}`);
    event.created = Number(event.created) - days * DAY;
  }

  /** Sends events to the app in order; answers the statuses. */
  async deliver(...events: Obj[]): Promise<number[]> {
    if (!this.options.send) throw new Error('the fake Stripe has nowhere to send webhooks');
    const statuses: number[] = [];
    for (const e of events) {
      const { payload, signature } = this.signed(e);
      statuses.push(await this.options.send(payload, signature));
    }
    return statuses;
  }

  private async emit(events: Obj[], deliver: boolean): Promise<Obj[]> {
    if (deliver) {
      const statuses = await this.deliver(...events);
      if (statuses.some((s) => s !== 200)) throw new Error(`the app answered ${statuses.join(', ')} to the webhooks`);
    }
    return events;
  }

  private sessionOf(idOrUrl: string): Obj {
    const id = new URL(idOrUrl, 'http://fake').pathname.split('/').pop()!;
    return this.found(this.sessions, id, 'checkout.session');
  }

  /** https://docs.stripe.com/api/charges/object */
  private newCharge(amount: number, paymentIntent: string, customer: unknown): Obj {
    const example = fixture('charge');
    const charge = {
      ...example,
      id: this.newId('charge'),
      amount,
      amount_captured: amount,
      amount_refunded: 0,
      refunded: false,
      captured: true,
      currency: 'usd',
      payment_intent: paymentIntent,
      customer,
      description: null,
      balance_transaction: this.newId('balance_transaction'),
      payment_method: this.newId('payment_method'),
      billing_details: { ...(example.billing_details as Obj), name: null },
      receipt_url: `${this.url}/receipts/payment/${opaque(120)}`,
      refunds: list([], '/v1/charges/refunds'),
      source: null,
      transfer_data: null,
      status: 'succeeded',
      paid: true,
      created: now(),
      livemode: this.livemode,
    };
    this.charges.set(charge.id, charge);
    return charge;
  }

  /** https://docs.stripe.com/api/subscriptions/object (the item's `plan` is the price's legacy view) */
  private newSubscription(session: Obj, price: Obj, subscriptionData: Obj | null): Obj {
    const example = fixture('subscription');
    const exampleItem = ((example.items as Obj).data as Obj[])[0];
    const start = now();
    const id = this.newId('subscription');
    const plan = {
      ...fixture('plan'),
      id: price.id,
      amount: price.unit_amount,
      amount_decimal: String(price.unit_amount),
      currency: price.currency,
      interval: (price.recurring as Obj).interval,
      interval_count: (price.recurring as Obj).interval_count,
      product: price.product,
      metadata: price.metadata,
      livemode: this.livemode,
    };
    const item = {
      ...exampleItem,
      id: this.newId('subscription_item'),
      price,
      plan,
      quantity: 1,
      subscription: id,
      created: start,
      current_period_start: start,
      current_period_end: start + 30 * DAY,
      billing_thresholds: null,
    };
    return {
      ...example,
      id,
      customer: session.customer,
      status: 'active',
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      ended_at: null,
      trial_start: null,
      trial_end: null,
      pending_update: null,
      pause_collection: null,
      transfer_data: null,
      next_pending_invoice_item_invoice: null,
      billing_cycle_anchor: start,
      billing_cycle_anchor_config: null,
      billing_thresholds: null,
      latest_invoice: null,
      metadata: (subscriptionData?.metadata as Obj) ?? {},
      items: list([item], `/v1/subscription_items?subscription=${id}`),
      start_date: start,
      created: start,
      livemode: this.livemode,
    };
  }

  /** The person pays a Checkout Session (its id or url): the payment, or the subscription and its first invoice. */
  async pay(idOrUrl: string, opts: { deliver?: boolean } = {}): Promise<Obj[]> {
    const session = this.sessionOf(idOrUrl);
    if (session.status !== 'open') throw new Error(`session ${String(session.id)} is ${String(session.status)}`);
    const extras = this.sessionExtras.get(String(session.id))!;
    const events: Obj[] = [];
    const details = this.customerDetails(session);
    if (session.mode === 'payment') {
      const pi = this.newId('payment_intent');
      this.newCharge(Number(session.amount_total), pi, session.customer);
      Object.assign(session, { status: 'complete', payment_status: 'paid', payment_intent: pi, customer_details: details });
    } else {
      const price = this.prices.get(String(extras.items[0].price))!;
      const sub = this.newSubscription(session, price, extras.subscriptionData);
      this.subscriptions.set(String(sub.id), sub);
      const invoice = this.invoice(sub, 'subscription_create', 'paid');
      sub.latest_invoice = invoice.id;
      Object.assign(session, {
        status: 'complete',
        payment_status: 'paid',
        subscription: sub.id,
        invoice: invoice.id,
        customer_details: details,
      });
      events.push(this.event('customer.subscription.created', sub));
      events.push(this.event('invoice.paid', invoice));
    }
    events.push(this.event('checkout.session.completed', session));
    return this.emit(events, opts.deliver ?? true);
  }

  /**
   * The person pays a pack with a delayed payment method (a bank debit): the session completes
   * unpaid, and the money arrives (`settleLater`) or not (`failLater`) days later.
   * https://docs.stripe.com/checkout/fulfillment#delayed-notification
   */
  async payLater(idOrUrl: string, opts: { deliver?: boolean } = {}): Promise<Obj[]> {
    const session = this.sessionOf(idOrUrl);
    if (session.mode !== 'payment') throw new Error('only a one-time payment can be paid by a delayed method');
    Object.assign(session, {
      status: 'complete',
      payment_status: 'unpaid',
      payment_intent: this.newId('payment_intent'),
      customer_details: this.customerDetails(session),
    });
    return this.emit([this.event('checkout.session.completed', session)], opts.deliver ?? true);
  }

  /** The delayed payment of a session arrived: `checkout.session.async_payment_succeeded`. */
  async settleLater(sessionId: string, opts: { deliver?: boolean } = {}): Promise<Obj[]> {
    const session = this.found(this.sessions, sessionId, 'checkout.session');
    this.newCharge(Number(session.amount_total), String(session.payment_intent), session.customer);
    session.payment_status = 'paid';
    return this.emit([this.event('checkout.session.async_payment_succeeded', session)], opts.deliver ?? true);
  }

  /** The delayed payment of a session failed: `checkout.session.async_payment_failed`, nothing paid. */
  async failLater(sessionId: string, opts: { deliver?: boolean } = {}): Promise<Obj[]> {
    const session = this.found(this.sessions, sessionId, 'checkout.session');
    return this.emit([this.event('checkout.session.async_payment_failed', session)], opts.deliver ?? true);
  }

  private customerDetails(session: Obj): Obj {
    const customer = session.customer ? this.customers.get(String(session.customer)) : undefined;
    const example = fixture('checkout.session').customer_details as Obj;
    return { ...example, email: customer?.email ?? session.customer_email ?? null, name: customer?.name ?? null };
  }

  /** https://docs.stripe.com/api/invoices/object (the subscription under `parent.subscription_details` since 2025-03-31) */
  private invoice(sub: Obj, reason: string, status: 'paid' | 'open'): Obj {
    const item = ((sub.items as Obj).data as Obj[])[0];
    const price = item.price as Obj;
    const example = fixture('invoice');
    const exampleLine = ((example.lines as Obj).data as Obj[])[0];
    const id = this.newId('invoice');
    const token = `${this.livemode ? 'live' : 'test'}_${opaque(110)}`;
    this.invoiceTokens.set(token, id);
    const amount = Number(price.unit_amount);
    const customer = this.customers.get(String(sub.customer));
    const line = {
      ...exampleLine,
      id: this.newId('line_item', String(exampleLine.id)),
      invoice: id,
      amount,
      currency: price.currency,
      description: `1 × ${String(this.products.get(String(price.product))?.name ?? price.product)}`,
      period: { start: item.current_period_start, end: item.current_period_end },
      parent: {
        type: 'subscription_item_details',
        invoice_item_details: null,
        subscription_item_details: {
          invoice_item: null,
          proration: false,
          proration_details: { credited_items: null },
          subscription: sub.id,
          subscription_item: item.id,
        },
      },
      pricing: { type: 'price_details', price_details: { price: price.id, product: price.product }, unit_amount_decimal: String(amount) },
      subtotal: amount,
      livemode: this.livemode,
    };
    const invoice = {
      ...example,
      id,
      customer: sub.customer,
      customer_email: customer?.email ?? null,
      customer_name: customer?.name ?? null,
      billing_reason: reason,
      status,
      currency: price.currency,
      amount_due: amount,
      amount_paid: status === 'paid' ? amount : 0,
      amount_remaining: status === 'paid' ? 0 : amount,
      amount_overpaid: 0,
      subtotal: amount,
      subtotal_excluding_tax: amount,
      total: amount,
      total_excluding_tax: amount,
      attempt_count: 1,
      attempted: true,
      next_payment_attempt: status === 'paid' ? null : now() + 3 * DAY,
      number: `${String(customer?.invoice_prefix ?? 'FAKE')}-${String(this.invoices.size + 1).padStart(4, '0')}`,
      // https://docs.stripe.com/api/invoices/object#invoice_object-hosted_invoice_url: where the customer pays (or authenticates) it
      hosted_invoice_url: `${this.url}/i/${this.accountId}/${token}?s=ap`,
      invoice_pdf: `${this.url}/i/${this.accountId}/${token}/pdf?s=ap`,
      last_finalization_error: null,
      from_invoice: null,
      shipping_cost: null,
      due_date: null,
      lines: list([line], `/v1/invoices/${id}/lines`),
      parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: sub.id, metadata: sub.metadata } },
      period_start: item.current_period_start,
      period_end: item.current_period_end,
      status_transitions: {
        finalized_at: now(),
        marked_uncollectible_at: null,
        paid_at: status === 'paid' ? now() : null,
        voided_at: null,
      },
      webhooks_delivered_at: null,
      created: now(),
      livemode: this.livemode,
    };
    this.invoices.set(invoice.id, invoice);
    return invoice;
  }

  private subscription(id: string): Obj {
    return this.found(this.subscriptions, id, 'subscription');
  }

  private advancePeriod(sub: Obj): void {
    const item = ((sub.items as Obj).data as Obj[])[0];
    const end = Number(item.current_period_end);
    Object.assign(item, { current_period_start: end, current_period_end: end + 30 * DAY });
  }

  /** A month passed and the renewal was paid: `customer.subscription.updated`, `invoice.paid` (https://docs.stripe.com/billing/subscriptions/webhooks). */
  async renew(subscriptionId: string, opts: { deliver?: boolean } = {}): Promise<Obj[]> {
    const sub = this.subscription(subscriptionId);
    this.advancePeriod(sub);
    sub.status = 'active';
    const invoice = this.invoice(sub, 'subscription_cycle', 'paid');
    sub.latest_invoice = invoice.id;
    const events = [this.event('customer.subscription.updated', sub), this.event('invoice.paid', invoice)];
    return this.emit(events, opts.deliver ?? true);
  }

  /**
   * The person switches plans in the billing portal: allowed only when the configuration of their
   * latest portal session lets them switch to that price (`features.subscription_update`, with
   * `price` among `default_allowed_updates` and the price listed under its product). The new price
   * at once and a prorated invoice paid now (`proration_behavior: always_invoice`).
   * https://docs.stripe.com/customer-management/configure-portal
   */
  async changePlan(subscriptionId: string, lookupKey: string, opts: { deliver?: boolean } = {}): Promise<Obj[]> {
    const sub = this.subscription(subscriptionId);
    const price = [...this.prices.values()].find((p) => p.lookup_key === lookupKey && p.active);
    if (!price) throw new Error(`no active price ${lookupKey}`);
    const portal = [...this.portalSessions.values()].filter((s) => s.customer === sub.customer).pop();
    if (!portal) throw new Error('plans are switched in the billing portal: open a portal session first');
    const update = ((this.portalConfigurations.get(String(portal.configuration))?.features as Obj | undefined)?.subscription_update ??
      {}) as Obj;
    const listed = ((update.products as Obj[] | undefined) ?? []).some(
      (p) => p.product === price.product && (p.prices as string[]).includes(String(price.id)),
    );
    if (!update.enabled || !(update.default_allowed_updates as string[] | undefined)?.includes('price') || !listed) {
      throw new Error(`the portal configuration ${String(portal.configuration)} does not let the customer switch to ${String(price.id)}`);
    }
    const item = ((sub.items as Obj).data as Obj[])[0];
    item.price = price;
    const invoice = this.invoice(sub, 'subscription_update', 'paid');
    sub.latest_invoice = invoice.id;
    const events = [this.event('customer.subscription.updated', sub), this.event('invoice.paid', invoice)];
    return this.emit(events, opts.deliver ?? true);
  }

  /** A month passed and the renewal's payment failed: Stripe retries (past_due). https://docs.stripe.com/billing/subscriptions/overview#failed-payments */
  async failRenewal(subscriptionId: string, opts: { deliver?: boolean } = {}): Promise<Obj[]> {
    const sub = this.subscription(subscriptionId);
    this.advancePeriod(sub);
    sub.status = 'past_due';
    const invoice = this.invoice(sub, 'subscription_cycle', 'open');
    sub.latest_invoice = invoice.id;
    const events = [this.event('customer.subscription.updated', sub), this.event('invoice.payment_failed', invoice)];
    return this.emit(events, opts.deliver ?? true);
  }

  /**
   * A month passed and the renewal's payment needs the cardholder (3-D Secure): the invoice stays
   * open, the subscription is past_due, and `invoice.payment_action_required` is sent; the person
   * completes it on the invoice's `hosted_invoice_url`.
   * https://docs.stripe.com/billing/subscriptions/overview#requires-action,
   * https://docs.stripe.com/billing/subscriptions/webhooks
   */
  async requireAction(subscriptionId: string, opts: { deliver?: boolean } = {}): Promise<Obj[]> {
    const sub = this.subscription(subscriptionId);
    this.advancePeriod(sub);
    sub.status = 'past_due';
    const invoice = this.invoice(sub, 'subscription_cycle', 'open');
    sub.latest_invoice = invoice.id;
    const events = [this.event('customer.subscription.updated', sub), this.event('invoice.payment_action_required', invoice)];
    return this.emit(events, opts.deliver ?? true);
  }

  /** An open invoice is paid (the person authenticated on the hosted invoice page): the subscription is active again. */
  async payInvoice(invoiceId: string, opts: { deliver?: boolean } = {}): Promise<Obj[]> {
    const invoice = this.found(this.invoices, invoiceId, 'invoice');
    if (invoice.status !== 'open') throw new Error(`invoice ${invoiceId} is ${String(invoice.status)}`);
    Object.assign(invoice, { status: 'paid', amount_paid: invoice.amount_due, amount_remaining: 0, next_payment_attempt: null });
    (invoice.status_transitions as Obj).paid_at = now();
    const subId = ((invoice.parent as Obj).subscription_details as Obj).subscription as string;
    const sub = this.subscription(subId);
    sub.status = 'active';
    const events = [this.event('customer.subscription.updated', sub), this.event('invoice.paid', invoice)];
    return this.emit(events, opts.deliver ?? true);
  }

  /** The person cancels in the billing portal: the subscription ends with its period (`cancel_at_period_end`). https://docs.stripe.com/billing/subscriptions/cancel */
  async cancelAtPeriodEnd(subscriptionId: string, opts: { deliver?: boolean } = {}): Promise<Obj[]> {
    const sub = this.subscription(subscriptionId);
    const item = ((sub.items as Obj).data as Obj[])[0];
    Object.assign(sub, { cancel_at_period_end: true, cancel_at: item.current_period_end, canceled_at: now() });
    return this.emit([this.event('customer.subscription.updated', sub)], opts.deliver ?? true);
  }

  /** The period of a subscription cancelled at its end is over. */
  async endPeriod(subscriptionId: string, opts: { deliver?: boolean } = {}): Promise<Obj[]> {
    const sub = this.subscription(subscriptionId);
    if (!sub.cancel_at_period_end) throw new Error('only a subscription cancelled at its period end ends with it');
    Object.assign(sub, { status: 'canceled', ended_at: now() });
    return this.emit([this.event('customer.subscription.deleted', sub)], opts.deliver ?? true);
  }

  /**
   * The customer is deleted (in the Dashboard, or through the API): its subscriptions are cancelled
   * at once, and from then on Stripe answers `resource_missing` wherever it is named.
   * https://docs.stripe.com/api/customers/delete
   */
  async deleteCustomer(customerId: string, opts: { deliver?: boolean } = {}): Promise<Obj[]> {
    const customer = this.found(this.customers, customerId, 'customer');
    this.deletedCustomers.add(customerId);
    const events: Obj[] = [];
    for (const sub of this.subscriptions.values()) {
      if (sub.customer !== customerId || sub.status === 'canceled') continue;
      Object.assign(sub, { status: 'canceled', canceled_at: now(), ended_at: now() });
      events.push(this.event('customer.subscription.deleted', sub));
    }
    events.push(this.event('customer.deleted', customer));
    return this.emit(events, opts.deliver ?? true);
  }

  /** The secret key now names another account (test keys switched to live): none of this account's customers exist there. */
  forgetCustomers(): void {
    for (const id of this.customers.keys()) this.deletedCustomers.add(id);
  }

  private chargeOf(paymentIntent: string): Obj {
    const charge = [...this.charges.values()].find((c) => c.payment_intent === paymentIntent);
    if (!charge) throw new Error(`no charge for ${paymentIntent}`);
    return charge;
  }

  /** The merchant refunds (all by default, or `amount` cents more) the payment of a pack: `charge.refunded` with the amount refunded so far. https://docs.stripe.com/api/events/types */
  async refund(paymentIntent: string, amount?: number, opts: { deliver?: boolean } = {}): Promise<Obj[]> {
    const charge = this.chargeOf(paymentIntent);
    const refunded = Math.min(Number(charge.amount), Number(charge.amount_refunded) + (amount ?? Number(charge.amount)));
    Object.assign(charge, { amount_refunded: refunded, refunded: refunded === Number(charge.amount) });
    return this.emit([this.event('charge.refunded', charge)], opts.deliver ?? true);
  }

  /** The cardholder disputes the payment of a pack. https://docs.stripe.com/api/disputes/object */
  async dispute(paymentIntent: string, opts: { deliver?: boolean } = {}): Promise<Obj[]> {
    const charge = this.chargeOf(paymentIntent);
    const example = fixture('dispute');
    const dispute = {
      ...example,
      id: this.newId('dispute'),
      amount: charge.amount,
      currency: charge.currency,
      charge: charge.id,
      payment_intent: paymentIntent,
      status: 'needs_response',
      reason: 'fraudulent',
      evidence_details: { ...(example.evidence_details as Obj), due_by: now() + 7 * DAY },
      created: now(),
      livemode: this.livemode,
    };
    return this.emit([this.event('charge.dispute.created', dispute)], opts.deliver ?? true);
  }
}

export interface FakeStripeOptions {
  secretKey: string;
  webhookSecret: string;
  /** posts a webhook to the app: the raw body and its Stripe-Signature header; answers the status */
  send?: (payload: string, signature: string) => Promise<number>;
}
