/**
 * URLs of the app's screens (docs/product.md), named once so links never spell them.
 * Screens that do not exist yet are linked already; their issues add the routes.
 */
export const paths = {
  home: '/',
  pricing: '/pricing',
  privacy: '/privacy',
  terms: '/terms',
  refund: '/refund',
  /** Contact form and "Report an image" (features/support). */
  contact: '/contact',
  /** Inside the auth guard: redirects to generations. The target of Google sign-in. */
  try: '/try',
  app: '/app',
  dashboard: '/dashboard',
  generations: '/dashboard/generations',
  profile: '/dashboard/profile',
  subscription: '/dashboard/subscription',
  settings: '/dashboard/settings',
  /** "My tickets": the person's messages to support (features/support). */
  tickets: '/dashboard/tickets',
  /** The console (admin-ui), another application: a full page load. Staff only. */
  console: '/admin',
  /** Pages that mailed links open (`?token=`); the API builds those links (backend/src/common/app-links.ts). */
  verifyEmail: '/verify-email',
  resetPassword: '/reset-password',
  unsubscribe: '/unsubscribe',
  /** The auth dialog opens on the landing page from its `auth` search parameter. */
  logIn: '/?auth=login',
  signUp: '/?auth=signup',
  forgotPassword: '/?auth=forgot',
  /** Watch demo and the footer's Demo, signed out: Create account, saying that the demo is their own try-on. */
  demoSignUp: '/?auth=signup&reason=demo',
} as const;

/** API URLs the browser navigates to (full-page navigations, not fetch calls). */
export const apiPaths = {
  /** Starts Google sign-in; ends at /try, or at /?auth_error=<code> on failure. */
  googleSignIn: '/api/auth/google',
} as const;
