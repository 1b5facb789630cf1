import { canGenerateVideo, canUseScene, canUseTemplate, canUseTier, isWatermarked, lockedFor } from './entitlements';
import { isTier, tierAtLeast, tierRank, TIERS, type Tier } from './tiers';

describe('tier order (docs/product.md)', () => {
  it('is free < starter < glow_up < model_mode', () => {
    expect(TIERS).toEqual(['free', 'starter', 'glow_up', 'model_mode']);
    expect(TIERS.map(tierRank)).toEqual([0, 1, 2, 3]);
  });

  it('tierAtLeast compares ranks for every pair', () => {
    for (const a of TIERS) for (const b of TIERS) expect([a, b, tierAtLeast(a, b)]).toEqual([a, b, TIERS.indexOf(a) >= TIERS.indexOf(b)]);
  });

  it('recognises only the four tiers', () => {
    expect(TIERS.every(isTier)).toBe(true);
    for (const v of ['Free', 'premium', '', null, undefined, 2, 'model-mode']) expect(isTier(v)).toBe(false);
    expect(() => tierRank('gold' as Tier)).toThrow(TypeError);
  });
});

describe('entitlements (docs/product.md)', () => {
  const expected: Record<Tier, Tier[]> = {
    free: ['free'],
    starter: ['free', 'starter'],
    glow_up: ['free', 'starter', 'glow_up'],
    model_mode: ['free', 'starter', 'glow_up', 'model_mode'],
  };

  it.each(TIERS)('%s may use exactly the items of its tier and below', (tier) => {
    const usable = TIERS.filter((required) => canUseTier(tier, required));
    expect(usable).toEqual(expected[tier]);
    for (const required of TIERS) {
      expect(canUseTemplate(tier, { requiredTier: required })).toBe(usable.includes(required));
      expect(canUseScene(tier, { requiredTier: required })).toBe(usable.includes(required));
      expect(lockedFor(tier)({ requiredTier: required })).toBe(!usable.includes(required));
    }
  });

  it('video comes with glow_up and model_mode only', () => {
    expect(TIERS.filter(canGenerateVideo)).toEqual(['glow_up', 'model_mode']);
  });

  it('only free results are watermarked', () => {
    expect(TIERS.filter(isWatermarked)).toEqual(['free']);
  });
});
