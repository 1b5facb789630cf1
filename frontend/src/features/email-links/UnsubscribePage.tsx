import { Button, Link, Text } from '@chakra-ui/react';
import { unsubscribeFromMail } from '@fitting-room/api-client';
import { errorMessage, unwrap } from '@fitting-room/shared/browser';
import { useMutation } from '@tanstack/react-query';
import { useRef } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { paths } from '../../app/paths';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { FormAlert, focusSoon } from '../../components/FormAlert';
import { LinkPage } from './LinkPage';

function SettingsLink() {
  return (
    <Text color="fg.muted">
      Choose which emails you get in your{' '}
      <Link asChild colorPalette="brand" variant="underline">
        <RouterLink to={paths.settings}>email settings</RouterLink>
      </Link>
      .
    </Text>
  );
}

/**
 * /unsubscribe?token= (the unsubscribe link of a mail). Opening it changes nothing (mail scanners
 * open links too): the Unsubscribe button sends the token, and the server's answer says what
 * was turned off.
 */
export function UnsubscribePage() {
  useDocumentTitle('Unsubscribe');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const resultRef = useRef<HTMLDivElement>(null);
  const unsubscribe = useMutation({
    mutationFn: () => unwrap(unsubscribeFromMail({ body: { token } })),
    onSettled: () => focusSoon(resultRef),
  });

  return (
    <LinkPage title="Unsubscribe">
      {unsubscribe.isSuccess ? (
        <FormAlert ref={resultRef} status="success">
          {unsubscribe.data.message}
        </FormAlert>
      ) : (
        <>
          <Text>Stop getting this kind of email from us? Press Unsubscribe to confirm.</Text>
          {unsubscribe.isError ? <FormAlert ref={resultRef}>{errorMessage(unsubscribe.error)}</FormAlert> : null}
          <Button alignSelf="flex-start" onClick={() => unsubscribe.mutate()} loading={unsubscribe.isPending} loadingText="Loading...">
            Unsubscribe
          </Button>
        </>
      )}
      <SettingsLink />
    </LinkPage>
  );
}
