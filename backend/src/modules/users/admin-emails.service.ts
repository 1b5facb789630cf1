import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { UsersService } from './users.service';

/**
 * ADMIN_EMAILS at boot: accounts that already exist with a listed email become admins. Accounts made
 * later (email sign-up, Google) are promoted when they are created or sign in (UsersService).
 * Removing an email from the list does not demote anyone: use the console for that.
 */
@Injectable()
export class AdminEmailsService implements OnApplicationBootstrap {
  private readonly logger = new Logger('AdminEmails');

  constructor(private readonly users: UsersService) {}

  async onApplicationBootstrap(): Promise<void> {
    const promoted = await this.users.promoteListedAdmins();
    if (promoted > 0) this.logger.log(`Promoted ${promoted} account(s) listed in ADMIN_EMAILS to admin`);
  }
}
