import { Inject, Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { MessageQueueService, type AccountMailPayload } from '../../queue';
import { STORAGE, type StoragePort } from '../../storage';
import { AnalyticsRepository } from '../analytics/analytics.repository';
import { ApiTokenRevokeReason } from '../api-tokens/api-token.entity';
import { ApiTokensService } from '../api-tokens/api-tokens.service';
import { AuditService } from '../audit/audit.service';
import { CreditsService } from '../credits/credits.service';
import { DeveloperWebhooksRepository } from '../developer-webhooks/developer-webhooks.repository';
import { AccountDeletionService, accountFilesPrefix, userIdHash } from '../privacy/account-deletion.service';
import { PrivacyRepository } from '../privacy/privacy.repository';
import { SupportRepository } from '../support/support.repository';
import { UserEntity } from '../users/user.entity';
import { UsersRepository } from '../users/users.repository';
import { UsersService } from '../users/users.service';
import { queueAccountMail } from './account-mail.service';
import { SessionRevokeReason } from './session.entity';
import { SessionsService } from './sessions.service';
import { AuthTokenPurpose } from './tokens/auth-token.entity';
import { AuthTokensService } from './tokens/auth-tokens.service';
import { TwoFactorService } from './two-factor/two-factor.service';

/** How the address was proven: the mailed confirmation link, a mailed reset link, or Google. */
export type AddressProof = 'verification_link' | 'reset_link' | 'google';

/** The audit trail's action for an account taken over by the owner of its address. */
export const ACCOUNT_CLAIMED_ACTION = 'account.claimed';

/** What the owner brings to an account taken over: the rest of what its maker set is discarded. */
export interface OwnerCredentials {
  /** the new password (a reset link); none through Google or a confirmation link */
  passwordHash?: string | null;
  googleSub?: string | null;
  /** the name Google gave; empty otherwise (the owner sets theirs in Settings) */
  fullName?: string;
}

/** An address proven inside a transaction; settle() finishes it once that commits. */
export interface ProvenAddress {
  /** the account that now holds the address, verified */
  user: UserEntity;
  proof: AddressProof;
  /** whether what the account's maker set was discarded (the account was taken over for the owner) */
  claimed: boolean;
  /** the other, unverified accounts of the address, to remove once the proof commits */
  displaced: { id: string; createdAt: Date }[];
}

/**
 * The one code path by which an address gets its owner. Whoever proves an address (opens a link
 * mailed to it, or signs in with Google, which vouches for it) owns it, whichever of its links
 * they open; an account they may not have made themselves is *taken over* for them:
 *
 * - a reset link or Google reaching an unverified account: its maker may be a stranger who signed
 *   up with the owner's address (pre-registration), so what they set is discarded;
 * - a confirmation link while other sign-ups of the address wait: the owner cannot tell the links
 *   apart (each went to the same mailbox), so the account of the link they opened may be a
 *   stranger's, and is discarded the same way; the owner chooses a password through the notice;
 * - a confirmation link of the only sign-up waiting confirms it as it is (its maker is the person
 *   who reads the mailbox, or someone the mail told to ignore a sign-up they did not make).
 *
 * Taking over discards the password, Google link, two-factor (secret and recovery codes), every
 * session, one-time link and personal API token, the webhook endpoints, settings, activity, name and 18+ confirmation, the uploads and
 * generations with their files, and detaches support tickets. It is recorded in the audit trail.
 * The other unverified accounts of the address are removed as a deletion removes them, and the
 * address is told by mail: no account is removed silently.
 */
@Injectable()
export class AddressProofService {
  private readonly logger = new Logger('AddressProof');

  constructor(
    private readonly usersRepository: UsersRepository,
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly tokens: AuthTokensService,
    private readonly twoFactor: TwoFactorService,
    private readonly analyticsRepository: AnalyticsRepository,
    private readonly supportRepository: SupportRepository,
    private readonly privacyRepository: PrivacyRepository,
    private readonly credits: CreditsService,
    private readonly audit: AuditService,
    private readonly deletion: AccountDeletionService,
    private readonly queue: MessageQueueService,
    @Inject(STORAGE) private readonly storage: StoragePort,
    private readonly apiTokens: ApiTokensService,
    private readonly webhooks: DeveloperWebhooksRepository,
  ) {}

  /**
   * In the caller's transaction, `account` locked and unverified, no verified account holding its
   * address: the address is proven for `account`, which is taken over when the rules above say so,
   * then verified (and promoted when ADMIN_EMAILS lists it). Throws PostgreSQL's unique violation
   * when another account verified the address meanwhile, and a storage error when the account's
   * files cannot be deleted: either way the transaction rolls back and nothing changed.
   */
  async prove(m: EntityManager, account: UserEntity, proof: AddressProof, owner: OwnerCredentials = {}): Promise<ProvenAddress> {
    // one at a time with the sign-ups of this address, so the accounts counted here are all of them
    await this.usersRepository.lockSignUps(m, account.email);
    const others = (await this.users.findUnverifiedByEmail(account.email, m)).filter((u) => u.id !== account.id);
    const claimed = proof !== 'verification_link' || others.length > 0;
    if (claimed) await this.discardMakersState(m, account, owner);
    const verified = await this.users.markEmailVerified(m, account);
    const createdAt = new Map(others.map((u) => [u.id, u.createdAt]));
    const displaced = verified.displaced.map((id) => ({ id, createdAt: createdAt.get(id) ?? new Date() }));
    if (claimed) {
      await this.audit.record(
        {
          actorId: account.id,
          action: ACCOUNT_CLAIMED_ACTION,
          targetType: 'user',
          targetId: account.id,
          targetUserId: account.id,
          after: { proof, removed_sign_ups: displaced.length },
        },
        m,
      );
    }
    return { user: verified.user, proof, claimed, displaced };
  }

  /**
   * Once the proof committed: the other unverified accounts of the address are removed (rows,
   * files, mail), and the address is told which and when; after a confirmation link that took an
   * account over, the same mail carries a link to choose a password.
   */
  async settle(proven: ProvenAddress): Promise<void> {
    if (proven.claimed) {
      this.logger.log(
        { event: 'account_claimed', account: userIdHash(proven.user.id), proof: proven.proof, removed: proven.displaced.length },
        'the owner of an address took an account of it over',
      );
    }
    await this.removeAccounts(proven.displaced.map((d) => d.id));
    const setPassword = proven.claimed && proven.proof === 'verification_link';
    if (proven.displaced.length || setPassword) {
      await this.tell({
        kind: 'sign-ups-removed',
        userId: proven.user.id,
        removed: proven.displaced.map((d) => d.createdAt.toISOString()),
        ...(setPassword ? { setPassword: true } : {}),
      });
    }
  }

  /** Everything the maker of `account` may have set, gone; what the owner brings, set. */
  private async discardMakersState(m: EntityManager, account: UserEntity, owner: OwnerCredentials): Promise<void> {
    const fresh = {
      passwordHash: owner.passwordHash ?? null,
      googleSub: owner.googleSub ?? null,
      fullName: owner.fullName ?? '',
      ageConfirmedAt: null,
    };
    await this.usersRepository.update(account.id, fresh, m);
    await this.twoFactor.reset(m, account.id);
    await this.sessions.revokeAllForUser(account.id, SessionRevokeReason.AccountClaimed, { manager: m });
    await this.apiTokens.revokeAllOf(m, account.id, ApiTokenRevokeReason.AccountClaimed);
    await this.webhooks.deleteAllOf(m, account.id);
    await this.tokens.revokeAll(m, account.id, [
      AuthTokenPurpose.EmailVerification,
      AuthTokenPurpose.PasswordReset,
      AuthTokenPurpose.MfaChallenge,
    ]);
    await this.usersRepository.deleteSettings(m, account.id);
    await this.analyticsRepository.deleteActivityOf(account.id, m);
    await this.supportRepository.detachUser(account.id, m);
    const generations = await this.privacyRepository.deleteContentRows(m, account.id);
    for (const id of generations) await this.credits.release(id, m);
    // before the commit: nobody can add a file meanwhile (an unverified account cannot upload), and
    // a storage that fails rolls the whole proof back, so the link still works when it is back
    await this.storage.deletePrefix(accountFilesPrefix(account.id));
    Object.assign(account, fresh, { totpEnabledAt: null, totpSecret: null, totpLastStep: null });
  }

  private async removeAccounts(ids: string[]): Promise<void> {
    for (const id of ids) {
      try {
        await this.deletion.deleteAccount(id, { notify: false });
      } catch (error) {
        this.logger.error(
          { event: 'displaced_account_not_removed', account: userIdHash(id), err: error },
          'an unverified account of a proven address could not be removed',
        );
      }
    }
  }

  private tell(payload: AccountMailPayload): Promise<void> {
    return queueAccountMail(this.queue, payload, this.logger);
  }
}
