import { Inject, Injectable } from '@nestjs/common';
import { NotFoundError, ValidationError } from '../../common/errors';
import { ListParams, oneOf, parseListQuery, SimpleRestQueryDto, textFilter } from '../../common/simple-rest';
import { type AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { stripeDashboardBase } from '../admin/admin-payments.service';
import { AuditAction, AuditService } from '../audit/audit.service';
import { BillingRepository, STRIPE_EVENT_SORTABLE, STRIPE_EVENT_STATUSES, type StripeEventRow } from './billing.repository';
import { BillingService } from './billing.service';
import type { StripeEventRowDto } from './dto/stripe-event.dto';

const FILTERS = ['status', 'type', 'q'] as const;
type EventFilter = (typeof FILTERS)[number];

/**
 * The console's Stripe events (admins only): what Stripe sent and where each is, and the replay of
 * one that failed for good (docs/payments.md "When an event fails for good").
 */
@Injectable()
export class StripeEventsService {
  private readonly dashboard: string;

  constructor(
    private readonly repo: BillingRepository,
    private readonly billing: BillingService,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.dashboard = stripeDashboardBase(config.stripe.secretKey);
  }

  parse(query: SimpleRestQueryDto): ListParams<EventFilter> {
    return parseListQuery(query, {
      sortable: STRIPE_EVENT_SORTABLE,
      defaultSort: ['received_at', 'DESC'],
      defaultPageSize: 50,
      filters: FILTERS,
    });
  }

  /** Filters: status (pending, retrying, failed, applied), type (exact), q (an event id). */
  async list(params: ListParams<EventFilter>): Promise<{ rows: StripeEventRowDto[]; total: number }> {
    const status = oneOf(params.filter.status, STRIPE_EVENT_STATUSES, 'status');
    const type = textFilter(params.filter.type, 'type')?.trim();
    const id = textFilter(params.filter.q, 'q')?.trim();
    const { rows, total } = await this.repo.listEvents(
      { status: status || undefined, type: type || undefined, id: id || undefined },
      params.orderBy,
      params.limit,
      params.offset,
    );
    return { rows: rows.map((r) => this.toDto(r)), total };
  }

  async get(id: string): Promise<StripeEventRowDto> {
    return this.toDto(await this.row(id));
  }

  /**
   * Replays an event (audited, whatever the outcome): read again from Stripe and applied. Answers
   * the event as it is now; a replay that could not apply it answers why (409) and keeps the error.
   */
  async replay(actorId: string, id: string): Promise<StripeEventRowDto> {
    const before = await this.row(id);
    let failure: unknown;
    try {
      await this.billing.replayEvent(id);
    } catch (error) {
      failure = error;
    }
    const after = await this.row(id);
    await this.audit.record({
      actorId,
      action: AuditAction.BillingEventReplay,
      targetType: 'stripe_event',
      targetId: id,
      before: { type: before.type, status: before.status, error: before.error },
      after: { status: after.status, error: failure instanceof Error ? failure.message : after.error },
    });
    if (failure) throw failure;
    return this.toDto(after);
  }

  private async row(id: string): Promise<StripeEventRow> {
    if (!id || id.length > 1000) throw new ValidationError('Invalid event id');
    const row = await this.repo.eventRow(id);
    if (!row) throw new NotFoundError('No Stripe event with this id was received');
    return row;
  }

  private toDto(r: StripeEventRow): StripeEventRowDto {
    const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
    return {
      id: r.id,
      type: r.type,
      status: r.status,
      error: r.error,
      received_at: new Date(r.received_at).toISOString(),
      handled_at: iso(r.handled_at),
      failed_at: iso(r.failed_at),
      stripe_url: `${this.dashboard}/events/${encodeURIComponent(r.id)}`,
    };
  }
}
