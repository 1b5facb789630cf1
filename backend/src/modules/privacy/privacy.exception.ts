/** What the privacy routes tell the user. */
export const PrivacyMessages = {
  confirmRequired: 'To delete your account and all its data, send confirm: "DELETE".',
  passwordRequired: 'Please enter your password to delete your account.',
  codeRequired: 'Please enter a code from your authenticator app (or a recovery code) to delete your account.',
} as const;
