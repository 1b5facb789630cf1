import { ROLE_CHANGE_MESSAGES, ROLE_LABELS } from '@fitting-room/shared/access-policy';
import { plural, withArticle } from '@fitting-room/shared/wording';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { ConflictError, ForbiddenError, InsufficientCreditsError, NotFoundError, ValidationError } from '../../common/errors';
import { ListParams, oneOf, parseListQuery, SimpleRestQueryDto, textFilter } from '../../common/simple-rest';
import { APP_CONFIG } from '../../config/config.module';
import { AuditAction, AuditService } from '../audit/audit.service';
import { SessionRevokeReason } from '../auth/session.entity';
import { SessionsRepository } from '../auth/sessions.repository';
import { planForTier } from '../catalog/plans';
import { TIERS, type Tier } from '../catalog/tiers';
import { CreditsService } from '../credits/credits.service';
import { FACE_REFUSALS_ALERT } from '../faces/face-checks.service';
import { FacesRepository } from '../faces/faces.repository';
import { GENERATION_MESSAGES } from '../generations/generation-progress';
import { GenerationsService } from '../generations/generations.service';
import { SafetyRefusalsService } from '../generations/safety-refusals.service';
import { UserMailService } from '../users/user-mail.service';
import { UserRole } from '../users/user.entity';
import { UsersRepository } from '../users/users.repository';
import { UsersService } from '../users/users.service';
import { AdminUsersRepository, USER_SORTABLE, type UserListFilter, type UserRow } from './admin-users.repository';
import type { AppConfig } from '../../config/app-config';
import type {
  AdminActivityDto,
  AdminFaceChecksDto,
  AdminTierChangePreviewDto,
  AdminUserDetailsDto,
  AdminUserRowDto,
} from './dto/admin-user.dto';

/** The product's admin messages (docs/product.md). */
export const ADMIN_MESSAGES = {
  fillAllFields: 'Please fill in all fields',
  validAmount: 'Please enter a valid amount',
  ...ROLE_CHANGE_MESSAGES,
} as const;

/** The tier change's confirmation figure is no longer what the change gives (the balance moved): nothing changed. */
export function tierChangeMoved(creditsAdded: number): string {
  return `The balance changed since the confirmation: this change now gives ${plural(creditsAdded, 'subscription credit')}. Review it again.`;
}

/** The largest adjustment at once (balances are 32-bit integers; a typo of extra zeros is refused). */
export const MAX_ADJUSTMENT = 1_000_000;

const USER_FILTERS = ['q', 'tier', 'role', 'id', 'verified'] as const;
type UserFilter = (typeof USER_FILTERS)[number];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function assertUuid(id: string): void {
  if (!UUID.test(id)) throw new ValidationError('Invalid id');
}

/** A sentence for the console's "recent activity" from a user_activity_logs row. */
export function describeActivity(type: string, metadata: Record<string, unknown> | null): string {
  const m = metadata ?? {};
  switch (type) {
    case 'sign_up':
      return `Signed up${m.method === 'google' ? ' with Google' : ' with email'}`;
    case 'sign_in':
      return `Signed in${m.method === 'google' ? ' with Google' : m.method === 'password+2fa' ? (m.recovery_code ? ' with a recovery code' : ' with a two-factor code') : ''}`;
    case 'email_verified':
      return 'Confirmed their email address';
    case 'password_change':
      return m.method === 'reset_link' ? 'Set a new password with an emailed link' : 'Changed their password';
    case 'two_factor_enabled':
      return 'Turned on two-factor authentication';
    case 'two_factor_disabled':
      return 'Turned off two-factor authentication';
    case 'sign_out':
      return 'Signed out';
    case 'profile_update':
      return Array.isArray(m.fields) && m.fields.length ? `Updated profile (${m.fields.join(', ')})` : 'Updated profile';
    case 'settings_update':
      return 'Updated settings';
    case 'generation_started': {
      const kind = typeof m.type === 'string' && m.type ? `${m.type} generation` : 'generation';
      return `Started ${withArticle(kind)}${typeof m.category === 'string' ? ` in ${m.category}` : ''}`;
    }
    case 'generation_completed': {
      const kind = typeof m.type === 'string' && m.type ? `${m.type[0].toUpperCase()}${m.type.slice(1)} generation` : 'Generation';
      return `${kind} completed${typeof m.cost === 'number' ? ` (${plural(m.cost, 'credit')})` : ''}`;
    }
    case 'generation_failed':
      // a cancellation is not a failure (the console's statistics count it apart too)
      if (m.reason === GENERATION_MESSAGES.cancelled) return 'Cancelled a generation (no credits taken)';
      if (typeof m.reason === 'string' && m.reason.startsWith('Generation failed')) return m.reason;
      return `Generation failed${typeof m.reason === 'string' ? `: ${m.reason}` : ''}`;
    default:
      return type.replace(/_/g, ' ');
  }
}

