import type { AuthProvider } from 'react-admin';

/**
 * Placeholder until the Accounts issue: it lets everyone in and has no sign-in of its own.
 * That issue fills in the session check (admin and support roles only, anyone else sent to /),
 * the identity and `canAccess`.
 */
export const authProvider: AuthProvider = {
  login: () => Promise.reject(new Error('Sign in from the main site.')),
  logout: () => Promise.resolve(false),
  checkAuth: () => Promise.resolve(),
  checkError: () => Promise.resolve(),
  getPermissions: () => Promise.resolve(undefined),
};
