import { getMyRecoveryCodes } from '@fitting-room/api-client';
import { unwrap } from '@fitting-room/shared/browser';
import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useAuth } from '../auth/useAuth';
import { meQueryKey } from '../profile/profile-queries';
import type { ProfileResponseDto } from '@fitting-room/api-client';

type SecurityFields = Partial<Pick<ProfileResponseDto, 'two_factor_enabled' | 'has_password'>>;

/** After a security change: the cached profile and the session's copy of the person agree with the server. */
export function useSecurityChanged(): (patch: SecurityFields) => void {
  const queryClient = useQueryClient();
  const { updateUser } = useAuth();
  return useCallback(
    (patch: SecurityFields) => {
      queryClient.setQueryData<ProfileResponseDto>(meQueryKey, (current) => (current ? { ...current, ...patch } : current));
      updateUser(patch);
      void queryClient.invalidateQueries({ queryKey: meQueryKey, exact: true });
    },
    [queryClient, updateUser],
  );
}

/** Copies text to the clipboard; false when the browser refuses (then the person selects it by hand). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export const recoveryCodesQueryKey = ['me', '2fa', 'recovery-codes'] as const;

/** How many recovery codes are left (GET /api/me/2fa/recovery-codes); read while two-factor is on. */
export const recoveryCodesQueryOptions = queryOptions({
  queryKey: recoveryCodesQueryKey,
  queryFn: ({ signal }) => unwrap(getMyRecoveryCodes({ signal })),
});