@Injectable()
export class AdminUsersService {
  constructor(
    private readonly repo: AdminUsersRepository,
    private readonly users: UsersRepository,
    private readonly sessions: SessionsRepository,
    private readonly credits: CreditsService,
    private readonly audit: AuditService,
    private readonly refusals: SafetyRefusalsService,
    private readonly faces: FacesRepository,
    /** the person hears of a change to their account (when "Email Notifications" is on); absent in partial apps */
    @Optional() private readonly mail?: UserMailService,
    /** cancels a suspended account's running generation */
    @Optional() private readonly generations?: GenerationsService,
    /** ADMIN_EMAILS (who may not be demoted here) */
    @Optional() private readonly usersService?: UsersService,
    /** AUTH_REQUIRE_STAFF_2FA */
    @Optional() @Inject(APP_CONFIG) private readonly config?: AppConfig,
  ) {}

  parse(query: SimpleRestQueryDto): ListParams<UserFilter> {
    return parseListQuery(query, {
      sortable: USER_SORTABLE,
      defaultSort: ['created_at', 'DESC'],
      defaultPageSize: 100,
      filters: USER_FILTERS,
    });
  }

  /** The list, searched case-insensitively on email or full name (the text matched literally). */
  async list(params: ListParams<UserFilter>): Promise<{ rows: AdminUserRowDto[]; total: number }> {
    const filter: UserListFilter = {};
    const { tier, role, id } = params.filter;
    const q = textFilter(params.filter.q, 'q');
    if (q !== undefined) filter.q = q.trim();
    const t = oneOf(tier, TIERS, 'tier');
    if (t) filter.tier = t;
    const r = oneOf(role, Object.values(UserRole), 'role');
    if (r) filter.role = r;
    // whether the address is proven (unverified accounts may be waiting sign-ups, or squatters' from before)
    const verified = oneOf(
      params.filter.verified === undefined ? undefined : String(params.filter.verified),
      ['true', 'false'],
      'verified',
    );
    if (verified) filter.verified = verified === 'true';
    if (id !== undefined) {
      // one id, or the list of react-admin's getMany (filter {"id":[...]})
      const ids = (Array.isArray(id) ? id : [id]).map(String);
      ids.forEach(assertUuid);
      filter.ids = ids;
    }
    const { rows, total } = await this.repo.list(filter, params.orderBy, params.limit, params.offset);
    return { rows: rows.map(toRow), total };
  }

  /** The user's page; `viewerRole` decides whether the refused texts are shown (admins only). */
  async details(id: string, viewerRole: string = UserRole.Admin): Promise<AdminUserDetailsDto> {
    assertUuid(id);
    const row = await this.repo.findRow(id);
    if (!row) throw new NotFoundError();
    const counts = await this.repo.generationOutcomes(id, GENERATION_MESSAGES.cancelled);
    const activity = await this.repo.recentActivity(id);
    const recent: AdminActivityDto[] = activity.map((a) => ({
      id: a.id,
      activity_type: a.activity_type,
      description: describeActivity(a.activity_type, a.metadata),
      created_at: new Date(a.created_at).toISOString(),
    }));
    const refusals = await this.refusals.summary(id);
    if (viewerRole !== UserRole.Admin) for (const r of refusals.recent) r.text = null;
    const faceChecks = await this.faceChecks(id);
    const suspendedBy = row.suspended_at ? await this.repo.latestActorEmail(id, AuditAction.UserSuspend) : null;
    return {
      ...toRow(row),
      successful_generations: counts.successful,
      failed_generations: counts.failed,
      cancelled_generations: counts.cancelled,
      recent_activity: recent,
      suspension_reason: row.suspension_reason,
      suspended_by: suspendedBy,
      refusals,
      face_checks: faceChecks,
      staff_two_factor_required: !!this.config?.auth.requireStaffTwoFactor && row.totp_enabled_at === null,
    };
  }

