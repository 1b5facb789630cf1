/**
 * The one rule on a person's full name, checked by the API (sign-up and PATCH /api/me) and by the
 * user app's forms before a round trip: required (after trimming), at most FULL_NAME_MAX_LENGTH
 * characters (the database column's width).
 */
export const FULL_NAME_MAX_LENGTH = 200;

export const FullNameMessages = {
  required: 'Full name is required',
  tooLong: `Full name must be at most ${FULL_NAME_MAX_LENGTH} characters`,
} as const;

/** What is wrong with a full name as typed, or null when it may be saved. */
export function fullNameProblem(value: string): string | null {
  const name = value.trim();
  if (!name) return FullNameMessages.required;
  if (name.length > FULL_NAME_MAX_LENGTH) return FullNameMessages.tooLong;
  return null;
}
