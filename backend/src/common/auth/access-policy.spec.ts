import { ACCESS_ACTIONS, ACCESS_RESOURCES, canAccess, canUseConsole, rolesFor } from './access-policy';

describe('canAccess: who may do what in the console', () => {
  it('lets an admin do everything', () => {
    for (const resource of ACCESS_RESOURCES) {
      for (const action of ACCESS_ACTIONS)
        expect({ resource, action, ok: canAccess('admin', resource, action) }).toEqual({ resource, action, ok: true });
    }
  });

  it('gives support the desk and a read-only user lookup, nothing else', () => {
    const granted = ACCESS_RESOURCES.flatMap((resource) =>
      ACCESS_ACTIONS.filter((action) => canAccess('support', resource, action)).map((action) => `${resource}:${action}`),
    );
    expect(granted.sort()).toEqual(
      [
        'support-inquiries:list',
        'support-inquiries:show',
        'support-inquiries:create',
        'support-inquiries:edit',
        'users:list',
        'users:show',
      ].sort(),
    );
    // in particular: no credit adjustment, no tier change, no audit trail, no dashboard
    expect(canAccess('support', 'user-credits', 'create')).toBe(false);
    expect(canAccess('support', 'user-tier', 'edit')).toBe(false);
    expect(canAccess('support', 'user-role', 'edit')).toBe(false);
    expect(canAccess('support', 'users', 'edit')).toBe(false);
    expect(canAccess('support', 'audit-log', 'list')).toBe(false);
    expect(canAccess('support', 'dashboard', 'list')).toBe(false);
  });

  it('gives a plain user nothing', () => {
    for (const resource of ACCESS_RESOURCES) {
      for (const action of ACCESS_ACTIONS) expect(canAccess('user', resource, action)).toBe(false);
    }
  });

  it.each([
    [undefined, 'users', 'list'],
    [null, 'users', 'list'],
    ['', 'users', 'list'],
    ['superadmin', 'users', 'list'],
    ['ADMIN', 'users', 'list'],
    ['admin', 'secrets', 'list'],
    ['admin', 'users', 'export'],
    ['admin', '__proto__', 'list'],
    ['support', 'users', 'constructor'],
  ])('refuses unknown role/resource/action (%p, %p, %p)', (role, resource, action) => {
    expect(canAccess(role, resource, action)).toBe(false);
  });

  it("derives the routes' roles from the same rule", () => {
    expect(rolesFor('users', 'list')).toEqual(['support', 'admin']);
    expect(rolesFor('user-credits', 'create')).toEqual(['admin']);
    expect(rolesFor('user-role', 'edit')).toEqual(['admin']);
    expect(rolesFor('queues', 'list')).toEqual(['admin']);
    expect(rolesFor('support-inquiries', 'edit')).toEqual(['support', 'admin']);
  });

  it('opens the console to admin and support only', () => {
    expect([canUseConsole('admin'), canUseConsole('support'), canUseConsole('user'), canUseConsole(undefined)]).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });
});
