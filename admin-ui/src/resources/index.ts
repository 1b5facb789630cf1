/** The console's resources, in menu order; names are the access policy's resource names. */
export const RESOURCE_NAMES = [
  'users',
  'support-inquiries',
  'notifications',
  'generations',
  'payments',
  'stripe-events',
  'audit-log',
  'outbox',
  'templates',
  'scenes',
] as const;
