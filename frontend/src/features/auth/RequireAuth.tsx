import { Flex } from '@chakra-ui/react';
import { Navigate, Outlet } from 'react-router';
import { paths } from '../../app/paths';
import { PageSpinner } from '../../components/PageSpinner';
import { AgeConfirmationPage } from './AgeConfirmationPage';
import { SESSION_ENDED_PARAM } from './auth-dialog-mode';
import { useAuth } from './useAuth';

/**
 * The auth guard of /try, /app and /dashboard/* (docs/product.md): a centred spinner while the
 * session loads; signed-out visitors go to `/` with the history entry replaced, so Back does not
 * return them to the protected URL (to the log-in dialog with the reason when their session ended
 * without a sign-out: suspended, password changed elsewhere, signed out for safety, expired). A Google account that has not yet confirmed the age of 18+
 * confirms it before anything else.
 */
export function RequireAuth() {
  const { status, user, ended } = useAuth();

  if (status === 'loading') {
    return (
      <Flex minH="100dvh" direction="column">
        <PageSpinner label="Loading your session" />
      </Flex>
    );
  }
  // A session that ended without a sign-out says why in the log-in dialog (suspended, password changed...)
  if (status === 'signed-out' || !user)
    return <Navigate to={ended ? `${paths.logIn}&${SESSION_ENDED_PARAM}=${ended.code}` : paths.home} replace />;
  if (!user.age_confirmed) return <AgeConfirmationPage />;
  return <Outlet />;
}
