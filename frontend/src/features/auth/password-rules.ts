/** What the server asks of a password (PASSWORD_MIN_LENGTH 8; it also refuses the most common ones). */
export const PASSWORD_HINT = 'At least 8 characters. Avoid common passwords.';
/** The client's one check of a new password typed twice (the rest is the server's). */
export const PASSWORDS_DIFFER = 'The passwords do not match';
