import type { FirstAdminCredentials } from '../modules/users/first-admin.service';

/**
 * The box the launcher prints last: the first admin's email and password, shown once, and where to
 * log in (the console opens the user app's Log in dialog and comes back).
 */
export function firstAdminBox(credentials: FirstAdminCredentials, appUrl: string): string {
  const lines = [
    'First start: an admin account was created.',
    'Its password is shown only this once: keep it safe.',
    '',
    `  email     ${credentials.email}`,
    `  password  ${credentials.password}`,
    '',
    `Log in at ${appUrl}/admin`,
  ];
  const width = Math.max(...lines.map((line) => line.length));
  const edge = `  +${'-'.repeat(width + 2)}+`;
  return [edge, ...lines.map((line) => `  | ${line.padEnd(width)} |`), edge].join('\n');
}
