import { Badge, Button, HStack, Stack, StackSeparator, Text } from '@chakra-ui/react';
import { requestPasswordReset } from '@fitting-room/api-client';
import { errorMessage, unwrap } from '@fitting-room/shared/browser';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type ComponentType, lazy, type ReactNode, type RefObject, Suspense, useRef, useState } from 'react';
import { FormAlert } from '../../components/FormAlert';
import { useAuth } from '../auth/useAuth';
import { meQueryOptions } from '../profile/profile-queries';
import { recoveryCodesQueryOptions } from './security-queries';
import type { SettingsDialogProps } from './ChangePasswordDialog';

// The dialogs' code loads when one is first wanted (a pointer resting on its button starts it early).
const loaders = {
  password: () => import('./ChangePasswordDialog'),
  enable: () => import('./TwoFactorSetupDialog'),
  disable: () => import('./TwoFactorDisableDialog'),
  renew: () => import('./RecoveryCodesRenewDialog'),
};
const dialogs: Record<keyof typeof loaders, ComponentType<SettingsDialogProps>> = {
  password: lazy(loaders.password),
  enable: lazy(loaders.enable),
  disable: lazy(loaders.disable),
  renew: lazy(loaders.renew),
};

/** A button that opens one of the lazy dialogs; the dialog stays mounted once loaded (it animates closed). */
function DialogButton({
  which,
  label,
  variant = 'outline',
  colorPalette,
  hidden = false,
}: {
  which: keyof typeof loaders;
  label: string;
  variant?: 'outline' | 'solid';
  colorPalette?: string;
  /** The button is not offered now; its dialog, if open, stays (hiding keeps it mounted). */
  hidden?: boolean;
}) {
  const [open, setOpen] = useState(false);
  // 0: never opened (its code not loaded); each opening gets a fresh dialog (no state of the last one).
  const [opening, setOpening] = useState(0);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const Dialog = dialogs[which];
  const preload = () => void loaders[which]();
  return (
    <>
      <Button
        ref={buttonRef}
        hidden={hidden}
        variant={variant}
        colorPalette={colorPalette}
        onPointerEnter={preload}
        onFocus={preload}
        onClick={() => {
          setOpening((n) => n + 1);
          setOpen(true);
        }}
      >
        {label}
      </Button>
      {opening > 0 ? (
        <Suspense fallback={null}>
          <Dialog
            key={opening}
            open={open}
            onClose={() => setOpen(false)}
            returnFocusTo={buttonRef as RefObject<HTMLButtonElement | null>}
          />
        </Suspense>
      ) : null}
    </>
  );
}

/** A Google-only account has no password to change: it sets one through the mailed reset link. */
function SetPasswordByMail({ email }: { email: string }) {
  const send = useMutation({ mutationFn: () => unwrap(requestPasswordReset({ body: { email } })) });
  return (
    <Stack gap="3" align="flex-start">
      {send.isSuccess ? (
        <FormAlert status="success">{send.data.message}</FormAlert>
      ) : (
        <Button variant="outline" onClick={() => send.mutate()} loading={send.isPending} loadingText="Loading...">
          Email me a link to set a password
        </Button>
      )}
      {send.isError ? <FormAlert>{errorMessage(send.error)}</FormAlert> : null}
    </Stack>
  );
}

function Row({ title, status, description, children }: { title: string; status?: ReactNode; description: ReactNode; children: ReactNode }) {
  return (
    <Stack gap="3" align="flex-start">
      <Stack gap="0.5">
        <HStack gap="3" wrap="wrap">
          <Text as="h3" fontWeight="medium">
            {title}
          </Text>
          {status}
        </HStack>
        <Text fontSize="sm" color="fg.muted">
          {description}
        </Text>
      </Stack>
      {children}
    </Stack>
  );
}

/** How many recovery codes are left, and Renew (a code of the app: ten new ones, the old ones dead). */
function RecoveryCodesRow() {
  const { data } = useQuery(recoveryCodesQueryOptions);
  const left = data?.remaining;
  return (
    <Row
      title="Recovery codes"
      status={
        left === undefined || left === null ? null : (
          <Badge colorPalette={left > 2 ? 'gray' : 'orange'} variant="subtle" data-testid="recovery-codes-left">
            {left} of {data!.total} left
          </Badge>
        )
      }
      description={
        left === 0
          ? 'You have used every recovery code: renew them, or you cannot sign in if you lose your phone.'
          : 'Each one signs you in once without your phone. Renewing makes ten new ones and ends the old ones.'
      }
    >
      <DialogButton which="renew" label="Renew recovery codes" />
    </Row>
  );
}

/** Settings' security: Change Password (or, Google-only, a way to set one), two-factor authentication and its recovery codes. */
export function SecuritySettings() {
  const { user } = useAuth();
  const { data: me } = useQuery(meQueryOptions);
  const profile = me ?? user;
  if (!profile) return null;
  const twoFactor = profile.two_factor_enabled;

  return (
    <Stack gap="6" separator={<StackSeparator borderColor="border.muted" />}>
      {profile.has_password ? (
        <Row title="Password" description="Changing it signs you out on your other devices.">
          <DialogButton which="password" label="Change Password" />
        </Row>
      ) : (
        <Row
          title="Password"
          description="You sign in with Google, so your account has no password. To add one (and sign in with your email too), we can email you a link to choose it."
        >
          <SetPasswordByMail email={profile.email} />
        </Row>
      )}
      <Row
        title="Two-factor authentication"
        status={
          <Badge colorPalette={twoFactor ? 'green' : 'gray'} variant="subtle">
            {twoFactor ? 'On' : 'Off'}
          </Badge>
        }
        description={
          twoFactor
            ? 'Signing in asks for a code from your authenticator app (or one of your recovery codes).'
            : 'Add a code from an authenticator app on your phone to your password, so a stolen password is not enough to sign in.'
        }
      >
        {/* Both stay mounted: turning it on swaps the buttons while the recovery codes are still on screen. */}
        <HStack gap="3" wrap="wrap">
          <DialogButton which="enable" label="Turn on two-factor authentication" variant="solid" hidden={twoFactor} />
          <DialogButton which="disable" label="Turn off two-factor authentication" colorPalette="red" hidden={!twoFactor} />
        </HStack>
      </Row>
      {twoFactor ? <RecoveryCodesRow /> : null}
    </Stack>
  );
}
