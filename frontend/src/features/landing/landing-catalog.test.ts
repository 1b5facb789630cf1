import { describe, expect, it } from 'vitest';
import { heroPictures, landingPicture } from './landing-catalog';
import type { Catalog } from '../catalog/catalog-helpers';

/** The parts of GET /api/catalog the hero reads. */
const catalog = {
  categories: [
    { id: 'bikini', label: 'Bikini', templateIds: ['bikini-black', 'bikini-yellow'] },
    { id: 'dress', label: 'Dresses', templateIds: ['dress-red'] },
  ],
  templates: [
    { id: 'bikini-yellow', thumbnail: '/api/catalog/artwork/bikini-yellow.svg?v=2' },
    { id: 'bikini-black', thumbnail: '/api/catalog/artwork/bikini-black.svg?v=1' },
    { id: 'dress-red', thumbnail: '/api/catalog/artwork/dress-red.svg?v=3' },
  ],
} as unknown as Catalog;

describe("the hero's pictures", () => {
  it("are the first category's first template and its everyday-clothes figure", () => {
    expect(heroPictures(catalog)).toEqual({
      after: '/api/catalog/artwork/bikini-black.webp?v=1',
      before: '/api/catalog/artwork/before-bikini-black.webp',
    });
  });

  it('are the WebP form of drawn pictures, and an uploaded photo as it is', () => {
    expect(landingPicture('/api/catalog/artwork/bikini-black.svg?v=1')).toBe('/api/catalog/artwork/bikini-black.webp?v=1');
    expect(landingPicture('/api/catalog/artwork/before-bikini-black.svg')).toBe('/api/catalog/artwork/before-bikini-black.webp');
    expect(landingPicture('/api/catalog/artwork/bikini-black.jpg?v=abc')).toBe('/api/catalog/artwork/bikini-black.jpg?v=abc');
  });

  it('are none for a catalogue without templates', () => {
    expect(heroPictures({ ...catalog, categories: [], templates: [] } as unknown as Catalog)).toBeUndefined();
  });
});
