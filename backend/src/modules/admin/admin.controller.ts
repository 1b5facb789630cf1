import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentUser, type AuthUser } from '../../common/auth';
import { rolesFor } from '../../common/auth/access-policy';
import { NotFoundError } from '../../common/errors';
import { ErrorResponseDto } from '../../common/errors/error-response.dto';
import { contentRangeHeader } from '../../common/response-headers';
import { setContentRange, SimpleRestQueryDto } from '../../common/simple-rest';
import { MessageQueueService } from '../../queue';
import { AuditAction, AuditService } from '../audit/audit.service';
import { GenerationsService } from '../generations/generations.service';
import { UserMailService } from '../users/user-mail.service';
import { AdminAuditService } from './admin-audit.service';
import { AdminGenerationsService } from './admin-generations.service';
import { AdminPaymentsService } from './admin-payments.service';
import { AdminStatsService } from './admin-stats.service';
import { AdminUsersService } from './admin-users.service';
import { AdminCreditsAdjustDto } from './dto/admin-credits-adjust.dto';
import { AdminGenerationDto, AdminGenerationRowDto } from './dto/admin-generation.dto';
import { AdminPaymentRowDto, AdminRevenueDto } from './dto/admin-payment.dto';
import { AdminStatsDto } from './dto/admin-stats.dto';
import {
  AdminRoleUpdateDto,
  AdminSuspensionDto,
  AdminTierChangePreviewDto,
  AdminTierChangeQueryDto,
  AdminUserDetailsDto,
  AdminUserRowDto,
  AdminUserUpdateDto,
} from './dto/admin-user.dto';
import { AnnouncementCreateDto, AnnouncementResponseDto } from './dto/announcement.dto';
import { AuditLogRowDto } from './dto/audit-log-row.dto';
import { QueueBoardSessionDto, QueueOverviewDto } from './dto/queue-overview.dto';
import { QUEUE_BOARD_PATH, QueueBoardService } from './queue-board.service';
import type { Response } from 'express';

const LIST_NOTE = 'ra-data-simple-rest dialect: sort, range and filter as JSON; answers an array with a Content-Range header.';

/**
 * The console's API (react-admin through ra-data-simple-rest). Who may call what comes from the
 * one access policy (common/auth/access-policy.ts) that the console applies too.
 */
@ApiTags('admin')
@Controller('admin')
export class AdminController {
  constructor(
    private readonly users: AdminUsersService,
    private readonly stats: AdminStatsService,
    private readonly generations: AdminGenerationsService,
    private readonly auditLog: AdminAuditService,
    private readonly queue: MessageQueueService,
    private readonly board: QueueBoardService,
    private readonly mail: UserMailService,
    private readonly audit: AuditService,
    private readonly generationsService: GenerationsService,
    private readonly payments: AdminPaymentsService,
  ) {}

  @Get('stats')
  @Authenticated({ roles: rolesFor('dashboard', 'list') })
  @ApiOperation({
    summary: "Dashboard stats (the product's get_dashboard_stats) with 30-day series",
    description:
      'Counts of users, generations (successful, failed, success rate) and credits (used, in the system), open tickets, unread ' +
      'notifications, the tier distribution, and per-day series of generations and credits spent over the last 30 days. Admins only.',
  })
  @ApiOkResponse({ type: AdminStatsDto })
  getAdminStats(): Promise<AdminStatsDto> {
    return this.stats.stats();
  }

  @Get('users')
  @Authenticated({ roles: rolesFor('users', 'list') })
  @ApiOperation({
    summary: 'Users, 100 a page, searched case-insensitively on email or full name (filter q or ?q=)',
    description: `${LIST_NOTE} Filters: q, tier, role, id, verified ("true": the address is proven; "false": not yet).`,
  })
  @ApiOkResponse({ type: [AdminUserRowDto], headers: contentRangeHeader('users') })
  async listAdminUsers(@Query() query: SimpleRestQueryDto, @Res({ passthrough: true }) res: Response): Promise<AdminUserRowDto[]> {
    const params = this.users.parse(query);
    const { rows, total } = await this.users.list(params);
    setContentRange(res, 'users', params.offset, rows.length, total);
    return rows;
  }

  @Get('users/:id')
  @Authenticated({ roles: rolesFor('users', 'show') })
  @ApiOperation({
    summary: 'A user: profile, tier, credits, generation counts, recent activity',
    description:
      'Also the suspension reason and the custom-pose refusals; the refused texts are shown to admins only (null for support). ' +
      'An id that is not a UUID answers 400, an unknown one 404.',
  })
  @ApiOkResponse({ type: AdminUserDetailsDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'VALIDATION_ERROR: the id is not a UUID' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'no such user' })
  getAdminUser(@CurrentUser() viewer: AuthUser, @Param('id') id: string): Promise<AdminUserDetailsDto> {
    return this.users.details(id, viewer.role);
  }

