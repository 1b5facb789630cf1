/** The error catalogue (codes, messages), shared with both UIs (package @fitting-room/shared). */
export * from '@fitting-room/shared/error-catalogue';
