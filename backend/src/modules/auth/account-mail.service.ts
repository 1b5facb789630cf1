import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger, type LoggerService } from '@nestjs/common';
import { appLink, APP_PAGES } from '../../common/app-links';
import { APP_CONFIG } from '../../config/config.module';
import {
  JobName,
  MAIL_JOB_OPTIONS,
  OnJob,
  type AccountMailPayload,
  type JobContext,
  type JobPayload,
  type MessageQueueService,
} from '../../queue';
import { Mailer, MailTemplates } from '../mail';
import { userIdHash } from '../privacy/personal-text';
import { UsersService } from '../users/users.service';
import { AUTH_RATE_LIMIT_STORAGE } from './rate-limit/auth-rate-limit';
import { AuthTokenPurpose } from './tokens/auth-token.entity';
import { AUTH_TOKEN_TTL_MINUTES, AuthTokensService } from './tokens/auth-tokens.service';
import type { AppConfig } from '../../config/app-config';
import type { UserEntity } from '../users/user.entity';
import type { RateLimitStore } from './rate-limit/redis-throttler.storage';

const HOUR_MS = 3600_000;

/** A rate-limit key for an address that does not carry the address itself. */
function addressKey(email: string): string {
  return `address-${createHash('sha256').update(`fitting-room:address:${email}`).digest('hex').slice(0, 24)}`;
}

/** At most this many of each mail per account per hour, so nobody can flood a mailbox through our forms. */
export const ACCOUNT_MAIL_PER_HOUR = { 'verify-email': 5, 'password-reset': 5, 'sign-up-attempt': 1, 'sign-ups-evicted': 1 } as const;

/** Security mail goes through a queue job (retried); a queue that fails must not fail the request that asked for it. */
export async function queueAccountMail(queue: MessageQueueService, payload: AccountMailPayload, logger: LoggerService): Promise<void> {
  try {
    await queue.add(JobName.AccountMail, payload, MAIL_JOB_OPTIONS);
  } catch (error) {
    logger.error({ event: 'account_mail_not_queued', kind: payload.kind, err: error }, 'an account mail could not be queued');
  }
}

/**
 * The security mail of accounts (always sent, whatever the settings), as a queue job: the job, not
 * the request, looks the account up and issues the link, so a request takes the same time whether
 * or not an address has an account.
 */
