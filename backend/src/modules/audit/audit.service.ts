import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { UsersRepository } from '../users/users.repository';
import { AuditRepository } from './audit.repository';

export enum AuditAction {
  CreditsAdd = 'user.credits.add',
  CreditsDeduct = 'user.credits.deduct',
  TierChange = 'user.tier.change',
  /** an admin set an account's role (user, support, admin) */
  RoleChange = 'user.role.change',
  GenerationRemove = 'generation.remove',
  GenerationTakedown = 'generation.takedown',
  NotificationRead = 'notification.read',
  SupportStatusChange = 'support.status.change',
  SupportPriorityChange = 'support.priority.change',
  SupportReply = 'support.reply',
  SupportNote = 'support.note',
  Announcement = 'mail.announcement',
  UserSuspend = 'user.suspend',
  UserUnsuspend = 'user.unsuspend',
  CatalogTemplateCreate = 'catalog.template.create',
  CatalogTemplateUpdate = 'catalog.template.update',
  CatalogTemplateGarment = 'catalog.template.garment',
  CatalogTemplateThumbnail = 'catalog.template.thumbnail',
  CatalogSceneCreate = 'catalog.scene.create',
  CatalogSceneUpdate = 'catalog.scene.update',
  CatalogSceneReference = 'catalog.scene.reference',
  /** a person opened Stripe Checkout for a plan or a pack (the actor is the person) */
  BillingCheckout = 'billing.checkout',
  BillingPortal = 'billing.portal',
  /** a paid pack's credits were added */
  BillingPackPaid = 'billing.pack.paid',
  /** Stripe changed a subscription (status, plan, period, cancellation) */
  BillingSubscription = 'billing.subscription',
  /** a paid renewal reset the subscription credits */
  BillingRenewal = 'billing.renewal',
  BillingPaymentFailed = 'billing.payment.failed',
  /** a renewal's payment needs the cardholder's confirmation (3-D Secure): the person was told */
  BillingPaymentActionRequired = 'billing.payment.action_required',
  /** a pack's delayed payment (a bank debit) failed: no credits, the person was told */
  BillingPackFailed = 'billing.pack.failed',
  /** the account's Stripe customer was gone at Stripe (deleted, or other keys): a new one replaced it */
  BillingCustomerReplaced = 'billing.customer.replaced',
  /** an admin replayed a Stripe event from the console (re-read from Stripe, applied again) */
  BillingEventReplay = 'billing.event.replay',
  /** a refund or dispute of a pack took its credits back */
  BillingReversal = 'billing.reversal',
}

export interface AuditEntry {
  actorId: string;
  action: AuditAction | string;
  targetType: string;
  targetId: string;
  targetUserId?: string | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/** The audit trail of every admin and support action (read by admins in the console). */
@Injectable()
export class AuditService {
  constructor(
    private readonly repo: AuditRepository,
    private readonly users: UsersRepository,
  ) {}

  /** Writes one row; pass the caller's transaction manager so the row commits with the action. */
  async record(entry: AuditEntry, manager?: EntityManager): Promise<void> {
    const ids = [entry.actorId, entry.targetUserId].filter((id): id is string => !!id);
    const rows = ids.length ? await this.users.emailsOf(ids, manager) : [];
    const emailOf = (id?: string | null) => (id ? (rows.find((r) => r.id === id)?.email ?? null) : null);
    await this.repo.insert(
      {
        actorId: entry.actorId,
        actorEmail: emailOf(entry.actorId),
        action: entry.action,
        targetType: entry.targetType,
        targetId: entry.targetId,
        targetUserId: entry.targetUserId ?? null,
        targetEmail: emailOf(entry.targetUserId),
        before: entry.before ?? null,
        after: entry.after ?? null,
      },
      manager,
    );
  }
}
