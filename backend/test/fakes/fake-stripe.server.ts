import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { LocalHttpServer } from './local-http-server';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * A local Stripe speaking the parts of its API the app uses, as the official SDK calls them
 * (https://docs.stripe.com/api): form-encoded bodies with bracketed keys, `Authorization: Bearer
 * <secret key>`, errors as `{ error: { type, code, message, param } }` with Stripe's statuses, ids
 * with Stripe's prefixes, idempotency keys, and list objects. It enforces what the app could get
 * wrong: required fields, a lookup key used by one price only (unless `transfer_lookup_key`),
 * amounts that cannot be edited, the mode of a Checkout Session matching its price, metadata limits.
 *
 * Test helpers play the person and Stripe's own side: pay a Checkout Session (its `url` here is a
 * page a browser can use: Pay, or Cancel back to the app),
 * renew, fail a renewal, cancel at the period end, end the period, refund, dispute. Each produces
 * the events Stripe would send, signed with the SDK's generateTestHeaderString and delivered to the
 * app through `send` (or returned undelivered, to deliver in another order).
 */

type Obj = Record<string, unknown>;

export interface FakeStripeOptions {
  secretKey: string;
  webhookSecret: string;
  /** posts a webhook to the app: the raw body and its Stripe-Signature header; answers the status */
  send?: (payload: string, signature: string) => Promise<number>;
}

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

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
function newId(prefix: string): string {
  const bytes = randomBytes(24);
  return `${prefix}_${[...bytes].map((b) => ALPHABET[b % ALPHABET.length]).join('')}`;
}

/** Stripe's form encoding (the SDK uses qs with indices): `a[b][0][c]=v` into nested objects and arrays. */
export function parseStripeForm(body: string): Obj {
  const root: Obj = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const path = rawKey.replace(/\]/g, '').split('[');
    let node: Obj = root;
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value;
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

function required(body: Obj, name: string): unknown {
  if (body[name] === undefined || body[name] === '')
    throw new StripeApiError(400, `Missing required param: ${name}.`, 'parameter_missing', name);
  return body[name];
}

function list(data: unknown[], url: string): Obj {
  return { object: 'list', data, has_more: false, url };
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
  /** every API call the app made: method and path */
  readonly calls: string[] = [];
  private readonly idempotent = new Map<string, { status: number; body: Obj }>();

  constructor(private readonly options: FakeStripeOptions) {}

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

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    const reply = (status: number, body: Obj) => {
      res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': newId('req') });
      res.end(JSON.stringify(body));
    };
    try {
      // the Checkout page a person opens (not the API): GET shows it, POST pays and goes back to the app
      const page = /^\/c\/pay\/(cs_test_\w+)$/.exec(url.pathname);
      if (page) return await this.checkoutPage(req.method ?? 'GET', page[1], res);
      // the billing portal a person opens: a page with the way back (return_url)
      const portalPage = /^\/p\/session\/(bps_\w+)$/.exec(url.pathname);
      if (portalPage) {
        const session = this.found(this.portalSessions, portalPage[1], 'billing_portal.session');
        const back = session.return_url ? `<p><a href="${escapeHtml(String(session.return_url))}">Return</a></p>` : '';
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        res.end(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Billing portal (fake Stripe)</title></head><body><h1>Billing portal</h1>${back}</body></html>`,
        );
        return;
      }
      const auth = req.headers.authorization ?? '';
      if (auth !== `Bearer ${this.options.secretKey}`) {
        throw new StripeApiError(401, 'Invalid API Key provided: the fake Stripe knows one key only.', undefined, undefined);
      }
      let body: Obj = {};
      if (req.method === 'POST') {
        if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) {
          throw new StripeApiError(400, 'Stripe expects a form-encoded body (application/x-www-form-urlencoded).');
        }
        body = parseStripeForm(raw);
      } else {
        body = parseStripeForm(url.searchParams.toString());
      }
      this.calls.push(`${req.method} ${url.pathname}`);
      const key = req.headers['idempotency-key'];
      const cacheKey = typeof key === 'string' && req.method === 'POST' ? `${url.pathname} ${key}` : undefined;
      const cached = cacheKey ? this.idempotent.get(cacheKey) : undefined;
      if (cached) return reply(cached.status, cached.body);
      const result = this.route(req.method ?? 'GET', url.pathname, body);
      if (cacheKey) this.idempotent.set(cacheKey, { status: 200, body: result });
      reply(200, result);
    } catch (error) {
      if (error instanceof StripeApiError) {
        return reply(error.status, { error: { type: error.type, message: error.message, code: error.code, param: error.param } });
      }
      reply(500, { error: { type: 'api_error', message: error instanceof Error ? error.message : String(error) } });
    }
  }

  /**
   * Stripe's hosted Checkout page, as far as a person uses it: the amount, a Pay button (a form
   * POST: the session is paid, Stripe's signed webhooks are delivered to the app, and the browser
   * is sent to success_url, its {CHECKOUT_SESSION_ID} filled in), and a link back to cancel_url.
   */
  private async checkoutPage(method: string, id: string, res: ServerResponse): Promise<void> {
    const session = this.found(this.sessions, id, 'checkout.session');
    const html = (status: number, body: string) => {
      res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Checkout (fake Stripe)</title></head><body>${body}</body></html>`,
      );
    };
    if (session.status !== 'open') return html(410, `<h1>This Checkout Session is no longer available</h1>`);
    if (method === 'POST') {
      await this.pay(id);
      const back = String(session.success_url).replace('{CHECKOUT_SESSION_ID}', id);
      res.writeHead(303, { Location: back });
      res.end();
      return;
    }
    const amount = `$${(Number(session.amount_total) / 100).toFixed(2)}`;
    const cancel = session.cancel_url ? `<p><a href="${escapeHtml(String(session.cancel_url))}">Cancel</a></p>` : '';
    html(
      200,
      `<main><h1>Pay ${amount}</h1><p>${session.mode === 'subscription' ? 'per month' : 'one-time payment'}</p>` +
        `<form method="post"><button type="submit">Pay</button></form>${cancel}</main>`,
    );
  }

  private route(method: string, path: string, body: Obj): Obj {
    const m = (pattern: RegExp) => pattern.exec(path);
    let match: RegExpExecArray | null;
    if (method === 'POST' && path === '/v1/products') return this.createProduct(body);
    if (method === 'GET' && (match = m(/^\/v1\/products\/([^/]+)$/))) return this.found(this.products, match[1], 'product');
    if (method === 'POST' && path === '/v1/prices') return this.createPrice(body);
    if (method === 'GET' && path === '/v1/prices') return this.listPrices(body);
    if (method === 'POST' && (match = m(/^\/v1\/prices\/([^/]+)$/))) return this.updatePrice(match[1], body);
    if (method === 'POST' && path === '/v1/customers') return this.createCustomer(body);
    if (method === 'POST' && path === '/v1/checkout/sessions') return this.createSession(body);
    if (method === 'POST' && path === '/v1/billing_portal/sessions') return this.createPortalSession(body);
    if (method === 'GET' && (match = m(/^\/v1\/subscriptions\/([^/]+)$/))) return this.found(this.subscriptions, match[1], 'subscription');
    if (method === 'DELETE' && (match = m(/^\/v1\/subscriptions\/([^/]+)$/))) return this.cancelNow(match[1]);
    if (method === 'GET' && (match = m(/^\/v1\/charges\/([^/]+)$/))) return this.found(this.charges, match[1], 'charge');
    throw new StripeApiError(404, `Unrecognized request URL (${method}: ${path}).`);
  }

  private found(map: Map<string, Obj>, id: string, what: string): Obj {
    const o = map.get(id);
    if (!o) throw new StripeApiError(404, `No such ${what}: '${id}'`, 'resource_missing', 'id');
    return o;
  }

  private createProduct(body: Obj): Obj {
    const name = required(body, 'name') as string;
    const id = (body.id as string) || newId('prod');
    if (this.products.has(id)) throw new StripeApiError(400, `Product already exists.`, 'resource_already_exists', 'id');
    const product = { id, object: 'product', name, active: true, metadata: checkMetadata(body.metadata, 'metadata'), created: now() };
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
    if (recurring && !['day', 'week', 'month', 'year'].includes(String(recurring.interval))) {
      throw new StripeApiError(400, 'Invalid recurring[interval]', 'parameter_invalid', 'recurring[interval]');
    }
    const lookupKey = (body.lookup_key as string) || null;
    if (lookupKey) {
      if (lookupKey.length > 200) throw new StripeApiError(400, 'lookup_key is longer than 200 characters', undefined, 'lookup_key');
      const holder = [...this.prices.values()].find((p) => p.lookup_key === lookupKey);
      if (holder) {
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
    const price = {
      id: newId('price'),
      object: 'price',
      active: true,
      currency,
      product,
      unit_amount: Number(amount),
      lookup_key: lookupKey,
      type: recurring ? 'recurring' : 'one_time',
      recurring: recurring
        ? { interval: recurring.interval, interval_count: Number(recurring.interval_count ?? 1), usage_type: 'licensed' }
        : null,
      metadata: checkMetadata(body.metadata, 'metadata'),
      created: now(),
      livemode: false,
    };
    this.prices.set(price.id, price);
    return price;
  }

  private listPrices(query: Obj): Obj {
    const limit = query.limit === undefined ? 10 : Number(query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      throw new StripeApiError(400, 'limit must be between 1 and 100', undefined, 'limit');
    let data = [...this.prices.values()];
    if (query.lookup_keys !== undefined) {
      const keys = ([] as unknown[]).concat(query.lookup_keys).map(String);
      if (keys.length > 10) throw new StripeApiError(400, 'lookup_keys: at most 10 keys', undefined, 'lookup_keys');
      data = data.filter((p) => keys.includes(String(p.lookup_key)));
    }
    if (query.active !== undefined) data = data.filter((p) => String(p.active) === query.active);
    return list(data.slice(0, limit), '/v1/prices');
  }

  private updatePrice(id: string, body: Obj): Obj {
    const price = this.found(this.prices, id, 'price');
    for (const k of Object.keys(body)) {
      if (!['active', 'lookup_key', 'metadata', 'nickname', 'transfer_lookup_key'].includes(k)) {
        throw new StripeApiError(400, `Received unknown parameter: ${k}`, 'parameter_unknown', k);
      }
    }
    if (body.active !== undefined) price.active = body.active === 'true';
    if (body.metadata !== undefined) price.metadata = { ...(price.metadata as Obj), ...checkMetadata(body.metadata, 'metadata') };
    return price;
  }

  private createCustomer(body: Obj): Obj {
    const customer = {
      id: newId('cus'),
      object: 'customer',
      email: body.email ?? null,
      name: body.name ?? null,
      metadata: checkMetadata(body.metadata, 'metadata'),
      created: now(),
    };
    this.customers.set(customer.id, customer);
    return customer;
  }

  private createSession(body: Obj): Obj {
    const mode = required(body, 'mode') as string;
    if (!['payment', 'subscription', 'setup'].includes(mode))
      throw new StripeApiError(400, `Invalid mode: ${mode}`, 'parameter_invalid', 'mode');
    if (body.ui_mode !== 'embedded') required(body, 'success_url');
    if (body.customer && body.customer_email) {
      throw new StripeApiError(
        400,
        'You may only specify one of these parameters: customer, customer_email.',
        'parameter_invalid',
        'customer',
      );
    }
    if (body.customer && !this.customers.has(body.customer as string)) {
      throw new StripeApiError(400, `No such customer: '${String(body.customer)}'`, 'resource_missing', 'customer');
    }
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
    const id = newId('cs_test');
    const session = {
      id,
      object: 'checkout.session',
      mode,
      status: 'open',
      payment_status: 'unpaid',
      url: `${this.url}/c/pay/${id}`,
      customer: body.customer ?? null,
      customer_email: body.customer_email ?? null,
      client_reference_id: body.client_reference_id ?? null,
      metadata: checkMetadata(body.metadata, 'metadata'),
      success_url: body.success_url,
      cancel_url: body.cancel_url ?? null,
      amount_total: total,
      currency: 'usd',
      line_items_for_fake: items,
      subscription_data_for_fake: body.subscription_data ?? null,
      payment_intent: null,
      subscription: null,
      created: now(),
      livemode: false,
    };
    this.sessions.set(id, session);
    return session;
  }

  /** DELETE /v1/subscriptions/:id: cancelled at once; Stripe then sends customer.subscription.deleted. */
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

  private createPortalSession(body: Obj): Obj {
    const customer = required(body, 'customer') as string;
    if (!this.customers.has(customer)) throw new StripeApiError(400, `No such customer: '${customer}'`, 'resource_missing', 'customer');
    const id = newId('bps');
    const session = {
      id,
      object: 'billing_portal.session',
      customer,
      return_url: body.return_url ?? null,
      url: `${this.url}/p/session/${id}`,
    };
    this.portalSessions.set(id, session);
    return session;
  }

  // --- Stripe's side: what happens when a person pays, time passes, or money goes back ---

  /** The event Stripe would send, signed as Stripe signs it. */
  signed(event: Obj, secret = this.options.webhookSecret, timestamp = now()): { payload: string; signature: string } {
    const payload = JSON.stringify(event, null, 2);
    return { payload, signature: this.stripeSdk.webhooks.generateTestHeaderString({ payload, secret, timestamp }) };
  }

  private event(type: string, object: Obj): Obj {
    return {
      id: newId('evt'),
      object: 'event',
      api_version: '2026-01-28.clover',
      created: now(),
      type,
      data: { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
    };
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
    const id = idOrUrl.split('/').pop()!;
    return this.found(this.sessions, id, 'checkout.session');
  }

  /** The person pays a Checkout Session (its id or url): the payment, or the subscription and its first invoice. */
  async pay(idOrUrl: string, opts: { deliver?: boolean } = {}): Promise<Obj[]> {
    const session = this.sessionOf(idOrUrl);
    if (session.status !== 'open') throw new Error(`session ${String(session.id)} is ${String(session.status)}`);
    const events: Obj[] = [];
    if (session.mode === 'payment') {
      const pi = newId('pi');
      const charge = {
        id: newId('ch'),
        object: 'charge',
        amount: session.amount_total,
        amount_refunded: 0,
        refunded: false,
        currency: 'usd',
        payment_intent: pi,
        customer: session.customer,
        status: 'succeeded',
        paid: true,
      };
      this.charges.set(charge.id as string, charge);
      Object.assign(session, { status: 'complete', payment_status: 'paid', payment_intent: pi });
    } else {
      const item = (session.line_items_for_fake as Obj[])[0];
      const price = this.prices.get(String(item.price))!;
      const start = now();
      const sub = {
        id: newId('sub'),
        object: 'subscription',
        customer: session.customer,
        status: 'active',
        cancel_at_period_end: false,
        canceled_at: null,
        ended_at: null,
        metadata: ((session.subscription_data_for_fake as Obj | null)?.metadata as Obj) ?? {},
        items: list(
          [
            {
              id: newId('si'),
              object: 'subscription_item',
              price,
              quantity: 1,
              current_period_start: start,
              current_period_end: start + 30 * 86400,
            },
          ],
          '/v1/subscription_items',
        ),
        start_date: start,
      };
      this.subscriptions.set(sub.id, sub);
      Object.assign(session, { status: 'complete', payment_status: 'paid', subscription: sub.id });
      events.push(this.event('customer.subscription.created', sub));
      events.push(this.event('invoice.paid', this.invoice(sub, 'subscription_create', 'paid')));
    }
    events.push(this.event('checkout.session.completed', session));
    return this.emit(events, opts.deliver ?? true);
  }

  private invoice(sub: Obj, reason: string, status: 'paid' | 'open'): Obj {
    const price = ((sub.items as Obj).data as Obj[])[0].price as Obj;
    const invoice = {
      id: newId('in'),
      object: 'invoice',
      customer: sub.customer,
      billing_reason: reason,
      status,
      currency: price.currency,
      amount_due: price.unit_amount,
      amount_paid: status === 'paid' ? price.unit_amount : 0,
      attempt_count: 1,
      next_payment_attempt: status === 'paid' ? null : now() + 3 * 86400,
      parent: { type: 'subscription_details', subscription_details: { subscription: sub.id, metadata: sub.metadata } },
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
    Object.assign(item, { current_period_start: end, current_period_end: end + 30 * 86400 });
  }

  /** A month passed and the renewal was paid. */
  async renew(subscriptionId: string, opts: { deliver?: boolean } = {}): Promise<Obj[]> {
    const sub = this.subscription(subscriptionId);
    this.advancePeriod(sub);
    sub.status = 'active';
    const events = [
      this.event('customer.subscription.updated', sub),
      this.event('invoice.paid', this.invoice(sub, 'subscription_cycle', 'paid')),
    ];
    return this.emit(events, opts.deliver ?? true);
  }

  /** The person switches plans in the billing portal: the new price at once, a prorated invoice paid now. */
  async changePlan(subscriptionId: string, lookupKey: string, opts: { deliver?: boolean } = {}): Promise<Obj[]> {
    const sub = this.subscription(subscriptionId);
    const price = [...this.prices.values()].find((p) => p.lookup_key === lookupKey && p.active);
    if (!price) throw new Error(`no active price ${lookupKey}`);
    ((sub.items as Obj).data as Obj[])[0].price = price;
    const events = [
      this.event('customer.subscription.updated', sub),
      this.event('invoice.paid', this.invoice(sub, 'subscription_update', 'paid')),
    ];
    return this.emit(events, opts.deliver ?? true);
  }

  /** A month passed and the renewal's payment failed: Stripe retries (past_due). */
  async failRenewal(subscriptionId: string, opts: { deliver?: boolean } = {}): Promise<Obj[]> {
    const sub = this.subscription(subscriptionId);
    this.advancePeriod(sub);
    sub.status = 'past_due';
    const events = [
      this.event('customer.subscription.updated', sub),
      this.event('invoice.payment_failed', this.invoice(sub, 'subscription_cycle', 'open')),
    ];
    return this.emit(events, opts.deliver ?? true);
  }

  /** The person cancels in the billing portal: the subscription ends with its period. */
  async cancelAtPeriodEnd(subscriptionId: string, opts: { deliver?: boolean } = {}): Promise<Obj[]> {
    const sub = this.subscription(subscriptionId);
    Object.assign(sub, { cancel_at_period_end: true, canceled_at: now() });
    return this.emit([this.event('customer.subscription.updated', sub)], opts.deliver ?? true);
  }

  /** The period of a subscription cancelled at its end is over. */
  async endPeriod(subscriptionId: string, opts: { deliver?: boolean } = {}): Promise<Obj[]> {
    const sub = this.subscription(subscriptionId);
    if (!sub.cancel_at_period_end) throw new Error('only a subscription cancelled at its period end ends with it');
    Object.assign(sub, { status: 'canceled', ended_at: now() });
    return this.emit([this.event('customer.subscription.deleted', sub)], opts.deliver ?? true);
  }

  private chargeOf(paymentIntent: string): Obj {
    const charge = [...this.charges.values()].find((c) => c.payment_intent === paymentIntent);
    if (!charge) throw new Error(`no charge for ${paymentIntent}`);
    return charge;
  }

  /** The merchant refunds (all by default, or `amount` cents more) the payment of a pack. */
  async refund(paymentIntent: string, amount?: number, opts: { deliver?: boolean } = {}): Promise<Obj[]> {
    const charge = this.chargeOf(paymentIntent);
    const refunded = Math.min(Number(charge.amount), Number(charge.amount_refunded) + (amount ?? Number(charge.amount)));
    Object.assign(charge, { amount_refunded: refunded, refunded: refunded === Number(charge.amount) });
    return this.emit([this.event('charge.refunded', charge)], opts.deliver ?? true);
  }

  /** The cardholder disputes the payment of a pack. */
  async dispute(paymentIntent: string, opts: { deliver?: boolean } = {}): Promise<Obj[]> {
    const charge = this.chargeOf(paymentIntent);
    const dispute = {
      id: newId('dp'),
      object: 'dispute',
      amount: charge.amount,
      currency: charge.currency,
      charge: charge.id,
      payment_intent: paymentIntent,
      status: 'needs_response',
      reason: 'fraudulent',
    };
    return this.emit([this.event('charge.dispute.created', dispute)], opts.deliver ?? true);
  }
}
