import { Inject, Injectable } from '@nestjs/common';
import { RateLimitError } from '../../../common/errors';
import { APP_CONFIG } from '../../../config/config.module';
import { AUTH_RATE_LIMIT_STORAGE } from './auth-rate-limit';
import { emailKey } from './device-cookie';
import type { AppConfig } from '../../../config/app-config';
import type { RateLimitStore } from './redis-throttler.storage';

/** Who is trying: the browser's device cookie nonce when it signed in to this account before, else its IP. */
export interface SignInClient {
  trustedDevice: string | null;
  ip?: string | null;
}

/** An attempt in progress: settle it with succeeded() or leave it counted as a failure. */
export interface SignInAttempt {
  keys: string[];
}

/**
 * Counts sign-in failures per account, so that guessing stops without letting strangers lock the
 * owner out (finding: ten wrong passwords from anywhere used to block the owner's own sign-in):
 *
 * - from a browser with a device cookie for this account: AUTH_RATE_LIMIT_EMAIL_MAX failures per
 *   window for that browser alone; nobody else's failures count against it;
 * - from any other client: AUTH_RATE_LIMIT_EMAIL_MAX per window per IP address, and
 *   AUTH_RATE_LIMIT_EMAIL_UNTRUSTED_MAX per window for all of them together (a guess spread over
 *   many addresses).
 *
 * An attempt is counted before the password is checked (so a burst cannot slip past the limit),
 * and a success takes it back and forgets that client's failures.
 */
@Injectable()
export class SignInThrottle {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(AUTH_RATE_LIMIT_STORAGE) private readonly store: RateLimitStore,
  ) {}

  async begin(email: string, client: SignInClient): Promise<SignInAttempt> {
    const { windowSeconds, emailMax, emailUntrustedMax } = this.config.auth.rateLimit;
    const account = emailKey(email);
    const limits: Array<[string, number]> = client.trustedDevice
      ? [[`signin:device:${account}:${client.trustedDevice}`, emailMax]]
      : [
          [`signin:ip:${account}:${client.ip ?? 'unknown'}`, emailMax],
          [`signin:untrusted:${account}`, emailUntrustedMax],
        ];
    const windowMs = windowSeconds * 1000;
    const counts = await Promise.all(limits.map(([key]) => this.store.hit(key, windowMs)));
    const over = counts.findIndex((c, i) => c.count > limits[i][1]);
    if (over !== -1) {
      // this attempt is not made: it must not count either
      await Promise.all(limits.map(([key]) => this.store.undo(key)));
      throw new RateLimitError(undefined, Math.max(1, Math.ceil(counts[over].msLeft / 1000)));
    }
    return { keys: limits.map(([key]) => key) };
  }

  /** The password was right: this attempt was no failure, and this client's slate is clean. */
  async succeeded(attempt: SignInAttempt): Promise<void> {
    const [own, ...shared] = attempt.keys;
    await Promise.all([this.store.clear(own), ...shared.map((key) => this.store.undo(key))]);
  }
}
