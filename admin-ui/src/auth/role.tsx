import { canAccess, type AccessAction, type AccessResource } from '@fitting-room/shared';
import { createContext, type ReactNode, useContext } from 'react';

/** The signed-in person's role, known once the access gate let them in. */
const RoleContext = createContext<string | null>(null);

export function RoleProvider({ role, children }: { role: string; children: ReactNode }) {
  return <RoleContext.Provider value={role}>{children}</RoleContext.Provider>;
}

export function useRole(): string | null {
  return useContext(RoleContext);
}

/**
 * Whether the signed-in person may do `action` on `resource`: the API's own policy
 * (@fitting-room/shared's access policy), evaluated synchronously to hide menu items and buttons.
 */
export function useCan(resource: AccessResource, action: AccessAction): boolean {
  return canAccess(useRole(), resource, action);
}
