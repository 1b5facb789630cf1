import { getMe, type ProfileResponseDto, updateMe } from '@fitting-room/api-client';
import { unwrap } from '@fitting-room/shared/browser';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useAuth } from '../auth/useAuth';

export const meQueryKey = ['me'] as const;

/** The signed-in user's profile, tier and credits (GET /api/me). */
export const meQueryOptions = queryOptions({
  queryKey: meQueryKey,
  queryFn: ({ signal }) => unwrap(getMe({ signal })),
});

export interface ProfileChanges {
  full_name: string;
}

/** PATCH /api/me: the profile as saved replaces the cached one, and the session's copy of the name. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  const { updateUser } = useAuth();
  return useMutation({
    mutationFn: (changes: ProfileChanges) => unwrap(updateMe({ body: changes })),
    onSuccess: (profile: ProfileResponseDto) => {
      queryClient.setQueryData(meQueryKey, profile);
      updateUser({ full_name: profile.full_name });
    },
    // exact: ['me', 'settings'] and the like are not affected by a profile change.
    onSettled: () => queryClient.invalidateQueries({ queryKey: meQueryKey, exact: true }),
  });
}
