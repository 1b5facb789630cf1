import { Button, Stack, Text } from '@chakra-ui/react';
import { type EmailVerifyResponseDto, verifyEmail } from '@fitting-room/api-client';
import { errorMessage, unwrap } from '@fitting-room/shared/browser';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { paths } from '../../app/paths';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { FormAlert, focusSoon } from '../../components/FormAlert';
import { PageSpinner } from '../../components/PageSpinner';
import { useAuth } from '../auth/useAuth';
import { RESEND_RESTING_HINT, useResendVerification } from '../auth/useResendVerification';
import { meQueryKey } from '../profile/profile-queries';
import { LinkPage } from './LinkPage';

/**
 * A link works once: each token is sent once per page load, whatever mounts the page (React's
 * development double mount, a re-render, Back and Forward).
 */
const verifications = new Map<string, Promise<EmailVerifyResponseDto>>();
function verifyOnce(token: string): Promise<EmailVerifyResponseDto> {
  let pending = verifications.get(token);
  if (!pending) {
    pending = unwrap(verifyEmail({ body: { token } }));
    verifications.set(token, pending);
  }
  return pending;
}

type Outcome = { ok: true; message: string; afresh: boolean } | { ok: false; message: string };

function Resend() {
  const { resend, pending, resting, message, error } = useResendVerification();
  return (
    <Stack gap="3" align="flex-start">
      <Button onClick={resend} loading={pending} loadingText="Loading..." disabled={resting}>
        Resend confirmation link
      </Button>
      {message ? <FormAlert status="success">{message}</FormAlert> : null}
      {error ? <FormAlert>{error}</FormAlert> : null}
      {resting ? (
        <Text fontSize="sm" color="fg.muted">
          {RESEND_RESTING_HINT}
        </Text>
      ) : null}
    </Stack>
  );
}

/**
 * /verify-email?token= (the link of the verification mail): confirms the address as the page
 * loads (once), then offers the way on: the dashboard when signed in, Log in when not. A used or
 * expired link shows the server's message and, to a signed-in person still unconfirmed, Resend.
 * When the account started afresh (several sign-ups used the address: its sessions ended), the
 * page says to choose a password from the mail, and this browser's session is let go.
 */
export function VerifyEmailPage() {
  useDocumentTitle('Confirm your email address');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const { status, user, updateUser, signOut } = useAuth();
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const resultRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let live = true;
    verifyOnce(token).then(
      (answer) => live && setOutcome({ ok: true, message: answer.message, afresh: answer.starts_afresh }),
      (error: unknown) => live && setOutcome({ ok: false, message: errorMessage(error) }),
    );
    return () => {
      live = false;
    };
  }, [token]);

  useEffect(() => {
    if (outcome) focusSoon(resultRef);
  }, [outcome]);

  // Started afresh: the server ended the account's sessions; this browser forgets its own at once.
  const afresh = outcome?.ok === true && outcome.afresh;
  useEffect(() => {
    if (afresh && status === 'signed-in') void signOut().catch(() => undefined);
  }, [afresh, status, signOut]);

  // Signed in here: the banner goes at once, without waiting for the next profile load.
  const confirmedHere = outcome?.ok === true && !outcome.afresh && status === 'signed-in';
  useEffect(() => {
    if (!confirmedHere) return;
    updateUser({ email_verified: true });
    void queryClient.invalidateQueries({ queryKey: meQueryKey });
  }, [confirmedHere, updateUser, queryClient]);

  const onward =
    status === 'signed-in' ? (
      <Button asChild alignSelf="flex-start">
        <RouterLink to={paths.generations}>Continue to your dashboard</RouterLink>
      </Button>
    ) : status === 'signed-out' ? (
      <Button asChild alignSelf="flex-start">
        <RouterLink to={paths.logIn}>Log in</RouterLink>
      </Button>
    ) : null;

  return (
    <LinkPage title="Confirm your email address">
      {!outcome ? (
        <PageSpinner label="Confirming your email address" py="8" />
      ) : outcome.ok ? (
        <>
          <FormAlert ref={resultRef} status="success">
            {outcome.message}
          </FormAlert>
          {outcome.afresh ? (
            <Text color="fg.muted">Open the newest email from us, choose your password there, then log in.</Text>
          ) : (
            <>
              <Text color="fg.muted">You can now upload photos and generate looks.</Text>
              {onward}
            </>
          )}
        </>
      ) : (
        <>
          <FormAlert ref={resultRef}>{outcome.message}</FormAlert>
          {status === 'signed-in' && user && !user.email_verified ? (
            <>
              <Text color="fg.muted">
                We will send a new link to <strong>{user.email}</strong>.
              </Text>
              <Resend />
            </>
          ) : status === 'signed-out' ? (
            <Text color="fg.muted">Log in to ask for a new link.</Text>
          ) : null}
          {onward}
        </>
      )}
    </LinkPage>
  );
}
