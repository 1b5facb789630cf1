import { Inject, Injectable, Logger } from '@nestjs/common';
import { appLink, APP_PAGES } from '../../common/app-links';
import { APP_CONFIG } from '../../config/config.module';
import { JobName, OnJob, type JobContext, type JobPayload } from '../../queue';
import { Mailer, MailTemplates } from '../mail';
import { UsersService } from '../users/users.service';
import { AUTH_RATE_LIMIT_STORAGE } from './rate-limit/auth-rate-limit';
import { AuthTokenPurpose } from './tokens/auth-token.entity';
import { AUTH_TOKEN_TTL_MINUTES, AuthTokensService } from './tokens/auth-tokens.service';
import type { AppConfig } from '../../config/app-config';
import type { UserEntity } from '../users/user.entity';
import type { RateLimitStore } from './rate-limit/redis-throttler.storage';

const HOUR_MS = 3600_000;

/** At most this many of each mail per account per hour, so nobody can flood a mailbox through our forms. */
export const ACCOUNT_MAIL_PER_HOUR = { 'verify-email': 5, 'password-reset': 5, 'sign-up-attempt': 1 } as const;

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
      case 'two-factor': {
        const user = await this.users.findById(data.userId);
        if (!user) return;
        await this.send(
          user,
          data.enabled ? 'two-factor-on' : 'two-factor-off',
          MailTemplates.twoFactorChanged(this.mailer.brand, {
            name: user.fullName,
            enabled: data.enabled,
            settingsUrl: this.link(APP_PAGES.settings),
          }),
        );
        return;
      }
    }
  }

  private async send(
    user: UserEntity,
    template: string,
    content: ReturnType<(typeof MailTemplates)[keyof typeof MailTemplates]>,
  ): Promise<void> {
    await this.mailer.deliver({ to: user.email, toName: user.fullName, template, content });
  }

  private async allow(kind: keyof typeof ACCOUNT_MAIL_PER_HOUR, userId: string): Promise<boolean> {
    const { count } = await this.limits.hit(`mail:${kind}:${userId}`, HOUR_MS);
    if (count <= ACCOUNT_MAIL_PER_HOUR[kind]) return true;
    this.logger.warn(
      { event: 'account_mail_skipped', kind, user: userId },
      'too many mails of this kind for one account this hour: not sent',
    );
    return false;
  }

  private link(page: string, query: Record<string, string> = {}): string {
    return appLink(this.config.appUrl, page, query);
  }
}
