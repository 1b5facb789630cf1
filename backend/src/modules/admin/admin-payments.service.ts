import { Inject, Injectable } from '@nestjs/common';
import { ListParams, oneOf, parseListQuery, SimpleRestQueryDto, textFilter } from '../../common/simple-rest';
import { type AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { PAYMENT_KINDS } from '../billing/billing.entities';
import { LIVE_SUBSCRIPTION_STATUSES } from '../billing/billing.repository';
import { CATALOG_CURRENCY, stripeCatalog } from '../billing/stripe-catalog';
import { isTier } from '../catalog/tiers';
import { type AdminPaymentRow, AdminPaymentsRepository, PAYMENT_SORTABLE, type PaymentListFilter } from './admin-payments.repository';
import { assertUuid } from './admin-users.service';
import type { AdminPaymentRowDto, AdminRevenueDto } from './dto/admin-payment.dto';

const FILTERS = ['kind', 'status', 'q', 'user_id'] as const;
type PaymentFilter = (typeof FILTERS)[number];

const DAY_MS = 86_400_000;

/** The dashboard of Stripe's own console; its test-mode pages live under /test. */
export function stripeDashboardBase(secretKey: string | undefined): string {
  const test = !!secretKey && /^(sk|rk)_test_/.test(secretKey);
  return `https://dashboard.stripe.com${test ? '/test' : ''}`;
}

/** Payments and revenue for the console (admins only: support staff do not see money). */
@Injectable()
export class AdminPaymentsService {
  private readonly dashboard: string;

  constructor(
    private readonly repo: AdminPaymentsRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.dashboard = stripeDashboardBase(config.stripe.secretKey);
  }

  parse(query: SimpleRestQueryDto): ListParams<PaymentFilter> {
    return parseListQuery(query, {
      sortable: PAYMENT_SORTABLE,
      defaultSort: ['created_at', 'DESC'],
      defaultPageSize: 50,
      filters: FILTERS,
    });
  }

  async list(params: ListParams<PaymentFilter>): Promise<{ rows: AdminPaymentRowDto[]; total: number }> {
    const filter: PaymentListFilter = {};
    const kind = oneOf(params.filter.kind, PAYMENT_KINDS, 'kind');
    if (kind) filter.kind = kind;
    const status = textFilter(params.filter.status, 'status');
    if (status) filter.status = status;
    const q = textFilter(params.filter.q, 'q')?.trim();
    if (q) filter.email = q;
    if (params.filter.user_id !== undefined) {
      const userId = textFilter(params.filter.user_id, 'user_id')!;
      assertUuid(userId);
      filter.userId = userId;
    }
    const { rows, total } = await this.repo.list(filter, params.orderBy, params.limit, params.offset);
    return { rows: rows.map((r) => this.toDto(r)), total };
  }

  /**
   * Monthly recurring revenue from the catalogue's price of each live subscription's plan, and the
   * last 30 days of packs, invoices and refunds as Stripe reported them.
   */
  async revenue(now = new Date()): Promise<AdminRevenueDto> {
    const monthly = new Map(
      stripeCatalog()
        .filter((i) => i.kind === 'plan')
        .map((i) => [i.id, i.unitAmount]),
    );
    const byTier = await this.repo.subscriptionsByTier(LIVE_SUBSCRIPTION_STATUSES);
    let mrr = 0;
    let active = 0;
    for (const { tier, count } of byTier) {
      active += count;
      if (isTier(tier)) mrr += (monthly.get(tier) ?? 0) * count;
    }
    const t = await this.repo.totalsSince(new Date(now.getTime() - 30 * DAY_MS), CATALOG_CURRENCY);
    return {
      currency: CATALOG_CURRENCY,
      mrr,
      active_subscriptions: active,
      packs_sold_30d: t.packs_sold,
      pack_revenue_30d: t.pack_revenue,
      subscription_revenue_30d: t.subscription_revenue,
      revenue_30d: t.pack_revenue + t.subscription_revenue,
      refunds_30d: t.refunds,
      refunded_amount_30d: t.refunded_amount,
    };
  }

  private toDto(r: AdminPaymentRow): AdminPaymentRowDto {
    let url: string | null = null;
    if (r.payment_intent_id) url = `${this.dashboard}/payments/${r.payment_intent_id}`;
    else if (r.kind === 'subscription') url = `${this.dashboard}/invoices/${r.stripe_id}`;
    else if (r.kind === 'dispute') url = `${this.dashboard}/disputes/${r.stripe_id}`;
    return {
      id: r.stripe_id,
      kind: r.kind,
      user_id: r.user_id,
      user_email: r.user_email,
      amount: r.amount,
      currency: r.currency,
      status: r.status,
      product: r.product,
      payment_intent_id: r.payment_intent_id,
      subscription_id: r.subscription_id,
      stripe_url: url,
      stripe_subscription_url: r.subscription_id ? `${this.dashboard}/subscriptions/${r.subscription_id}` : null,
      created_at: new Date(r.created_at).toISOString(),
    };
  }
}
