import { normalizeShopUrl } from '../admin/catalog-admin.service';
import {
  catalogTemplates,
  findScene,
  findTemplate,
  replaceCatalog,
  scenesForCategory,
  seedScenes,
  seedTemplates,
  templatesForCategory,
} from '../catalog';
import { buildCatalogResponse } from '../catalog-response';
import { ALL_FEATURES_ON } from '../feature-flags';
import { generationCost } from '../generation-cost';

describe('the live catalogue snapshot', () => {
  afterEach(() => replaceCatalog(seedTemplates(), seedScenes()));

  it('starts as the seed, in the seed order', () => {
    expect(catalogTemplates().map((t) => t.id)).toEqual(seedTemplates().map((t) => t.id));
    expect(findTemplate('bikini-yellow')).toMatchObject({ enabled: true, shopUrl: null, garmentKey: null });
  });

  it('an edit replaces what every lookup, the response and the cost rule read', () => {
    const templates = seedTemplates().map((t) =>
      t.id === 'bikini-yellow' ? { ...t, name: 'Renamed', sortOrder: 1 } : t.id === 'bikini-black' ? { ...t, enabled: false } : t,
    );
    const scenes = seedScenes().map((s) => (s.id === 'beach-standing' ? { ...s, creditCost: 7 } : s));
    replaceCatalog(templates, scenes);

    const bikini = templatesForCategory('bikini').map((t) => t.id);
    expect(bikini[0]).toBe('bikini-yellow');
    expect(bikini).not.toContain('bikini-black');
    expect(findTemplate('bikini-black')?.enabled).toBe(false); // a generation under way still finds it
    expect(generationCost({ sceneId: 'beach-standing', type: 'image' })).toBe(7);
    expect(findScene('beach-standing')?.creditCost).toBe(7);

    const res = buildCatalogResponse({ tier: 'free', features: ALL_FEATURES_ON, thumbnail: (id) => `/t/${id}` });
    expect(res.templates.find((t) => t.id === 'bikini-yellow')?.name).toBe('Renamed');
    expect(res.templates.some((t) => t.id === 'bikini-black')).toBe(false);
    expect(res.scenes.find((s) => s.id === 'beach-standing')?.creditCost).toBe(7);
  });

  it('a disabled scene leaves the pose buttons', () => {
    replaceCatalog(
      seedTemplates(),
      seedScenes().map((s) => (s.id === 'beach-standing' ? { ...s, enabled: false } : s)),
    );
    expect(scenesForCategory('bikini').map((s) => s.id)).not.toContain('beach-standing');
  });
});

describe('the shop link', () => {
  it('keeps an https address and clears an empty one', () => {
    expect(normalizeShopUrl(' https://shop.example/item?id=1 ')).toBe('https://shop.example/item?id=1');
    expect(normalizeShopUrl('')).toBeNull();
    expect(normalizeShopUrl(null)).toBeNull();
  });

  it.each([
    'http://shop.example/x',
    'javascript:alert(1)',
    'https://localhost/x',
    'https://u:p@shop.example/',
    'shop.example/x',
    'data:text/html,hi',
  ])('refuses %s', (url) => expect(() => normalizeShopUrl(url)).toThrow(/must be a full https:\/\/ address/));
});
