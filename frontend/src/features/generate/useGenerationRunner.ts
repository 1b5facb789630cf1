import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { useAuth, useSessionStore } from '../auth/useAuth';
import { type GenerationRequest, generationRunner, type RunnerState } from './generation-runner';

const IDLE: RunnerState = { phase: 'idle' };

/** The running generation (if any) of the signed-in user, and the actions on it. */
export function useGenerationRunner() {
  const { user } = useAuth();
  const store = useSessionStore();
  const queryClient = useQueryClient();
  const snapshot = useSyncExternalStore(generationRunner.subscribe, generationRunner.getSnapshot);
  const userId = user?.id ?? null;
  const foreign = generationRunner.owner !== null && generationRunner.owner !== userId;

  useEffect(() => {
    if (foreign) generationRunner.reset();
  }, [foreign]);

  const start = useCallback(
    (request: GenerationRequest) => {
      if (!userId) return;
      void generationRunner.start(request, { queryClient, getAccessToken: () => store.getAccessToken() }, userId);
    },
    [queryClient, store, userId],
  );
  const cancel = useCallback(() => void generationRunner.cancel(), []);
  const acknowledge = useCallback(() => generationRunner.acknowledge(), []);

  return { state: foreign ? IDLE : snapshot, start, cancel, acknowledge };
}
