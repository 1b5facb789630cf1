import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { generatePassword, UsersService } from './users.service';

export const FIRST_ADMIN_EMAIL = 'admin@localhost';

/**
 * In embedded mode (`npm start` without DATABASE_URL), the first start creates an admin account and
 * prints its credentials once. Never in production: there `npm run admin:create` does it.
 */
@Injectable()
export class FirstAdminService implements OnApplicationBootstrap {
  private readonly logger = new Logger('FirstAdmin');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly users: UsersService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.embedded || this.config.isProduction) return;
    if ((await this.users.countAdmins()) > 0) return;
    const password = generatePassword();
    await this.users.upsertAdmin(FIRST_ADMIN_EMAIL, password);
    const line = '='.repeat(64);
    // Printed straight to stdout, once: the password is stored only as an argon2id hash.
    process.stdout.write(
      `\n${line}\n  Admin account created (shown once, keep it safe):\n    email:    ${FIRST_ADMIN_EMAIL}\n    password: ${password}\n  Console: ${this.config.appUrl}/admin\n${line}\n\n`,
    );
    this.logger.log(`Created the first admin account ${FIRST_ADMIN_EMAIL}`);
  }
}
