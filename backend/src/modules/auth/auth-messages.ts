/** The accounts layer's wording, shared with the user app (package @fitting-room/shared). */
export * from '@fitting-room/shared/auth-messages';

/**
 * The answer of a confirmation link that took its account over because other sign-ups of the
 * address were waiting (AddressProofService); the user app shows the API's message as it is.
 */
export const FRESH_ACCOUNT_MESSAGE =
  'Your email address is confirmed. More than one sign-up used it, so your account starts afresh: choose its password with the link we have just emailed you.';
