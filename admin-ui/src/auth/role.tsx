import { canAccess, type AccessAction, type AccessResource } from '@fitting-room/shared';
import { createContext, type ReactNode, useContext } from 'react';

/** Who is signed in, known once the access gate let them in: their account's id and role. */
export interface Viewer {
  id: string;
  role: string;
}

const ViewerContext = createContext<Viewer | null>(null);

export function RoleProvider({ viewer, children }: { viewer: Viewer; children: ReactNode }) {
  return <ViewerContext.Provider value={viewer}>{children}</ViewerContext.Provider>;
}

export function useRole(): string | null {
  return useContext(ViewerContext)?.role ?? null;
}

/** The signed-in person's own account id (an admin cannot change their own role). */
export function useViewerId(): string | null {
  return useContext(ViewerContext)?.id ?? null;
}

/**
 * Whether the signed-in person may do `action` on `resource`: the API's own policy
 * (@fitting-room/shared's access policy), evaluated synchronously to hide menu items and buttons.
 */
export function useCan(resource: AccessResource, action: AccessAction): boolean {
  return canAccess(useRole(), resource, action);
}
