/** Subscription tiers in ascending order, shared with both UIs (package @fitting-room/shared). */
export * from '@fitting-room/shared/tiers';
