import { resendEmailVerification } from '@fitting-room/api-client';
import { errorMessage, unwrap } from '@fitting-room/shared/browser';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';

/**
 * After a Resend, the button rests for a minute: the server mails at most 5 links an hour (and
 * answers the same either way), so quick repeats would only use them up.
 */
export const RESEND_COOLDOWN_MS = 60_000;

/** One cooldown for every Resend button of the tab (the banner and the generate panel show one each). */
let cooldownUntil = 0;
const listeners = new Set<() => void>();
const cooldown = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  resting: () => Date.now() < cooldownUntil,
  start() {
    cooldownUntil = Date.now() + RESEND_COOLDOWN_MS;
    listeners.forEach((l) => l());
    setTimeout(() => listeners.forEach((l) => l()), RESEND_COOLDOWN_MS + 50);
  },
};

export interface ResendVerification {
  resend(): void;
  pending: boolean;
  /** The button rests for a minute after a Resend. */
  resting: boolean;
  /** The server's answer ("We have sent a new confirmation link..."), once sent. */
  message: string | null;
  error: string | null;
}

/** Resend of the verification link for the signed-in person (POST /api/auth/verify-email/resend, no address). */
export function useResendVerification(): ResendVerification {
  const resting = useSyncExternalStore(cooldown.subscribe, cooldown.resting);
  const mutation = useMutation({
    mutationFn: () => unwrap(resendEmailVerification({ body: {} })),
    onSuccess: () => cooldown.start(),
  });
  // The answer is not kept past the rest: the next click gets a fresh one.
  const { reset, isSuccess } = mutation;
  useEffect(() => {
    if (isSuccess && !resting) reset();
  }, [isSuccess, resting, reset]);
  return {
    resend: () => {
      if (!mutation.isPending && !resting) mutation.mutate();
    },
    pending: mutation.isPending,
    resting,
    message: mutation.data?.message ?? null,
    error: mutation.isError ? errorMessage(mutation.error) : null,
  };
}

/** The line under a resting Resend button. */
export const RESEND_RESTING_HINT = 'You can ask for another link in a minute. We send up to 5 links an hour.';