  @Post('users/:id/suspension')
  @HttpCode(200)
  @Authenticated({ roles: rolesFor('user-suspension', 'create') })
  @ApiOperation({
    summary:
      'Suspend an account (audited): sign-in refused with a clear message, sessions ended, its running generation cancelled and released',
    description:
      'The reason is recorded with the suspension and in the audit log. Suspending a suspended account changes nothing; an admin ' +
      "cannot suspend their own account (400). Answers the user's page as GET /api/admin/users/{id} does.",
  })
  @ApiOkResponse({ type: AdminUserDetailsDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'VALIDATION_ERROR: the id is not a UUID, no reason, or my own account' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'no such user' })
  suspendAdminUser(
    @CurrentUser() actor: AuthUser,
    @Param('id') id: string,
    @Body() body: AdminSuspensionDto,
  ): Promise<AdminUserDetailsDto> {
    return this.users.suspend(actor.id, id, body.reason);
  }

  @Delete('users/:id/suspension')
  @Authenticated({ roles: rolesFor('user-suspension', 'delete') })
  @ApiOperation({
    summary: 'Lift a suspension (audited): the person may sign in again',
    description:
      "Sessions ended by the suspension stay ended. Lifting the suspension of an account that has none changes nothing. Answers the user's page.",
  })
  @ApiOkResponse({ type: AdminUserDetailsDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'VALIDATION_ERROR: the id is not a UUID' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'no such user' })
  unsuspendAdminUser(@CurrentUser() actor: AuthUser, @Param('id') id: string): Promise<AdminUserDetailsDto> {
    return this.users.unsuspend(actor.id, id);
  }

  @Get('users/:id/tier-change')
  @Authenticated({ roles: rolesFor('user-tier', 'edit') })
  @ApiOperation({
    summary: 'What changing the tier would do now (the confirmation), by the rule the change applies; changes nothing',
    description:
      'The credits an upgrade adds now, the balance before and after, whether a Stripe subscription will set the tier again, and the ' +
      "confirmation's title and summary in words. Send `credits_added` back as `expected_credits_added` with the change.",
  })
  @ApiOkResponse({ type: AdminTierChangePreviewDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'VALIDATION_ERROR: the id is not a UUID, or an unknown tier' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'no such user' })
  previewAdminUserTierChange(@Param('id') id: string, @Query() query: AdminTierChangeQueryDto): Promise<AdminTierChangePreviewDto> {
    return this.users.previewTierChange(id, query.tier);
  }

  @Patch('users/:id')
  @Authenticated({ roles: rolesFor('user-tier', 'edit') })
  @ApiOperation({
    summary: "Change a user's tier (audited)",
    description:
      "An upgrade tops the subscription credits up to the new plan's; the person is told by mail. The same tier, or no tier in the " +
      'body, changes nothing. With `expected_credits_added` (the figure GET .../tier-change gave), a change that would now give ' +
      "another number is a 409 and changes nothing. Answers the user's page.",
  })
  @ApiOkResponse({ type: AdminUserDetailsDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'VALIDATION_ERROR: the id is not a UUID, or an unknown tier' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'no such user' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'CONFLICT: the change now gives another number of credits than expected' })
  updateAdminUser(@CurrentUser() actor: AuthUser, @Param('id') id: string, @Body() body: AdminUserUpdateDto): Promise<AdminUserDetailsDto> {
    return this.users.changeTier(actor.id, id, body.tier, body.expected_credits_added);
  }

