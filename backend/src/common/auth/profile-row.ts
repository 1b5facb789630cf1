import type { AccessRole, Tier } from '@fitting-room/shared';

/** The facts of GET /api/me: the account's own columns and its credit account (null columns without one). */
export interface ProfileRow {
  id: string;
  email: string;
  full_name: string;
  tier: Tier;
  role: AccessRole;
  age_confirmed: boolean;
  email_verified: boolean;
  two_factor_enabled: boolean;
  has_password: boolean;
  created_at: Date;
  subscription_balance: number | null;
  purchased_balance: number | null;
  held: number | null;
}
