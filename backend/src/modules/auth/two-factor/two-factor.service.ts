import { createHmac } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { toDataURL } from 'qrcode';
import { ConflictError, ValidationError } from '../../../common/errors';
import { APP_CONFIG } from '../../../config/config.module';
import { UsersRepository } from '../../users/users.repository';
import { AuthException } from '../auth.exception';
import { AuthRepository } from '../auth.repository';
import { newRecoveryCodes, newTotpSecret, otpauthUrl, recoveryCodeHash, SecretBox, totpStep } from './totp';
import type { AppConfig } from '../../../config/app-config';
import type { UserEntity } from '../../users/user.entity';
import type { EntityManager } from 'typeorm';

export interface TwoFactorSetup {
  secret: string;
  otpauth_url: string;
  /** the otpauth URL as a QR code (PNG data URL) */
  qr_code: string;
}

/** What a person typed to prove the second factor: a code from the app, or a recovery code. */
export interface SecondFactor {
  code?: string;
  recovery_code?: string;
}

/**
 * TOTP two-factor authentication (RFC 6238) with ten single-use recovery codes:
 * setup -> a secret (kept encrypted, not active yet) -> enable with a valid code -> recovery codes,
 * shown once and stored as HMACs. Disabling needs a code (or a recovery code). A code is accepted
 * once: the last accepted time step is stored.
 */
@Injectable()
export class TwoFactorService {
  private readonly box: SecretBox;
  private readonly recoveryKey: Buffer;

  constructor(
    private readonly repo: AuthRepository,
    private readonly users: UsersRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    const material = config.auth.encryptionKey ?? config.auth.jwtSecret;
    this.box = new SecretBox(material);
    this.recoveryKey = createHmac('sha256', material).update('fr-recovery-codes').digest();
  }

  async setup(userId: string): Promise<TwoFactorSetup> {
    const user = await this.users.getById(userId);
    if (user.totpEnabledAt) throw new ConflictError('Two-factor authentication is already on. Turn it off first to set it up again.');
    const secret = newTotpSecret();
    await this.users.update(userId, { totpSecret: this.box.seal(secret), totpLastStep: null });
    const url = otpauthUrl(secret, this.config.appName, user.email);
    return { secret, otpauth_url: url, qr_code: await toDataURL(url, { margin: 1, width: 240, errorCorrectionLevel: 'M' }) };
  }

  /** Turns two-factor on with a code from the app; answers the ten recovery codes (shown once). */
  async enable(userId: string, code: string): Promise<string[]> {
    return this.repo.transaction(async (m) => {
      const user = await this.lockUser(m, userId);
      if (user.totpEnabledAt) throw new ConflictError('Two-factor authentication is already on.');
      if (!user.totpSecret) throw new ValidationError('Start the setup first: no authenticator secret is waiting to be confirmed.');
      const step = totpStep(this.box.open(user.totpSecret), code);
      if (step === null) throw AuthException.invalidCode();
      const codes = newRecoveryCodes();
      await this.users.update(userId, { totpEnabledAt: new Date(), totpLastStep: step }, m);
      await this.repo.replaceRecoveryCodes(
        m,
        userId,
        codes.map((c) => recoveryCodeHash(this.recoveryKey, c)),
      );
      return codes;
    });
  }

  /** Turns two-factor off; needs a current code or an unused recovery code. */
  async disable(userId: string, proof: SecondFactor): Promise<void> {
    await this.repo.transaction(async (m) => {
      const user = await this.lockUser(m, userId);
      if (!user.totpEnabledAt) throw new ConflictError('Two-factor authentication is not on.');
      if (!(await this.verifyLocked(m, user, proof))) throw AuthException.invalidCode();
      await this.users.update(userId, { totpSecret: null, totpEnabledAt: null, totpLastStep: null }, m);
      await this.repo.deleteRecoveryCodes(m, userId);
    });
  }

  /** How many recovery codes are left (unused), out of RECOVERY_CODE_COUNT; null when two-factor is off. */
  async recoveryCodesLeft(userId: string): Promise<number | null> {
    const user = await this.users.getById(userId);
    if (!user.totpEnabledAt) return null;
    return this.repo.countUnusedRecoveryCodes(userId);
  }

  /**
   * A new set of recovery codes, proven by a current code of the app (not a recovery code: a set
   * that leaked must not renew itself); the old codes, used or not, stop working.
   */
  async renewRecoveryCodes(userId: string, code: string): Promise<string[]> {
    return this.repo.transaction(async (m) => {
      const user = await this.lockUser(m, userId);
      if (!user.totpEnabledAt) throw new ConflictError('Two-factor authentication is not on.');
      if (!(await this.verifyLocked(m, user, { code }))) throw AuthException.invalidCode();
      const codes = newRecoveryCodes();
      await this.repo.replaceRecoveryCodes(
        m,
        userId,
        codes.map((c) => recoveryCodeHash(this.recoveryKey, c)),
      );
      return codes;
    });
  }

  /** For the second step of a sign-in: whether `proof` is good for this account (and spends it). */
  async verify(userId: string, proof: SecondFactor): Promise<boolean> {
    return this.repo.transaction(async (m) => this.verifyLocked(m, await this.lockUser(m, userId), proof));
  }

  /** Ends two-factor without a code: an admin's reset for a person who lost every factor is not built; used when an account's email is taken back. */
  async reset(m: EntityManager, userId: string): Promise<void> {
    await this.users.update(userId, { totpSecret: null, totpEnabledAt: null, totpLastStep: null }, m);
    await this.repo.deleteRecoveryCodes(m, userId);
  }

  private async verifyLocked(m: EntityManager, user: UserEntity, proof: SecondFactor): Promise<boolean> {
    if (!user.totpEnabledAt || !user.totpSecret) return false;
    if (proof.code) {
      const step = totpStep(this.box.open(user.totpSecret), proof.code);
      if (step === null || (user.totpLastStep !== null && step <= user.totpLastStep)) return false;
      await this.users.update(user.id, { totpLastStep: step }, m);
      return true;
    }
    if (proof.recovery_code) {
      const hash = recoveryCodeHash(this.recoveryKey, proof.recovery_code);
      return this.repo.spendRecoveryCode(m, user.id, hash);
    }
    return false;
  }

  private async lockUser(m: EntityManager, userId: string): Promise<UserEntity> {
    const user = await this.users.lockById(m, userId);
    if (!user) throw new ValidationError('No such account');
    return user;
  }
}
