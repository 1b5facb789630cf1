import {
  Box,
  Button,
  Checkbox,
  chakra,
  CloseButton,
  Dialog,
  HStack,
  Image,
  Input,
  List,
  Portal,
  SimpleGrid,
  Stack,
  Text,
} from '@chakra-ui/react';
import { enableMyTwoFactor, setUpMyTwoFactor } from '@fitting-room/api-client';
import { errorMessage, unwrap } from '@fitting-room/shared/browser';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { FormAlert, focusSoon } from '../../components/FormAlert';
import { FormField } from '../../components/FormField';
import { PageSpinner } from '../../components/PageSpinner';
import { notify } from '../../components/toaster';
import { useOutsideDismissGuard } from '../../components/useOutsideDismissGuard';
import { APP_NAME } from '../../config/app-config';
import { useAuth } from '../auth/useAuth';
import { copyText, useSecurityChanged } from './security-queries';
import type { SettingsDialogProps } from './ChangePasswordDialog';

/** The setup key in groups of four, as authenticator apps show and accept it. */
export function groupSecret(secret: string): string {
  return secret.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');
}

/** "Fitting Room" -> "fitting-room-recovery-codes.txt". */
function recoveryFileName(): string {
  const slug =
    APP_NAME.toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'account';
  return `${slug}-recovery-codes.txt`;
}

function saveTextFile(name: string, text: string): void {
  const href = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}

/** A button that copies, then says so for a moment. */
function CopyButton({ text, label, copiedLabel = 'Copied' }: { text: string; label: string; copiedLabel?: string }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  useEffect(() => {
    if (copied === null) return;
    const timer = setTimeout(() => setCopied(null), 2500);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <>
      <Button size="sm" variant="outline" onClick={() => void copyText(text).then(setCopied)}>
        {copied ? copiedLabel : label}
      </Button>
      <chakra.span srOnly aria-live="polite">
        {copied === true ? copiedLabel : copied === false ? 'Copying is not allowed here: select the text instead.' : ''}
      </chakra.span>
    </>
  );
}

/** Step 1: the app learns the secret (QR code, or the key typed by hand) and proves it with a code. */
function ScanStep({ onEnabled }: { onEnabled(codes: string[]): void }) {
  const keyId = useId();
  const codeRef = useRef<HTMLInputElement>(null);
  const errorRef = useRef<HTMLDivElement>(null);
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string>();
  const setup = useMutation({ mutationFn: () => unwrap(setUpMyTwoFactor()) });
  const enable = useMutation({
    mutationFn: (typed: string) => unwrap(enableMyTwoFactor({ body: { code: typed } })),
    onSuccess: (answer) => onEnabled(answer.recovery_codes),
    onError: () => {
      setCode('');
      focusSoon(errorRef);
    },
  });

  // One secret per opening: a second setup call would replace the one on screen (the effect runs
  // twice under React's development double mount, the ref survives it).
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    setup.mutate();
  }, [setup]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (enable.isPending) return;
    const typed = code.replace(/\s+/g, '');
    const error = /^\d{6}$/.test(typed) ? undefined : 'Please enter the 6-digit code';
    setFieldError(error);
    if (error) {
      codeRef.current?.focus();
      return;
    }
    enable.mutate(typed);
  };

  if (setup.isPending || setup.isIdle) return <PageSpinner label="Preparing your setup key" py="10" />;
  if (setup.isError) {
    return (
      <Stack gap="4" align="flex-start">
        <FormAlert>{errorMessage(setup.error)}</FormAlert>
        <Button variant="outline" onClick={() => setup.mutate()}>
          Try again
        </Button>
      </Stack>
    );
  }

  const { qr_code: qrCode, secret } = setup.data;
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="5">
        <List.Root as="ol" ps="5" gap="1" color="fg.muted" fontSize="sm">
          <List.Item>Open an authenticator app on your phone (Google Authenticator, 1Password, Authy, ...).</List.Item>
          <List.Item>Scan the QR code, or type the setup key.</List.Item>
          <List.Item>Enter the 6-digit code the app shows.</List.Item>
        </List.Root>
        <Stack direction={{ base: 'column', sm: 'row' }} gap="5" align={{ base: 'center', sm: 'flex-start' }}>
          <Image
            src={qrCode}
            alt={`QR code for your authenticator app: it adds your ${APP_NAME} account. The setup key beside it does the same.`}
            boxSize="44"
            flexShrink="0"
            borderWidth="1px"
            borderColor="border"
            borderRadius="md"
            bg="white"
            p="2"
          />
          <Stack gap="2" minW="0" w="full">
            <Text id={keyId} fontSize="sm" fontWeight="medium">
              Setup key
            </Text>
            <Box
              as="code"
              aria-labelledby={keyId}
              data-setup-key=""
              fontFamily="mono"
              fontSize="md"
              letterSpacing="wide"
              bg="bg.muted"
              px="3"
              py="2"
              borderRadius="md"
              overflowWrap="anywhere"
              userSelect="all"
            >
              {groupSecret(secret)}
            </Box>
            <HStack>
              <CopyButton text={secret} label="Copy key" />
            </HStack>
          </Stack>
        </Stack>
        <FormField label="6-digit code from the app" required error={fieldError}>
          <Input
            ref={codeRef}
            name="code"
            autoComplete="one-time-code"
            inputMode="numeric"
            pattern="[0-9 ]*"
            maxLength={7}
            fontFamily="mono"
            letterSpacing="widest"
            value={code}
            onChange={(event) => {
              setCode(event.target.value);
              if (fieldError) setFieldError(undefined);
            }}
          />
        </FormField>
        {enable.isError ? <FormAlert ref={errorRef}>{errorMessage(enable.error)}</FormAlert> : null}
        <Button type="submit" alignSelf="flex-end" loading={enable.isPending} loadingText="Loading...">
          Turn on
        </Button>
      </Stack>
    </form>
  );
}

