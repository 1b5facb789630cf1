import type { ProfileRow } from './profile-row';
import type { AccessRole, Tier } from '@fitting-room/shared';

/** The caller, as the global AuthGuard found it from the bearer token (request.user). */
export interface AuthUser {
  id: string;
  role: AccessRole;
  /** the subscription tier, read with the session on every request */
  tier: Tier;
  /** the session the access token belongs to ('' for a personal API token: routes that read it take no token) */
  sessionId: string;
  /** the personal API token the caller came with (docs/api.md), when not a session's access token */
  apiTokenId?: string;
  /** read with the session on every request, like the role */
  emailVerified?: boolean;
  ageConfirmed?: boolean;
  twoFactorEnabled?: boolean;
  /** read with the session: changes whenever the account's completed generations change */
  generationsVersion?: string;
  /**
   * The caller's whole profile with its credit balances, read in the same statement as the session:
   * only on a route marked @ReadsProfile() (GET /api/me), which then needs no query of its own.
   */
  profile?: ProfileRow;
}

export type RequestWithUser = { user?: AuthUser };
