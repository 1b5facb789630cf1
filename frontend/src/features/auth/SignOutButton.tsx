import { Button, type ButtonProps } from '@chakra-ui/react';
import { errorMessage } from '@fitting-room/shared/browser';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../app/paths';
import { notify } from '../../components/toaster';
import { useAuth } from './useAuth';

/** Sign Out: ends the session on the server, then goes to `/` (docs/product.md). */
export function SignOutButton(props: ButtonProps) {
  const { signOut } = useAuth();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);

  const onClick = async () => {
    setBusy(true);
    try {
      await signOut();
      void navigate(paths.home, { replace: true });
    } catch (error) {
      notify.error({ title: 'Failed to sign out', description: errorMessage(error) });
      setBusy(false);
    }
  };

  return (
    <Button variant="outline" loading={busy} loadingText="Signing out..." onClick={() => void onClick()} {...props}>
      Sign Out
    </Button>
  );
}