/** Step 2: the ten recovery codes, shown this once: copy, download, and say they are saved (also after a renewal). */
export function RecoveryCodesStep({ codes, onDone, renewed = false }: { codes: string[]; onDone(): void; renewed?: boolean }) {
  const { user } = useAuth();
  const [saved, setSaved] = useState(false);
  const headingRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => focusSoon(headingRef), []);
  const text = [
    `${APP_NAME} recovery codes${user ? ` for ${user.email}` : ''}`,
    `Saved ${new Date().toISOString().slice(0, 10)}. Each code signs you in once, without the authenticator app.`,
    '',
    ...codes,
    '',
  ].join('\n');

  return (
    <Stack gap="5">
      <Text ref={headingRef} tabIndex={-1} outline="none" fontWeight="medium">
        {renewed ? 'Your new recovery codes: the old ones no longer work.' : 'Two-factor authentication is on.'} Save these recovery codes
        somewhere safe: each one signs you in once if you lose your phone. They are shown only this once.
      </Text>
      <SimpleGrid
        as="ul"
        aria-label="Recovery codes"
        listStyle="none"
        columns={2}
        gapX="6"
        gapY="1.5"
        p="4"
        bg="bg.muted"
        borderRadius="md"
        fontFamily="mono"
        fontSize="md"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </SimpleGrid>
      <HStack gap="3" wrap="wrap">
        <CopyButton text={codes.join('\n')} label="Copy all" />
        <Button size="sm" variant="outline" onClick={() => saveTextFile(recoveryFileName(), text)}>
          Download .txt
        </Button>
      </HStack>
      <Checkbox.Root checked={saved} onCheckedChange={(details) => setSaved(details.checked === true)} alignItems="flex-start">
        <Checkbox.HiddenInput />
        <Checkbox.Control mt="0.5" />
        <Checkbox.Label fontWeight="normal">I have saved my recovery codes</Checkbox.Label>
      </Checkbox.Root>
      <Button alignSelf="flex-end" disabled={!saved} onClick={onDone}>
        Done
      </Button>
    </Stack>
  );
}

/**
 * "Turn on two-factor authentication": a new secret (QR code and setup key), a first code from the
 * app, then the recovery codes, which the person confirms having saved before the dialog closes.
 */
export default function TwoFactorSetupDialog({ open, onClose, returnFocusTo }: SettingsDialogProps) {
  const dismissGuard = useOutsideDismissGuard();
  const securityChanged = useSecurityChanged();
  const [codes, setCodes] = useState<string[] | null>(null);
  // The codes are shown once: until they are saved the dialog closes only through Done.
  const holding = codes !== null;

  // (Each opening is a fresh instance: the codes go with this one.)
  const finish = () => {
    onClose();
    notify.success({ title: 'Two-factor authentication is on' });
  };

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => {
        if (!details.open && !holding) onClose();
      }}
      onInteractOutside={dismissGuard.onInteractOutside}
      closeOnEscape={!holding}
      closeOnInteractOutside={!holding}
      finalFocusEl={() => returnFocusTo.current}
      placement="center"
      size="md"
      lazyMount
      unmountOnExit
      scrollBehavior="inside"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content ref={dismissGuard.contentRef}>
            <Dialog.Header flexDirection="column" alignItems="flex-start" gap="1" pe="14">
              <Dialog.Title fontFamily="heading" fontWeight="medium" fontSize="xl">
                {holding ? 'Save your recovery codes' : 'Turn on two-factor authentication'}
              </Dialog.Title>
              <Dialog.Description color="fg.muted">
                {holding
                  ? 'Keep them apart from your phone: in a password manager, or printed.'
                  : 'Signing in will also ask for a code from an app on your phone.'}
              </Dialog.Description>
            </Dialog.Header>
            <Dialog.Body pb="6">
              {codes ? (
                <RecoveryCodesStep codes={codes} onDone={finish} />
              ) : (
                <ScanStep
                  onEnabled={(recoveryCodes) => {
                    setCodes(recoveryCodes);
                    securityChanged({ two_factor_enabled: true });
                  }}
                />
              )}
            </Dialog.Body>
            {holding ? null : (
              <Dialog.CloseTrigger asChild>
                <CloseButton size="sm" aria-label="Close" />
              </Dialog.CloseTrigger>
            )}
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
