/** Who may do what in the console: the one rule, shared with the console (package @fitting-room/shared). */
export * from '@fitting-room/shared/access-policy';