  private async faceChecks(id: string): Promise<AdminFaceChecksDto> {
    const [verifiedAt, refused, refused24h, recent] = await Promise.all([
      this.faces.verifiedAt(id),
      this.faces.countRefusals(id),
      this.faces.countRefusalsSince(id, FACE_REFUSALS_ALERT.hours),
      this.faces.recentEvents(id),
    ]);
    return {
      verified_at: verifiedAt ? new Date(verifiedAt).toISOString() : null,
      refused,
      refused_24h: refused24h,
      recent: recent.map((e) => ({
        id: e.id,
        kind: e.kind,
        outcome: e.outcome,
        distance: e.distance === null ? null : Math.round(e.distance * 1000) / 1000,
        created_at: new Date(e.createdAt).toISOString(),
      })),
    };
  }

  /**
   * Suspends an account: no sign-in (a clear message), every session ended, its running generation
   * cancelled and the hold released. Audited. An admin cannot suspend themselves.
   */
  async suspend(actorId: string, id: string, reason: string): Promise<AdminUserDetailsDto> {
    assertUuid(id);
    if (id === actorId) throw new ValidationError('You cannot suspend your own account.');
    const why = reason.trim();
    await this.repo.transaction(async (m) => {
      const user = await this.users.lockForUpdate(m, id);
      if (!user) throw new NotFoundError();
      if (user.suspended_at) return;
      await this.users.suspend(m, id, why);
      await this.sessions.revokeAllOf(m, id, SessionRevokeReason.AccountSuspended);
      await this.audit.record(
        {
          actorId,
          action: AuditAction.UserSuspend,
          targetType: 'user',
          targetId: id,
          targetUserId: id,
          before: { suspended: false },
          after: { suspended: true, reason: why },
        },
        m,
      );
    });
    await this.generations?.cancelAllOf(id);
    return this.details(id);
  }

  /** Lifts a suspension: the person may sign in again (their old sessions stay ended). Audited. */
  async unsuspend(actorId: string, id: string): Promise<AdminUserDetailsDto> {
    assertUuid(id);
    await this.repo.transaction(async (m) => {
      const user = await this.users.lockForUpdate(m, id);
      if (!user) throw new NotFoundError();
      if (!user.suspended_at) return;
      await this.users.liftSuspension(m, id);
      await this.audit.record(
        {
          actorId,
          action: AuditAction.UserUnsuspend,
          targetType: 'user',
          targetId: id,
          targetUserId: id,
          before: { suspended: true, reason: user.suspension_reason },
          after: { suspended: false },
        },
        m,
      );
    });
    return this.details(id);
  }

  /**
   * What changing the tier to `tier` would do now, by the rule the change itself applies
   * (CreditsService.planChangeTopUp): the credits it adds, the balance before and after, and the
   * confirmation's words. Changes nothing.
   */
  async previewTierChange(id: string, tier: Tier): Promise<AdminTierChangePreviewDto> {
    assertUuid(id);
    const row = await this.repo.findRow(id);
    if (!row) throw new NotFoundError();
    const from = planForTier(row.tier);
    const to = planForTier(tier);
    const { added, before, after, renewedByStripe } = await this.credits.previewPlanChange(id, row.tier, tier);
    const unchanged = row.tier === tier;
    return {
      from_tier: row.tier,
      to_tier: tier,
      from_name: from.name,
      to_name: to.name,
      unchanged,
      credits_added: unchanged ? 0 : added,
      credits_before: before.available,
      credits_after: unchanged ? before.available : after.available,
      monthly_credits: to.monthlyCredits,
      stripe_subscription: renewedByStripe,
      title: unchanged ? `The tier is already ${to.name}.` : `Change tier from ${from.name} to ${to.name}?`,
      summary: unchanged ? 'Nothing changes.' : tierChangeSummary(from, to, added, before, after, renewedByStripe),
    };
  }

