import { Injectable, Logger } from '@nestjs/common';
import { type AuthUser } from '../../common/auth';
import { NotFoundError, ValidationError } from '../../common/errors';
import { AuditService } from '../audit/audit.service';
import { UsersRepository } from '../users/users.repository';
import { apiTokenHash, isWellFormedApiToken, newApiToken } from './api-token-format';
import { ApiTokenRevokeReason } from './api-token.entity';
import { type ApiTokenRow, ApiTokensRepository } from './api-tokens.repository';
import {
  type AdminApiTokenDto,
  type ApiTokenCreateDto,
  type ApiTokenCreatedDto,
  type ApiTokenDto,
  ApiTokenMessages,
} from './dto/api-token.dto';
import type { ApiTokenScope } from '@fitting-room/shared/developer-api';
import type { EntityManager } from 'typeorm';

/** Live tokens one account may hold at once. */
export const MAX_API_TOKENS_PER_USER = 50;

/** The audit trail's actions of personal API tokens (the token itself never appears in a row). */
export const ApiTokenAudit = {
  Create: 'api_token.create',
  Revoke: 'api_token.revoke',
  AdminRevoke: 'api_token.admin_revoke',
} as const;

/** What a valid token is: its caller, as the guard puts it on the request, and what it may do. */
export interface ApiTokenCaller {
  user: AuthUser;
  tokenId: string;
  scopes: readonly string[];
}

/** A token's answer: `null` when unknown, revoked, expired or malformed; `suspended` when its account is suspended. */
export type ApiTokenCheck = ApiTokenCaller | null | 'suspended';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

function toDto(row: ApiTokenRow): ApiTokenDto {
  return {
    id: row.id,
    name: row.name,
    prefix: row.shown,
    scopes: row.scopes as ApiTokenScope[],
    created_at: row.createdAt.toISOString(),
    expires_at: iso(row.expiresAt),
    last_used_at: iso(row.lastUsedAt),
  };
}

/** What the audit trail keeps of a token: never the token, nor its first characters. */
function audited(row: ApiTokenRow): Record<string, unknown> {
  return { name: row.name, scopes: row.scopes, expires_at: iso(row.expiresAt) };
}

/**
 * Personal API tokens (docs/api.md): created with a name, scopes and an optional expiry and shown
 * once; stored as a SHA-256; listed and revoked by their owner (Settings) and by admins (the user's
 * page in the console); every creation and revocation in the audit trail. The guard calls
 * `authenticate` for a bearer value with the `frk_` prefix.
 */
@Injectable()
export class ApiTokensService {
  private readonly logger = new Logger('ApiTokens');

  constructor(
    private readonly repo: ApiTokensRepository,
    private readonly users: UsersRepository,
    private readonly audit: AuditService,
  ) {}

  async create(caller: AuthUser, body: ApiTokenCreateDto, now = new Date()): Promise<ApiTokenCreatedDto> {
    const expiresAt = body.expires_at ? new Date(body.expires_at) : null;
    if (expiresAt && !(expiresAt.getTime() > now.getTime())) throw new ValidationError(ApiTokenMessages.expiresAt);
    const made = newApiToken();
    const row = await this.repo.transaction(async (m) => {
      if (!(await this.repo.lockOwner(m, caller.id))) throw new NotFoundError();
      if ((await this.repo.countLive(m, caller.id)) >= MAX_API_TOKENS_PER_USER) {
        throw new ValidationError(ApiTokenMessages.tooMany(MAX_API_TOKENS_PER_USER));
      }
      const inserted = await this.repo.insert(m, {
        userId: caller.id,
        name: body.name,
        tokenHash: made.hash,
        shown: made.shown,
        scopes: [...new Set(body.scopes)],
        expiresAt,
      });
      await this.audit.record(
        {
          actorId: caller.id,
          action: ApiTokenAudit.Create,
          targetType: 'api_token',
          targetId: inserted.id,
          targetUserId: caller.id,
          after: audited(inserted),
        },
        m,
      );
      return inserted;
    });
    this.logger.log({ event: 'api_token_created', tokenId: row.id, scopes: row.scopes }, 'an API token was created');
    return { ...toDto(row), token: made.token };
  }

  async list(userId: string): Promise<ApiTokenDto[]> {
    return (await this.repo.listOf(userId)).map(toDto);
  }

  /** The owner revokes one of their tokens; another person's (or an unknown, or a revoked one) answers 404. */
  async revoke(caller: AuthUser, id: string): Promise<void> {
    await this.revokeOne(caller.id, caller.id, id, ApiTokenRevokeReason.Owner);
  }

  /** The console's list of a user's tokens: revoked and expired ones too, newest first. */
  async listForAdmin(userId: string): Promise<AdminApiTokenDto[]> {
    if (!isUuid(userId) || !(await this.users.exists(userId))) throw new NotFoundError();
    return (await this.repo.listOf(userId, { all: true })).map((row) => ({
      ...toDto(row),
      revoked_at: iso(row.revokedAt),
      revoke_reason: row.revokeReason,
    }));
  }

  async revokeForAdmin(admin: AuthUser, userId: string, id: string): Promise<void> {
    await this.revokeOne(admin.id, userId, id, ApiTokenRevokeReason.Admin);
  }

  /** Every token of the account ends, in the caller's transaction (a password reset, a take-over). */
  revokeAllOf(m: EntityManager, userId: string, reason: ApiTokenRevokeReason.PasswordReset | ApiTokenRevokeReason.AccountClaimed) {
    return this.repo.revokeAllOf(m, userId, reason);
  }

  /**
   * The caller a bearer token stands for, checked in the database on every request (a revocation
   * takes effect at once). A malformed token or one whose checksum fails is refused without a read.
   */
  async authenticate(token: string): Promise<ApiTokenCheck> {
    if (!isWellFormedApiToken(token)) return null;
    const live = await this.repo.findLiveAuth(apiTokenHash(token));
    if (!live) return null;
    if (live.suspended) return 'suspended';
    if (!live.lastUsedAt || Date.now() - new Date(live.lastUsedAt).getTime() >= 60_000) {
      // a busy token writes once a minute; a failed write never fails the request
      await this.repo
        .touch(live.tokenId)
        .catch((err: unknown) => this.logger.warn({ event: 'api_token_touch_failed', err }, 'last use not recorded'));
    }
    return {
      tokenId: live.tokenId,
      scopes: live.scopes,
      user: {
        id: live.userId,
        role: live.role,
        tier: live.tier,
        sessionId: '',
        apiTokenId: live.tokenId,
        emailVerified: live.emailVerified,
        ageConfirmed: live.ageConfirmed,
        twoFactorEnabled: live.twoFactorEnabled,
        generationsVersion: live.generationsVersion,
      },
    };
  }

  private async revokeOne(actorId: string, userId: string, id: string, reason: ApiTokenRevokeReason): Promise<void> {
    if (!isUuid(id)) throw new NotFoundError();
    const row = await this.repo.transaction(async (m) => {
      const revoked = await this.repo.revoke(m, userId, id, reason);
      if (!revoked) throw new NotFoundError();
      await this.audit.record(
        {
          actorId,
          action: reason === ApiTokenRevokeReason.Admin ? ApiTokenAudit.AdminRevoke : ApiTokenAudit.Revoke,
          targetType: 'api_token',
          targetId: revoked.id,
          targetUserId: userId,
          before: audited(revoked),
        },
        m,
      );
      return revoked;
    });
    this.logger.log({ event: 'api_token_revoked', tokenId: row.id, reason }, 'an API token was revoked');
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
function isUuid(value: string): boolean {
  return UUID.test(value);
}
