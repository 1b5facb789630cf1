import { getMySettings, type SettingsResponseDto, updateMySettings } from '@fitting-room/api-client';
import { unwrap } from '@fitting-room/shared/browser';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

export type NotificationSettings = SettingsResponseDto;

export const settingsQueryKey = ['me', 'settings'] as const;

/** The signed-in user's notification preferences (GET /api/me/settings). */
export const settingsQueryOptions = queryOptions({
  queryKey: settingsQueryKey,
  queryFn: ({ signal }) => unwrap(getMySettings({ signal })),
});

/** PUT /api/me/settings: saves the whole set. */
export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: NotificationSettings) => unwrap(updateMySettings({ body: settings })),
    onSuccess: (saved) => queryClient.setQueryData(settingsQueryKey, saved),
    onSettled: () => queryClient.invalidateQueries({ queryKey: settingsQueryKey }),
  });
}
