import { Injectable } from '@nestjs/common';
import { AuthError, ValidationError } from '../../common/errors';
import { verifyPassword } from '../../common/security/password';
import { AuthException } from '../auth/auth.exception';
import { SessionsRepository } from '../auth/sessions.repository';
import { TwoFactorService } from '../auth/two-factor/two-factor.service';
import { UsersRepository } from '../users/users.repository';
import { PrivacyMessages } from './privacy.exception';
import type { AuthUser } from '../../common/auth';

/** How recent a Google sign-in must be to delete a Google-only account (no password, no two-factor). */
export const GOOGLE_REAUTH_MINUTES = 5;

/** What the person typed again to delete their account. */
export interface Reauthentication {
  password?: string;
  /** a code of the authenticator app, or a recovery code */
  code?: string;
}

/**
 * "Delete All My Data" asks the person to prove, again, that they are the account's owner: a
 * session left open on a shared computer, or a stolen access token, must not be enough to erase
 * everything. With two-factor on: a code of the app (or a recovery code); else the password; an
 * account that signs in with Google only: a Google sign-in within the last GOOGLE_REAUTH_MINUTES
 * (the session it made is that recent). Throws the error to show; nothing is deleted then.
 */
@Injectable()
export class AccountReauthService {
  constructor(
    private readonly users: UsersRepository,
    private readonly sessions: SessionsRepository,
    private readonly twoFactor: TwoFactorService,
  ) {}

  async confirm(caller: AuthUser, input: Reauthentication): Promise<void> {
    const user = await this.users.findById(caller.id);
    if (!user) throw new AuthError();
    if (user.totpEnabledAt) {
      const code = input.code?.trim();
      if (!code) throw new ValidationError(PrivacyMessages.codeRequired);
      const proof = /[a-z]/i.test(code) ? { recovery_code: code } : { code };
      if (!(await this.twoFactor.verify(user.id, proof))) throw AuthException.invalidCode();
      return;
    }
    if (user.passwordHash) {
      if (!input.password) throw new ValidationError(PrivacyMessages.passwordRequired);
      if (!(await verifyPassword(user.passwordHash, input.password))) throw AuthException.wrongPassword();
      return;
    }
    // Google only: this session must come from a Google sign-in of the last few minutes
    const started = await this.sessions.createdAt(caller.sessionId);
    if (!started || Date.now() - started.getTime() > GOOGLE_REAUTH_MINUTES * 60_000) throw AuthException.reauthRequired();
  }
}
