import { Box, Button, Card, Center, Heading, Stack, Text, chakra } from '@chakra-ui/react';
import { updateMe } from '@fitting-room/api-client';
import { errorMessage, unwrap } from '@fitting-room/shared/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { MAIN_CONTENT_ID } from '../../app/layout-ids';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { Wordmark } from '../../components/Wordmark';
import { APP_NAME } from '../../config/app-config';
import { meQueryKey } from '../profile/profile-queries';
import { AGE_CONFIRMATION_REQUIRED, AgeCheckbox } from './AgeCheckbox';
import { SignOutButton } from './SignOutButton';
import { useAuth } from './useAuth';

/**
 * A Google account starts without the 18+ confirmation that email sign-up asks for: it gives it
 * here, once, before it reaches the dashboard.
 */
export function AgeConfirmationPage() {
  useDocumentTitle('Confirm your age');
  const { updateUser } = useAuth();
  const queryClient = useQueryClient();
  const [confirmed, setConfirmed] = useState(false);
  const [checkboxError, setCheckboxError] = useState<string>();

  const confirm = useMutation({
    mutationFn: () => unwrap(updateMe({ body: { age_confirmed: true } })),
    onSuccess: (profile) => {
      queryClient.setQueryData(meQueryKey, profile);
      updateUser({ age_confirmed: true });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!confirmed) {
      setCheckboxError(AGE_CONFIRMATION_REQUIRED);
      return;
    }
    confirm.mutate();
  };

  return (
    <chakra.main id={MAIN_CONTENT_ID} tabIndex={-1} outline="none" minH="100dvh" bg="bg.subtle">
      <Center minH="100dvh" px="4" py="12">
        <Stack gap="8" w="full" maxW="md" align="center">
          <Wordmark />
          <Card.Root w="full">
            <Card.Body asChild gap="5">
              <form onSubmit={submit} noValidate>
                <Stack gap="2">
                  <Heading as="h1" size="2xl" fontWeight="medium">
                    Confirm your age
                  </Heading>
                  <Text color="fg.muted">{APP_NAME} is for adults only. Please confirm your age to continue.</Text>
                </Stack>
                <AgeCheckbox
                  checked={confirmed}
                  onCheckedChange={(checked) => {
                    setConfirmed(checked);
                    if (checked) setCheckboxError(undefined);
                  }}
                  error={checkboxError}
                />
                {confirm.isError ? (
                  <Box role="alert" color="fg.error" fontSize="sm">
                    {errorMessage(confirm.error)}
                  </Box>
                ) : null}
                <Stack direction={{ base: 'column', sm: 'row' }} gap="3">
                  <Button type="submit" loading={confirm.isPending} loadingText="Loading...">
                    Continue
                  </Button>
                  <SignOutButton variant="ghost" />
                </Stack>
              </form>
            </Card.Body>
          </Card.Root>
        </Stack>
      </Center>
    </chakra.main>
  );
}
