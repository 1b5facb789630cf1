/** Public surface of the catalogue module for other modules (users, generations, credits). */
export * from './tiers';
export * from './catalog.types';
export * from './catalog';
export * from './entitlements';
export * from './generation-cost';
export * from './feature-flags';
export * from './prompt';
export { planForTier } from './plans';
export { CatalogModule } from './catalog.module';
export { CatalogService } from './catalog.service';
