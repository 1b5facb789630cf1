import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { generatePassword, UsersService } from './users.service';

export const FIRST_ADMIN_EMAIL = 'admin@localhost';

/** The first admin's credentials, for the launcher to show once. */
export interface FirstAdminCredentials {
  email: string;
  password: string;
}

/**
 * In embedded mode (`npm start` without DATABASE_URL), the first start creates an admin account.
 * Its generated password is kept in memory only until the launcher takes it (`takeCreated`) and
 * prints it last, after the "running" lines, where it does not scroll away under the start-up logs
 * (cli/start.ts). Never in production: there `npm run admin:create` does it.
 */
@Injectable()
export class FirstAdminService implements OnApplicationBootstrap {
  private readonly logger = new Logger('FirstAdmin');
  private created: FirstAdminCredentials | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly users: UsersService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.embedded || this.config.isProduction) return;
    if ((await this.users.countAdmins()) > 0) return;
    const password = generatePassword();
    await this.users.upsertAdmin(FIRST_ADMIN_EMAIL, password);
    // The password is stored only as an argon2id hash: this copy is the one the launcher shows.
    this.created = { email: FIRST_ADMIN_EMAIL, password };
    this.logger.log(`Created the first admin account ${FIRST_ADMIN_EMAIL} (its password is shown once the app is running)`);
  }

  /** The account this start created, once: later calls (and starts that created none) answer null. */
  takeCreated(): FirstAdminCredentials | null {
    const created = this.created;
    this.created = null;
    return created;
  }
}