  /**
   * Changes the tier (an admin's decision; paying plans come from Stripe). An upgrade tops the
   * subscription credits up to the new plan's (CreditsService.applyPlanChange). Audited, in one
   * transaction. `expectedCreditsAdded`: what the confirmation said it gives; another figure now (the
   * balance moved meanwhile) is a 409 and nothing changes.
   */
  async changeTier(actorId: string, id: string, tier: Tier | undefined, expectedCreditsAdded?: number): Promise<AdminUserDetailsDto> {
    assertUuid(id);
    if (tier === undefined) return this.details(id);
    const change = await this.repo.transaction(async (m) => {
      const user = await this.users.lockForUpdate(m, id);
      if (!user) throw new NotFoundError();
      if (user.tier === tier) return null;
      await this.users.setTier(m, id, tier);
      const creditsAdded = await this.credits.applyPlanChange(id, user.tier, tier, actorId, m);
      // thrown inside the transaction: the tier and the credits are rolled back with it
      if (expectedCreditsAdded !== undefined && creditsAdded !== expectedCreditsAdded)
        throw new ConflictError(tierChangeMoved(creditsAdded));
      await this.audit.record(
        {
          actorId,
          action: AuditAction.TierChange,
          targetType: 'user',
          targetId: id,
          targetUserId: id,
          before: { tier: user.tier },
          after: { tier, credits_added: creditsAdded },
        },
        m,
      );
      return { creditsAdded };
    });
    if (change) {
      const plan = planForTier(tier);
      await this.mail?.send({
        kind: 'account-notice',
        userId: id,
        title: `Your plan is now ${plan.displayName}`,
        lines: [
          `Our support team changed your plan to ${plan.displayName}.`,
          ...(change.creditsAdded > 0
            ? [`${change.creditsAdded} ${change.creditsAdded === 1 ? 'credit was' : 'credits were'} added to match the new plan.`]
            : []),
        ],
      });
    }
    return this.details(id);
  }

  /**
   * Sets an account's role (user, support, admin), audited. An admin cannot change their own role
   * (it would remove their admin role), nor take the admin role from the last admin not suspended,
   * nor from an address ADMIN_EMAILS lists (the list would make it an admin again at its next
   * sign-in). The active admins are locked first, in one order, so two admins demoting each other
   * at once cannot leave none: the second finds that it is no longer an admin (403).
   */
  async setRole(actorId: string, id: string, role: UserRole): Promise<AdminUserDetailsDto> {
    assertUuid(id);
    if (id === actorId) {
      if (role === UserRole.Admin) return this.details(id);
      throw new ValidationError(ADMIN_MESSAGES.ownRole);
    }
    const changed = await this.repo.transaction(async (m) => {
      const admins = await this.users.lockActiveAdmins(m);
      if (!admins.includes(actorId)) throw new ForbiddenError();
      const user = await this.users.lockForUpdate(m, id);
      if (!user) throw new NotFoundError();
      if (user.role === role) return null;
      if (user.role === UserRole.Admin) {
        if (this.usersService?.isListedAdmin(user.email)) throw new ValidationError(ADMIN_MESSAGES.listedAdmin);
        if (admins.filter((admin) => admin !== id).length === 0) throw new ValidationError(ADMIN_MESSAGES.lastAdmin);
      }
      await this.users.setRole(m, id, role);
      await this.audit.record(
        {
          actorId,
          action: AuditAction.RoleChange,
          targetType: 'user',
          targetId: id,
          targetUserId: id,
          before: { role: user.role },
          after: { role },
        },
        m,
      );
      return { from: user.role };
    });
    if (changed) {
      await this.mail?.send({
        kind: 'account-notice',
        userId: id,
        title: role === UserRole.User ? 'Your staff role was removed' : `Your account now has the ${ROLE_LABELS[role]} role`,
        lines:
          role === UserRole.User
            ? ['An admin removed your staff role: the console is closed to your account.']
            : [
                `An admin gave your account the ${ROLE_LABELS[role]} role: open the console from the dashboard's menu.`,
                ...(this.config?.auth.requireStaffTwoFactor
                  ? ['Staff accounts must turn on two-factor authentication first, in Settings.']
                  : []),
              ],
      });
    }
    return this.details(id);
  }