@Injectable()
export class AccountMailService {
  private readonly logger = new Logger('AccountMail');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(AUTH_RATE_LIMIT_STORAGE) private readonly limits: RateLimitStore,
    private readonly users: UsersService,
    private readonly tokens: AuthTokensService,
    private readonly mailer: Mailer,
  ) {}

  @OnJob(JobName.AccountMail)
  async handleAccountMail(data: JobPayload<JobName.AccountMail>, ctx: JobContext): Promise<void> {
    const first = ctx.attempt === 1;
    switch (data.kind) {
      case 'verify-address': {
        if (await this.users.findVerifiedByEmail(data.email)) return; // owned: a newcomer's "Resend" mails nobody
        const [waiting] = await this.users.findUnverifiedByEmail(data.email);
        if (waiting) await this.handleAccountMail({ kind: 'verify-email', userId: waiting.id }, ctx);
        return;
      }
      case 'sign-up-existing': {
        // the verified owner, else the newest sign-up waiting (a reset link proves the address: AddressProofService)
        const user = (await this.users.findVerifiedByEmail(data.email)) ?? (await this.users.findUnverifiedByEmail(data.email))[0];
        if (!user) return; // deleted meanwhile
        if (first && !(await this.allow('sign-up-attempt', user.id))) return;
        const token = await this.tokens.issue(user.id, AuthTokenPurpose.PasswordReset);
        await this.send(
          user,
          'sign-up-attempt',
          MailTemplates.signUpAttempt(this.mailer.brand, {
            name: user.emailVerifiedAt ? user.fullName : undefined,
            signInUrl: this.link(APP_PAGES.signIn),
            resetUrl: this.link(APP_PAGES.resetPassword, { token }),
            ttlMinutes: AUTH_TOKEN_TTL_MINUTES[AuthTokenPurpose.PasswordReset],
          }),
          { greet: user.emailVerifiedAt !== null },
        );
        return;
      }
      case 'verify-email': {
        const user = await this.users.findById(data.userId);
        if (!user || user.emailVerifiedAt) return;
        const owner = await this.users.findVerifiedByEmail(user.email);
        if (owner) {
          // someone signed up with an address that has an owner: tell the owner, never the newcomer
          if (first && !(await this.allow('sign-up-attempt', owner.id))) return;
          await this.send(
            owner,
            'sign-up-attempt',
            MailTemplates.signUpAttempt(this.mailer.brand, {
              name: owner.fullName,
              signInUrl: this.link(APP_PAGES.signIn),
              resetUrl: this.link(APP_PAGES.forgotPassword),
            }),
          );
          return;
        }
        if (first && !(await this.allow('verify-email', user.id))) return;
        const token = await this.tokens.issue(user.id, AuthTokenPurpose.EmailVerification, { email: user.email });
        await this.send(
          user,
          'verify-email',
          MailTemplates.verifyEmail(this.mailer.brand, {
            name: user.fullName,
            url: this.link(APP_PAGES.verifyEmail, { token }),
            ttlMinutes: AUTH_TOKEN_TTL_MINUTES[AuthTokenPurpose.EmailVerification],
          }),
        );
        return;
      }
      case 'password-reset': {
        const user = (await this.users.findVerifiedByEmail(data.email)) ?? (await this.users.findUnverifiedByEmail(data.email))[0];
        if (!user) return; // no account: no mail, and the request answered the same
        if (first && !(await this.allow('password-reset', user.id))) return;
        const token = await this.tokens.issue(user.id, AuthTokenPurpose.PasswordReset);
        await this.send(
          user,
          'password-reset',
          MailTemplates.passwordReset(this.mailer.brand, {
            name: user.fullName,
            url: this.link(APP_PAGES.resetPassword, { token }),
            ttlMinutes: AUTH_TOKEN_TTL_MINUTES[AuthTokenPurpose.PasswordReset],
          }),
        );
        return;
      }
      case 'password-changed': {
        const user = await this.users.findById(data.userId);
        if (!user) return;
        await this.send(
          user,
          'password-changed',
          MailTemplates.passwordChanged(this.mailer.brand, { name: user.fullName, resetUrl: this.link(APP_PAGES.forgotPassword) }),
        );
        return;
      }
      case 'sign-ups-removed': {
        const user = await this.users.findById(data.userId);
        if (!user) return;
        const confirmed = user.emailVerifiedAt !== null;
        // a sign-up that pushed out the oldest: at most one notice an hour per address (whoever signs up)
        if (!confirmed && first && !(await this.allow('sign-ups-evicted', addressKey(user.email)))) return;
        const setPassword = confirmed && data.setPassword === true;
        const token = setPassword ? await this.tokens.issue(user.id, AuthTokenPurpose.PasswordReset) : undefined;
        await this.send(
          user,
          'sign-ups-removed',
          MailTemplates.signUpsRemoved(this.mailer.brand, {
            removed: data.removed.map((at) => new Date(at)),
            confirmed,
            signInUrl: this.link(APP_PAGES.signIn),
            setPasswordUrl: token ? this.link(APP_PAGES.resetPassword, { token }) : undefined,
            ttlMinutes: AUTH_TOKEN_TTL_MINUTES[AuthTokenPurpose.PasswordReset],
          }),
          { greet: false },
        );
        return;
      }
      case 'two-factor': {
        const user = await this.users.findById(data.userId);
        if (!user) return;
        await this.send(
          user,
          data.renewed ? 'recovery-codes-renewed' : data.enabled ? 'two-factor-on' : 'two-factor-off',
          MailTemplates.twoFactorChanged(this.mailer.brand, {
            name: user.fullName,
            enabled: data.enabled,
            renewed: data.renewed === true,
            settingsUrl: this.link(APP_PAGES.settings),
          }),
        );
        return;
      }
    }
  }

  /** To the account's address, filed under the account (the outbox removes it with the account). `greet: false`: no name on the envelope either. */
  private async send(
    user: UserEntity,
    template: string,
    content: ReturnType<(typeof MailTemplates)[keyof typeof MailTemplates]>,
    options: { greet?: boolean } = {},
  ): Promise<void> {
    await this.mailer.deliver({
      to: user.email,
      toName: options.greet === false ? undefined : user.fullName,
      template,
      content,
      account: user.id,
    });
  }

  /** `key`: the account's id, or addressKey() of an address. */
  private async allow(kind: keyof typeof ACCOUNT_MAIL_PER_HOUR, key: string): Promise<boolean> {
    const { count } = await this.limits.hit(`mail:${kind}:${key}`, HOUR_MS);
    if (count <= ACCOUNT_MAIL_PER_HOUR[kind]) return true;
    this.logger.warn(
      { event: 'account_mail_skipped', kind, account: key.startsWith('address-') ? key : userIdHash(key) },
      'too many mails of this kind for one account this hour: not sent',
    );
    return false;
  }

  private link(page: string, query: Record<string, string> = {}): string {
    return appLink(this.config.appUrl, page, query);
  }
}
