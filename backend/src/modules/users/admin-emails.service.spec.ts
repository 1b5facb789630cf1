import { AdminEmailsService } from './admin-emails.service';
import type { UsersService } from './users.service';

describe('AdminEmailsService (ADMIN_EMAILS at start)', () => {
  const users = () => ({ promoteListedAdmins: jest.fn(async () => 1), demoteUnlistedAdmins: jest.fn(async () => ['gone@example.com']) });

  it('in the API: promotes the listed accounts, then demotes the list-made admins no longer listed', async () => {
    const u = users();
    await new AdminEmailsService(u as unknown as UsersService, 'api').onApplicationBootstrap();
    expect(u.promoteListedAdmins).toHaveBeenCalledTimes(1);
    expect(u.demoteUnlistedAdmins).toHaveBeenCalledTimes(1);
  });

  it("in a worker: changes no one (a worker started with another environment must not undo the API's list)", async () => {
    const u = users();
    await new AdminEmailsService(u as unknown as UsersService, 'worker').onApplicationBootstrap();
    expect(u.promoteListedAdmins).not.toHaveBeenCalled();
    expect(u.demoteUnlistedAdmins).not.toHaveBeenCalled();
  });
});
