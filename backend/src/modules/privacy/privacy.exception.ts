/** What the privacy routes tell the user. */
export const PrivacyMessages = {
  confirmRequired: 'To delete your account and all its data, send confirm: "DELETE".',
} as const;
