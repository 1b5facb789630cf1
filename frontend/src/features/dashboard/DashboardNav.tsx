import { Box, Link, Separator, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { NavLink } from 'react-router';
import { paths } from '../../app/paths';
import { SignOutButton } from '../auth/SignOutButton';
import { useAuth } from '../auth/useAuth';
import { useCatalog } from '../catalog/useCatalog';
import { meQueryOptions } from '../profile/profile-queries';
import { ConsoleLink } from './ConsoleLink';
import { accountNavItems, type DashboardNavItem, mainNavItems } from './nav-items';

interface NavListProps {
  label: string;
  items: readonly DashboardNavItem[];
  onNavigate?: (() => void) | undefined;
}

/** A list of sidebar links; the current page's link is bold (and `aria-current="page"`). */
function NavList({ label, items, onNavigate }: NavListProps) {
  return (
    <Box as="nav" aria-label={label}>
      <Stack as="ul" gap="0.5" listStyle="none">
        {items.map(({ to, label: text }) => (
          <li key={to}>
            <Link
              asChild
              display="flex"
              w="full"
              px="3"
              py="2"
              borderRadius="md"
              color="fg.muted"
              fontSize="sm"
              textDecoration="none"
              _hover={{ bg: 'bg.muted', color: 'fg', textDecoration: 'none' }}
              _currentPage={{ fontWeight: 'bold', color: 'fg', bg: 'brand.subtle' }}
            >
              <NavLink to={to} end onClick={onNavigate}>
                {text}
              </NavLink>
            </Link>
          </li>
        ))}
      </Stack>
    </Box>
  );
}

/** Who is signed in: the profile's name when loaded, else the session's. */
function SignedInAs() {
  const { user } = useAuth();
  const { data: profile } = useQuery(meQueryOptions);
  const name = profile?.full_name ?? user?.full_name;
  const email = profile?.email ?? user?.email;
  return (
    <Box px="3" minW="0">
      {name ? (
        <Text fontSize="sm" fontWeight="medium" truncate>
          {name}
        </Text>
      ) : null}
      <Text fontSize="xs" color="fg.muted" truncate>
        {email}
      </Text>
    </Box>
  );
}

/** The dashboard's navigation: main links, then account links (and the console, for staff), the user and Sign Out at the bottom. */
export function DashboardNav({ onNavigate }: { onNavigate?: () => void }) {
  const { data: catalog } = useCatalog();
  // A category switched off by configuration (Spicy) is not in the catalogue: no link to it. The
  // others read the catalogue's name of their category, which the header shows too.
  const items = catalog
    ? mainNavItems.flatMap((item) => {
        if (!item.categorySlug) return [item];
        const category = catalog.categories.find((c) => c.slug === item.categorySlug);
        return category ? [{ ...item, label: category.label }] : [];
      })
    : mainNavItems;
  return (
    <Stack gap="6" flex="1" minH="0">
      <NavList label="Dashboard" items={items} onNavigate={onNavigate} />
      <Stack gap="4" mt="auto">
        <NavList label="Account" items={accountNavItems} onNavigate={onNavigate} />
        <ConsoleLink onNavigate={onNavigate} />
        <Link asChild px="3" fontSize="sm" color="fg.muted" _hover={{ color: 'fg' }}>
          <NavLink to={paths.contact} onClick={onNavigate}>
            Contact support
          </NavLink>
        </Link>
        <Separator />
        <SignedInAs />
        <SignOutButton size="sm" w="full" />
      </Stack>
    </Stack>
  );
}
