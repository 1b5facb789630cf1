/**
 * The permissive shape of an email address, checked before a round trip by sign-up, "Forgot
 * password?" and the contact form: something, an @, something, no spaces. A host without a dot
 * passes (`admin@localhost`, intranet hosts), as the server accepts them; the server has the final
 * word. Log in checks nothing but presence: the server accepts any text there.
 */
export const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+$/;

export function looksLikeEmail(value: string): boolean {
  return EMAIL_SHAPE.test(value.trim());
}
