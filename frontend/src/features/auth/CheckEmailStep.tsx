import { Button, Stack, Text } from '@chakra-ui/react';
import { useEffect, useRef } from 'react';
import { focusSoon } from '../../components/FormAlert';

interface CheckEmailStepProps {
  /** The API's words: "We've sent a link to <address>. ..." */
  message: string;
  onLogIn(): void;
}

/**
 * After a sign-up that signed nobody in (the address has an account already): the same words a
 * new account gets, and the way on is the mail (sign in, or choose a password). The screen does not
 * say which case it was (docs/accounts.md).
 */
export function CheckEmailStep({ message, onLogIn }: CheckEmailStepProps) {
  const textRef = useRef<HTMLParagraphElement>(null);
  // the words are the news: read out first
  useEffect(() => focusSoon(textRef), []);
  return (
    <Stack gap="5">
      <Text ref={textRef} tabIndex={-1} role="status" overflowWrap="anywhere" outline="none">
        {message}
      </Text>
      <Text color="fg.muted" fontSize="sm">
        The email tells you how to go on. Nothing arrived? Check your spam folder, or try again in a few minutes.
      </Text>
      <Button w="full" size="lg" onClick={onLogIn}>
        Go to Log in
      </Button>
    </Stack>
  );
}