  /** Adds or deducts credits through the ledger (reason and acting admin recorded). Audited. */
  async adjustCredits(
    actorId: string,
    id: string,
    body: { mode?: unknown; amount?: unknown; reason?: unknown },
  ): Promise<AdminUserDetailsDto> {
    assertUuid(id);
    const { mode, amount, reason } = body ?? {};
    const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
    if (blank(mode) || blank(amount) || blank(reason)) throw new ValidationError(ADMIN_MESSAGES.fillAllFields);
    if (mode !== 'add' && mode !== 'deduct') throw new ValidationError(ADMIN_MESSAGES.fillAllFields);
    if (typeof reason !== 'string') throw new ValidationError(ADMIN_MESSAGES.fillAllFields);
    const n = typeof amount === 'string' && /^\s*\d+\s*$/.test(amount) ? Number(amount) : amount;
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n <= 0 || n > MAX_ADJUSTMENT)
      throw new ValidationError(ADMIN_MESSAGES.validAmount);
    const why = reason.trim();
    const balanceAfter = await this.repo.transaction(async (m) => {
      // the account locked for the whole adjustment, so "before" is what the ledger changed
      const before = await this.credits.lockedBalance(id, m);
      if (!before) throw new NotFoundError();
      if (mode === 'deduct' && n > before.available) throw new InsufficientCreditsError(n, before.available);
      const result = await this.credits.adjust({ userId: id, mode, amount: n, reason: why, actorId }, m);
      await this.audit.record(
        {
          actorId,
          action: mode === 'add' ? AuditAction.CreditsAdd : AuditAction.CreditsDeduct,
          targetType: 'user',
          targetId: id,
          targetUserId: id,
          before: { credits: before.available, subscription: before.subscription, purchased: before.purchased },
          after: {
            credits: result.balance.available,
            subscription: result.balance.subscription,
            purchased: result.balance.purchased,
            amount: n,
            reason: why,
          },
        },
        m,
      );
      return result.balance.available;
    });
    const credits = (k: number) => plural(k, 'credit');
    await this.mail?.send({
      kind: 'account-notice',
      userId: id,
      title: mode === 'add' ? `${credits(n)} added to your account` : `${credits(n)} taken from your account`,
      lines: [`Our support team ${mode === 'add' ? 'added' : 'took'} ${credits(n)}: ${why}`, `You now have ${credits(balanceAfter)}.`],
    });
    return this.details(id);
  }
}

type PlanFacts = { name: string; monthlyCredits: number };
type Balance = { subscription: number; available: number };

/** The tier change's effect in words, from the server's figures (the console shows it as the confirmation). */
export function tierChangeSummary(from: PlanFacts, to: PlanFacts, added: number, before: Balance, after: Balance, stripe: boolean): string {
  const parts: string[] = [];
  if (added > 0) parts.push(`This gives ${plural(added, 'subscription credit')} now (balance ${before.available} -> ${after.available}).`);
  else if (to.monthlyCredits > from.monthlyCredits)
    parts.push(
      `No credits are added: the ${plural(before.subscription, 'subscription credit')} already there are at least ${to.name}'s ${to.monthlyCredits} (balance stays ${before.available}).`,
    );
  else
    parts.push(
      `No credits are taken back (balance stays ${before.available}); from the next monthly reset, ${to.name} gives ${plural(to.monthlyCredits, 'subscription credit')}.`,
    );
  parts.push('The person is told by mail.');
  if (stripe) parts.push("They pay for a plan at Stripe: the next change of that subscription sets the tier to Stripe's plan again.");
  return parts.join(' ');
}

function toRow(r: UserRow): AdminUserRowDto {
  return {
    id: r.id,
    email: r.email,
    full_name: r.full_name,
    tier: r.tier,
    role: r.role,
    credits: Number(r.credits),
    subscription_credits: Number(r.subscription_credits),
    purchased_credits: Number(r.purchased_credits),
    total_generations: Number(r.total_generations),
    email_verified: r.email_verified_at !== null,
    two_factor_enabled: r.totp_enabled_at !== null,
    suspended_at: r.suspended_at ? new Date(r.suspended_at).toISOString() : null,
    created_at: new Date(r.created_at).toISOString(),
  };
}
