/** The accounts layer's wording, shared with the user app (package @fitting-room/shared). */
export * from '@fitting-room/shared/auth-messages';
