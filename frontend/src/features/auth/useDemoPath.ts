import { paths } from '../../app/paths';
import { useAuth } from './useAuth';

/**
 * Where Watch demo and the footer's Demo go (docs/product.md: /dashboard/generations). Signed out,
 * that screen is behind the auth guard: the link opens Create account with a line saying why
 * instead of bouncing back home. While the session loads it does the same (a signed-in visitor
 * asking for the dialog is sent on to the dashboard).
 */
export function useDemoPath(): string {
  const { status } = useAuth();
  return status === 'signed-in' ? paths.generations : paths.demoSignUp;
}
