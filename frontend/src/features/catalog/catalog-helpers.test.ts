import { describe, expect, it } from 'vitest';
import { type Catalog, categoryLabel, formatCredits, formatPrice, generationCost, poseCost, tierName } from './catalog-helpers';

/** The parts of GET /api/catalog these functions read. */
const catalog = {
  scenes: [
    { id: 'beach_walk', creditCost: 1 },
    { id: 'rooftop_night', creditCost: 3 },
  ],
  customPose: { creditCost: 3 },
  videoSurcharge: 3,
  plans: [
    { id: 'free', name: 'Free' },
    { id: 'glow_up', name: 'Glow Up' },
  ],
  categories: [{ id: 'active_wear', slug: 'active-wear', label: 'Active Wear' }],
} as unknown as Catalog;

describe('what a generation costs, as the panel shows it before Generate', () => {
  it("an image costs its scene's credits; a custom pose costs the custom pose's", () => {
    expect(poseCost(catalog, { kind: 'scene', sceneId: 'beach_walk' })).toBe(1);
    expect(poseCost(catalog, { kind: 'scene', sceneId: 'rooftop_night' })).toBe(3);
    expect(poseCost(catalog, { kind: 'custom' })).toBe(3);
  });

  it("a video adds the catalogue's surcharge", () => {
    expect(generationCost(catalog, { kind: 'scene', sceneId: 'beach_walk' }, 'video')).toBe(4);
    expect(generationCost(catalog, { kind: 'custom' }, 'video')).toBe(6);
    expect(generationCost(catalog, { kind: 'scene', sceneId: 'beach_walk' }, 'image')).toBe(1);
  });

  it('shows no cost until a pose is chosen, nor for a pose the catalogue does not have', () => {
    expect(generationCost(catalog, null, 'image')).toBeNull();
    expect(generationCost(catalog, { kind: 'scene', sceneId: 'gone' }, 'video')).toBeNull();
  });

  it('says "credit" for one and "credits" otherwise', () => {
    expect(formatCredits(1)).toBe('1 credit');
    expect(formatCredits(0)).toBe('0 credits');
    expect(formatCredits(4)).toBe('4 credits');
  });
});

describe('prices and names', () => {
  it('shows whole prices without cents and others with two decimals', () => {
    expect(formatPrice(0, 'USD')).toBe('$0');
    expect(formatPrice(29, 'USD')).toBe('$29');
    expect(formatPrice(12.99, 'USD')).toBe('$12.99');
    expect(formatPrice(9.5, 'USD')).toBe('$9.50');
  });

  it('names a tier by its plan, and a category the catalogue no longer lists by its id, readably', () => {
    expect(tierName(catalog, 'glow_up')).toBe('Glow Up');
    expect(categoryLabel(catalog, 'active_wear')).toBe('Active Wear');
    expect(categoryLabel(catalog, 'corporate')).toBe('Corporate');
    expect(categoryLabel(undefined, 'evening_wear')).toBe('Evening Wear');
  });
});
