import { Alert, Button, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import { FormAlert } from '../../components/FormAlert';
import { useAuth } from '../auth/useAuth';
import { RESEND_RESTING_HINT, useResendVerification } from '../auth/useResendVerification';
import { meQueryOptions } from '../profile/profile-queries';

/** Why uploading and generating wait: the banner's and the generate panel's words. */
export const VERIFY_FIRST = 'Confirm your email address to upload photos and generate.';

/**
 * The signed-in person's address is not confirmed yet: checks again whenever the window regains
 * the focus (the link is often opened in another tab, or on the phone), and tells the session.
 */
export function useEmailVerified(): boolean {
  const { user, updateUser } = useAuth();
  const verified = user?.email_verified ?? true;
  // 'always': back on this tab (visibilitychange) the profile is read again, however fresh
  const { data: me, refetch } = useQuery({ ...meQueryOptions, enabled: !verified, refetchOnWindowFocus: 'always' });
  useEffect(() => {
    if (!verified && me?.email_verified) updateUser({ email_verified: true });
  }, [verified, me?.email_verified, updateUser]);
  // ... and back on this window (another window had the focus: the tab stayed visible meanwhile)
  useEffect(() => {
    if (verified) return;
    const onFocus = () => void refetch();
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [verified, refetch]);
  return verified;
}

/** Resend, with the server's answer, and the minute's rest after a click. */
export function ResendLink({ size = 'sm' }: { size?: 'sm' | 'md' }) {
  const { resend, pending, resting, message, error } = useResendVerification();
  return (
    <Stack gap="2" align="flex-start">
      <Button size={size} variant="outline" bg="bg.panel" onClick={resend} loading={pending} loadingText="Loading..." disabled={resting}>
        Resend link
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
 * Above every dashboard screen while the address is unconfirmed (uploads and generations wait for
 * it): where the link went, and Resend. It goes as soon as the address is confirmed.
 */
export function VerifyEmailBanner() {
  const { user } = useAuth();
  const verified = useEmailVerified();
  const titleId = useId();
  if (verified || !user) return null;
  return (
    <Alert.Root status="warning" role="region" aria-labelledby={titleId} mb={{ base: '6', md: '8' }} alignItems="flex-start">
      <Alert.Indicator mt="0.5" />
      <Stack gap="3" flex="1" minW="0">
        <Alert.Content>
          <Alert.Title id={titleId} fontWeight="semibold">
            {VERIFY_FIRST}
          </Alert.Title>
          <Alert.Description overflowWrap="anywhere">
            We sent a link to <strong>{user.email}</strong>.
          </Alert.Description>
        </Alert.Content>
        <ResendLink />
      </Stack>
    </Alert.Root>
  );
}
