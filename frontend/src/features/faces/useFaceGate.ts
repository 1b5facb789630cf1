import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { faceStepFor } from './face-errors';
import { type FaceStatus, faceStatusQueryKey, facesApi } from './faces-api';

export interface FaceGate {
  status: FaceStatus | undefined;
  consentOpen: boolean;
  selfieOpen: boolean;
  /**
   * Before the photos are sent: the consent to the face checks, asked once (a dialog with the
   * sentence). Resolves true when the checks are off, agreed already, or just agreed; false when the
   * person says not now. When the status cannot be read, the server decides (and asks).
   */
  ensureConsent(): Promise<boolean>;
  /** A refusal of the API: FACE_SELFIE_REQUIRED opens the live selfie, FACE_CONSENT_REQUIRED the consent; `retry` runs after either succeeds. */
  onRefused(code: string | undefined, retry: () => void): void;
  closeConsent(agreed: boolean): void;
  closeSelfie(verified: boolean): void;
}

/** "Only you" in the generate panel: the consent and the live selfie, each when the API needs it. */
export function useFaceGate(enabled = true): FaceGate {
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: faceStatusQueryKey,
    queryFn: ({ signal }) => facesApi.status(signal),
    enabled,
    staleTime: 60_000,
  });
  const [consentOpen, setConsentOpen] = useState(false);
  const [selfieOpen, setSelfieOpen] = useState(false);
  const consentAnswer = useRef<((agreed: boolean) => void) | null>(null);
  const afterSelfie = useRef<(() => void) | null>(null);

  const askConsent = useCallback(() => {
    consentAnswer.current?.(false);
    setConsentOpen(true);
    return new Promise<boolean>((resolve) => {
      consentAnswer.current = resolve;
    });
  }, []);

  const ensureConsent = useCallback(async () => {
    const current =
      status.data ??
      (await queryClient.fetchQuery({ queryKey: faceStatusQueryKey, queryFn: ({ signal }) => facesApi.status(signal) }).catch(() => null));
    if (!current || !current.checks || current.consented) return true;
    return askConsent();
  }, [askConsent, queryClient, status.data]);

  const onRefused = useCallback(
    (code: string | undefined, retry: () => void) => {
      const step = faceStepFor(code);
      if (step === 'selfie') {
        afterSelfie.current = retry;
        setSelfieOpen(true);
      } else if (step === 'consent') {
        void queryClient.invalidateQueries({ queryKey: faceStatusQueryKey });
        void askConsent().then((agreed) => agreed && retry());
      }
    },
    [askConsent, queryClient],
  );

  const closeConsent = useCallback((agreed: boolean) => {
    setConsentOpen(false);
    consentAnswer.current?.(agreed);
    consentAnswer.current = null;
  }, []);

  const closeSelfie = useCallback(
    (verified: boolean) => {
      setSelfieOpen(false);
      const retry = afterSelfie.current;
      afterSelfie.current = null;
      if (verified) {
        void queryClient.invalidateQueries({ queryKey: faceStatusQueryKey });
        retry?.();
      }
    },
    [queryClient],
  );

  return { status: status.data, consentOpen, selfieOpen, ensureConsent, onRefused, closeConsent, closeSelfie };
}