  @Put('users/:id/role')
  @Authenticated({ roles: rolesFor('user-role', 'edit') })
  @ApiOperation({
    summary: "Set a user's role: user, support or admin (audited)",
    description:
      'Support staff get the tickets and a read-only user lookup, admins the whole console (the access policy). Staff without ' +
      'two-factor are asked to turn it on before the console opens when AUTH_REQUIRE_STAFF_2FA is on. An admin cannot change their ' +
      'own role, take the admin role from the last admin, or from an address ADMIN_EMAILS lists (400). The same role changes ' +
      "nothing. The person is told by mail. Answers the user's page.",
  })
  @ApiOkResponse({ type: AdminUserDetailsDto })
  @ApiBadRequestResponse({
    type: ErrorResponseDto,
    description: 'VALIDATION_ERROR: the id is not a UUID, an unknown role, my own role, the last admin, or an address ADMIN_EMAILS lists',
  })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'no such user' })
  setAdminUserRole(
    @CurrentUser() actor: AuthUser,
    @Param('id') id: string,
    @Body() body: AdminRoleUpdateDto,
  ): Promise<AdminUserDetailsDto> {
    return this.users.setRole(actor.id, id, body.role);
  }

  @Put('users/:id')
  @Authenticated({ roles: rolesFor('user-tier', 'edit') })
  @ApiOperation({
    summary: "Change a user's tier (PUT, as ra-data-simple-rest sends it)",
    description: "The same as PATCH /api/admin/users/{id}: react-admin's update sends PUT.",
  })
  @ApiOkResponse({ type: AdminUserDetailsDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'VALIDATION_ERROR: the id is not a UUID, or an unknown tier' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'no such user' })
  replaceAdminUser(
    @CurrentUser() actor: AuthUser,
    @Param('id') id: string,
    @Body() body: AdminUserUpdateDto,
  ): Promise<AdminUserDetailsDto> {
    return this.users.changeTier(actor.id, id, body.tier, body.expected_credits_added);
  }

  @Post('users/:id/credits')
  @HttpCode(200)
  @Authenticated({ roles: rolesFor('user-credits', 'create') })
  @ApiOperation({
    summary: 'Add or deduct credits with a reason, through the ledger (audited)',
    description:
      'mode (add or deduct), a whole amount from 1 to 1,000,000 and a reason are all required (400 otherwise); deducting more than the ' +
      "account has answers 400 INSUFFICIENT_CREDITS. The person is told by mail, with the reason. Answers the user's page.",
  })
  @ApiOkResponse({ type: AdminUserDetailsDto })
  @ApiBadRequestResponse({
    type: ErrorResponseDto,
    description: 'VALIDATION_ERROR: a missing field or a bad amount; INSUFFICIENT_CREDITS: a deduction beyond the balance',
  })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'no such user' })
  adjustUserCredits(
    @CurrentUser() actor: AuthUser,
    @Param('id') id: string,
    @Body() body: AdminCreditsAdjustDto,
  ): Promise<AdminUserDetailsDto> {
    return this.users.adjustCredits(actor.id, id, body);
  }

  @Post('announcements')
  @HttpCode(202)
  @Authenticated({ roles: rolesFor('announcements', 'create') })
  @ApiOperation({
    summary: 'Send an announcement by mail to every verified account that opted in to "Marketing Emails" (audited)',
    description: 'Queued in batches; each mail carries a one-click unsubscribe and is skipped if the person opted out meanwhile.',
  })
  @ApiAcceptedResponse({ type: AnnouncementResponseDto })
  async createAnnouncement(@CurrentUser() actor: AuthUser, @Body() body: AnnouncementCreateDto): Promise<AnnouncementResponseDto> {
    const recipients = await this.mail.announce(body.subject, body.body);
    await this.audit.record({
      actorId: actor.id,
      action: AuditAction.Announcement,
      targetType: 'announcement',
      targetId: 'marketing',
      after: { subject: body.subject, recipients },
    });
    return { recipients };
  }

  @Get('generations')
  @Authenticated({ roles: rolesFor('generations', 'list') })
  @ApiOperation({ summary: "Every user's generations, with status and failure reasons", description: LIST_NOTE })
  @ApiOkResponse({ type: [AdminGenerationRowDto], headers: contentRangeHeader('generations') })
  async listAdminGenerations(
    @Query() query: SimpleRestQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AdminGenerationRowDto[]> {
    const params = this.generations.parse(query);
    const { rows, total } = await this.generations.list(params);
    setContentRange(res, 'generations', params.offset, rows.length, total);
    return rows;
  }

  @Get('generations/:id')
  @Authenticated({ roles: rolesFor('generations', 'show') })
  @ApiOperation({
    summary: 'One generation, with the likeness guard’s figure (the face check of the result against the person’s photos)',
    description:
      'The row of the list plus `likeness`: the distance of the result’s face from the person’s photos at each try, the threshold and the outcome (null when the face checks did not run).',
  })
  @ApiOkResponse({ type: AdminGenerationDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  getAdminGeneration(@Param('id') id: string): Promise<AdminGenerationDto> {
    return this.generations.detail(id);
  }

  @Delete('generations/:id')
  @HttpCode(204)
  @Authenticated({ roles: rolesFor('generations', 'delete') })
  @ApiOperation({
    summary: 'Remove any generation and its files (audited)',
    description:
      'With `include_source=true`, a takedown: also the photo(s) it was made from and every generation made from them, files included.',
  })
  @ApiQuery({ name: 'include_source', required: false, type: Boolean })
  @ApiNoContentResponse()
  async removeAdminGeneration(
    @CurrentUser() actor: AuthUser,
    @Param('id') id: string,
    @Query('include_source') includeSource?: string,
  ): Promise<void> {
    if (includeSource === 'true') await this.generations.takedown(actor.id, id);
    else await this.generations.remove(actor.id, id);
  }

  @Get('payments')
  @Authenticated({ roles: rolesFor('payments', 'list') })
  @ApiOperation({
    summary: 'Payments at Stripe: packs bought, subscription invoices, refunds and disputes, with the payer and links to Stripe',
    description:
      `${LIST_NOTE} Filters: kind (pack, subscription, refund, dispute), status, q (part of the payer's email), user_id. ` +
      'Amounts are in cents. Admins only.',
  })
  @ApiOkResponse({ type: [AdminPaymentRowDto], headers: contentRangeHeader('payments') })
  async listAdminPayments(@Query() query: SimpleRestQueryDto, @Res({ passthrough: true }) res: Response): Promise<AdminPaymentRowDto[]> {
    const params = this.payments.parse(query);
    const { rows, total } = await this.payments.list(params);
    setContentRange(res, 'payments', params.offset, rows.length, total);
    return rows;
  }

  @Get('revenue')
  @Authenticated({ roles: rolesFor('payments', 'list') })
  @ApiOperation({
    summary: 'Revenue for the dashboard: monthly recurring revenue, packs sold, revenue and refunds of the last 30 days',
    description:
      "MRR is the catalogue's monthly price of every live subscription (active, trialing, past_due); the 30-day figures are what " +
      'Stripe reported for packs and invoices. Amounts in cents of `currency`. Admins only.',
  })
  @ApiOkResponse({ type: AdminRevenueDto })
  getAdminRevenue(): Promise<AdminRevenueDto> {
    return this.payments.revenue();
  }

  @Get('audit-log')
  @Authenticated({ roles: rolesFor('audit-log', 'list') })
  @ApiOperation({ summary: 'The audit trail: who did what to whom, before and after, when', description: LIST_NOTE })
  @ApiOkResponse({ type: [AuditLogRowDto], headers: contentRangeHeader('audit-log') })
  async listAuditLog(@Query() query: SimpleRestQueryDto, @Res({ passthrough: true }) res: Response): Promise<AuditLogRowDto[]> {
    const params = this.auditLog.parse(query);
    const { rows, total } = await this.auditLog.list(params);
    setContentRange(res, 'audit-log', params.offset, rows.length, total);
    return rows;
  }

  @Get('queues')
  @Authenticated({ roles: rolesFor('queues', 'list') })
  @ApiOperation({
    summary: 'The job queues: driver, health, last heartbeat, jobs by state per queue and in total',
    description:
      'Answers while the queue is away: `healthy` is false with the reason in `detail`, and the per-queue counts are empty. `board_url` is where Bull Board ' +
      'is served (BullMQ driver only; null otherwise): open it with POST /api/admin/queue-board/session first.',
  })
  @ApiOkResponse({ type: QueueOverviewDto })
  async getQueueOverview(): Promise<QueueOverviewDto> {
    const [check, queues, running] = await Promise.all([
      this.queue.check(),
      // the page answers while the queue is away: no counts then, and `healthy` says why
      this.queue.countsByQueue().catch(() => []),
      this.generationsService.countRunning(),
    ]);
    const counts = { waiting: 0, active: 0, delayed: 0, failed: 0, completed: 0 };
    for (const q of queues) for (const key of Object.keys(counts) as (keyof typeof counts)[]) counts[key] += q.counts[key];
    return {
      driver: this.queue.kind,
      queues,
      healthy: check.ok,
      detail: check.detail ?? null,
      last_heartbeat_at: check.lastHeartbeatAt ?? null,
      counts,
      running_generations: running,
      board_url: this.board.available ? QUEUE_BOARD_PATH : null,
    };
  }

  @Post('queue-board/session')
  @HttpCode(200)
  @Authenticated({ roles: rolesFor('queues', 'list') })
  @ApiOperation({
    summary: "Opens Bull Board: sets a short-lived httpOnly cookie (path /api/admin/queue-board) for the caller's session",
    description:
      'Bull Board is served only with the BullMQ driver (Redis); otherwise 404. The cookie expires after 15 minutes and with the session.',
  })
  @ApiOkResponse({ type: QueueBoardSessionDto })
  async createQueueBoardSession(@CurrentUser() actor: AuthUser, @Res({ passthrough: true }) res: Response): Promise<QueueBoardSessionDto> {
    if (!this.board.available) throw new NotFoundError('The queue board needs the BullMQ driver (REDIS_URL).');
    const { token, expiresAt } = await this.board.issue(actor);
    this.board.setCookie(res, token);
    return { url: QUEUE_BOARD_PATH, expires_at: expiresAt.toISOString() };
  }
}
