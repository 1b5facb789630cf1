import { Link } from '@chakra-ui/react';
import { canUseConsole } from '@fitting-room/shared';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { paths } from '../../app/paths';
import { takeReturnTo } from '../auth/return-to';
import { useAuth } from '../auth/useAuth';
import { meQueryOptions } from '../profile/profile-queries';

/** The role of the signed-in person: the profile's (read fresh), else the session's. */
function useRole(): string | undefined {
  const { user } = useAuth();
  const { data: profile } = useQuery(meQueryOptions);
  return profile?.role ?? user?.role;
}

/**
 * Staff (admins and support, the roles the access policy lets into the console) see a link to the
 * console; others see nothing. A full page load: the console is another application.
 */
export function ConsoleLink({ onNavigate }: { onNavigate?: () => void }) {
  const role = useRole();
  if (!canUseConsole(role)) return null;
  return (
    <Link href={paths.console} onClick={onNavigate} px="3" fontSize="sm" fontWeight="medium" color="fg" _hover={{ color: 'brand.fg' }}>
      Open the console
    </Link>
  );
}

/**
 * Once signed in, staff who came from the console signed out go back to the console page they had
 * opened (the Log in dialog's `next`, return-to.ts); anyone else stays here.
 */
export function useReturnToConsole(): void {
  const { status, user } = useAuth();
  const role = user?.role;
  useEffect(() => {
    if (status !== 'signed-in') return;
    const target = takeReturnTo(role);
    if (target) window.location.assign(target);
  }, [status, role]);
}
