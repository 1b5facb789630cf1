/**
 * Who may do what in the console: the one pure rule that the API's guard and the react-admin
 * console (admin-ui imports this file) both apply. It depends on nothing so that both builds can
 * compile it.
 *
 * - admin: everything (the catalogue's templates and scenes, payments and revenue, Stripe's events included).
 * - support: the support desk (tickets: list, show, edit, reply) and a read-only user lookup.
 * - user: nothing in the console.
 */
export const ACCESS_ROLES = ['user', 'support', 'admin'] as const;
export type AccessRole = (typeof ACCESS_ROLES)[number];

export const ACCESS_RESOURCES = [
  'dashboard',
  'users',
  'user-credits',
  'user-tier',
  /** a user's staff role (user, support, admin): admins only */
  'user-role',
  'user-suspension',
  /** a user's personal API tokens: listed and revoked from the user's page */
  'user-api-tokens',
  'generations',
  'notifications',
  'support-inquiries',
  'audit-log',
  'queues',
  'outbox',
  'announcements',
  'templates',
  'scenes',
  'payments',
  /** Stripe's webhook events as received: failed ones are replayed from the console */
  'stripe-events',
] as const;
export type AccessResource = (typeof ACCESS_RESOURCES)[number];

export const ACCESS_ACTIONS = ['list', 'show', 'create', 'edit', 'delete'] as const;
export type AccessAction = (typeof ACCESS_ACTIONS)[number];

type Grants = Partial<Record<AccessResource, readonly AccessAction[]>>;

const GRANTS: Record<AccessRole, Grants | 'all'> = {
  admin: 'all',
  support: {
    'support-inquiries': ['list', 'show', 'create', 'edit'],
    users: ['list', 'show'],
  },
  user: {},
};

/** True when `role` may perform `action` on `resource`. Unknown roles, resources or actions: false. */
export function canAccess(role: string | null | undefined, resource: string, action: string): boolean {
  if (!role || !(ACCESS_ROLES as readonly string[]).includes(role)) return false;
  if (!(ACCESS_RESOURCES as readonly string[]).includes(resource)) return false;
  if (!(ACCESS_ACTIONS as readonly string[]).includes(action)) return false;
  const grants = GRANTS[role as AccessRole];
  if (grants === 'all') return true;
  const actions = grants[resource as AccessResource] ?? [];
  return actions.includes(action as AccessAction);
}

/** The roles that may perform `action` on `resource` (for route guards and their documentation). */
export function rolesFor(resource: AccessResource, action: AccessAction): AccessRole[] {
  return ACCESS_ROLES.filter((role) => canAccess(role, resource, action));
}

/** What each role is called in the console, and what it gives (shown where an admin sets a role). */
export const ROLE_LABELS: Record<AccessRole, string> = { user: 'User', support: 'Support', admin: 'Admin' };
export const ROLE_DESCRIPTIONS: Record<AccessRole, string> = {
  user: 'No console: the user app only.',
  support: "The console's tickets and a read-only user lookup.",
  admin: 'The whole console: users, credits, tiers and roles, generations, the catalogue, payments and the audit trail.',
};

/** The API's refusals of a role change (the console says the first one before anyone tries). */
export const ROLE_CHANGE_MESSAGES = {
  ownRole: 'You cannot remove your own admin role.',
  lastAdmin: 'The last admin cannot lose the admin role.',
  listedAdmin: 'ADMIN_EMAILS lists this address: it would be an admin again at its next sign-in. Take it off ADMIN_EMAILS first.',
} as const;

/** Whether a role may open the console at all (it may see at least one resource). */
export function canUseConsole(role: string | null | undefined): boolean {
  return ACCESS_RESOURCES.some((resource) => canAccess(role, resource, 'list'));
}
