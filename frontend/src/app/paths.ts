/**
 * URLs of the app's screens (product spec, section 2), named once so links never spell them.
 * Screens that do not exist yet are linked already; their issues add the routes.
 */
export const paths = {
  home: '/',
  pricing: '/pricing',
  privacy: '/privacy',
  terms: '/terms',
  refund: '/refund',
  generations: '/dashboard/generations',
  /** The auth dialog opens on the landing page from its `auth` search parameter. */
  logIn: '/?auth=login',
  signUp: '/?auth=signup',
} as const;
