import { Flex } from '@chakra-ui/react';
import { Navigate, Outlet } from 'react-router';
import { paths } from '../../app/paths';
import { PageSpinner } from '../../components/PageSpinner';
import { AgeConfirmationPage } from './AgeConfirmationPage';
import { useAuth } from './useAuth';

/**
 * The auth guard of /try, /app and /dashboard/* (docs/product.md): a centred spinner while the
 * session loads; signed-out visitors go to `/` with the history entry replaced, so Back does not
 * return them to the protected URL. A Google account that has not yet confirmed the age of 18+
 * confirms it before anything else.
 */
export function RequireAuth() {
  const { status, user } = useAuth();

  if (status === 'loading') {
    return (
      <Flex minH="100dvh" direction="column">
        <PageSpinner label="Loading your session" />
      </Flex>
    );
  }
  if (status === 'signed-out' || !user) return <Navigate to={paths.home} replace />;
  if (!user.age_confirmed) return <AgeConfirmationPage />;
  return <Outlet />;
}
