import { Inject, Injectable, Logger, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { PROCESS_ROLE, type ProcessRole } from '../../common/process-role';
import { UsersService } from './users.service';

/**
 * ADMIN_EMAILS at boot: accounts that already exist with a listed email become admins. Accounts made
 * later (email sign-up, Google) are promoted when they are created or sign in (UsersService).
 * Taking an email off the list demotes that account at the next start, if the list made it an admin
 * (an admin made by `npm run admin:create` stays one). Only the API process does this.
 */
@Injectable()
export class AdminEmailsService implements OnApplicationBootstrap {
  private readonly logger = new Logger('AdminEmails');

  constructor(
    private readonly users: UsersService,
    @Optional() @Inject(PROCESS_ROLE) private readonly role?: ProcessRole,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // The API's list decides: a worker started with another environment must not undo it.
    if (this.role === 'worker') return;
    const promoted = await this.users.promoteListedAdmins();
    if (promoted > 0) this.logger.log(`Promoted ${promoted} account(s) listed in ADMIN_EMAILS to admin`);
    const demoted = await this.users.demoteUnlistedAdmins();
    // a count, never the addresses: logs carry no personal data
    if (demoted.length > 0) this.logger.warn(`Demoted ${demoted.length} admin(s) no longer listed in ADMIN_EMAILS`);
  }
}
