import type { UserRole, UserTier } from '../../modules/users/user.entity';
import type { ProfileRow } from '../../modules/users/users.repository';

/** The caller, as the global AuthGuard found it from the bearer token (request.user). */
export interface AuthUser {
  id: string;
  role: UserRole;
  /** the subscription tier, read with the session on every request */
  tier: UserTier;
  /** the session the access token belongs to */
  sessionId: string;
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
