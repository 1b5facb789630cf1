/**
 * Facts the API and both UIs share, with no dependencies: who may do what (the access policy and
 * its roles), the subscription tiers in order, the error catalogue, the accounts layer's wording, the full
 * name rule, counts and articles in texts, the progress wording of a generation, the smallest photo
 * and the brand colours.
 * Browser-only helpers (the session store, API errors) are in `@fitting-room/shared/browser`.
 */
export * from './access-policy';
export * from './auth-messages';
export * from './brand';
export * from './developer-api';
export * from './error-catalogue';
export * from './face-checks';
export * from './generation-wording';
export * from './photo-rules';
export * from './profile-rules';
export * from './tiers';
export * from './wording';
