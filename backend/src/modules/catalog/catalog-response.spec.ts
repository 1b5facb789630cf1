import { ALL_SCENES, TEMPLATES } from './catalog';
import { buildCatalogResponse } from './catalog-response';
import { ALL_FEATURES_ON } from './feature-flags';
import { TIERS, tierAtLeast } from './tiers';

const thumbnail = (id: string) => `/api/catalog/artwork/${id}.svg?v=test`;

describe('buildCatalogResponse', () => {
  it.each(TIERS)('marks `locked` exactly where the entitlements say, for a %s caller', (tier) => {
    const res = buildCatalogResponse({ tier, features: ALL_FEATURES_ON, thumbnail });
    expect(res.templates).toHaveLength(72);
    for (const t of res.templates) expect({ id: t.id, locked: t.locked }).toEqual({ id: t.id, locked: !tierAtLeast(tier, t.requiredTier) });
    expect(res.scenes).toHaveLength(ALL_SCENES.length);
    for (const s of res.scenes) expect({ id: s.id, locked: s.locked }).toEqual({ id: s.id, locked: !tierAtLeast(tier, s.requiredTier) });
    expect(res.customPose.locked).toBe(false);
    expect(res.viewer).toEqual({ tier, canGenerateVideo: tier === 'glow_up' || tier === 'model_mode', watermarked: tier === 'free' });
  });

  it('counts the templates a tier unlocks: free 8, starter 30, glow_up 60, model_mode 72', () => {
    const unlocked = TIERS.map(
      (tier) => buildCatalogResponse({ tier, features: ALL_FEATURES_ON, thumbnail }).templates.filter((t) => !t.locked).length,
    );
    expect(unlocked).toEqual([8, 30, 60, 72]);
  });

  it('leaves out the spicy category, its templates and scenes when FEATURE_SPICY is off', () => {
    const res = buildCatalogResponse({ tier: 'model_mode', features: { ...ALL_FEATURES_ON, spicy: false }, thumbnail });
    expect(res.categories.map((c) => c.id)).not.toContain('spicy');
    expect(res.templates).toHaveLength(60);
    expect(res.templates.some((t) => t.category === 'spicy')).toBe(false);
    expect(res.scenes.some((s) => s.id.startsWith('spicy-'))).toBe(false);
    expect(res.scenes.filter((s) => s.category === null)).toHaveLength(6);
    expect(res.features.spicy).toBe(false);
  });

  it('reports video off for every tier when FEATURE_VIDEO is off', () => {
    for (const tier of TIERS)
      expect(buildCatalogResponse({ tier, features: { ...ALL_FEATURES_ON, video: false }, thumbnail }).viewer.canGenerateVideo).toBe(false);
  });

  it('describes each category with its route, templates and pose buttons', () => {
    const res = buildCatalogResponse({ tier: 'free', features: ALL_FEATURES_ON, thumbnail });
    const activeWear = res.categories.find((c) => c.id === 'active_wear')!;
    expect(activeWear.path).toBe('/dashboard/active-wear');
    expect(activeWear.templateIds).toEqual(TEMPLATES.filter((t) => t.category === 'active_wear').map((t) => t.id));
    expect(activeWear.sceneIds).toContain('activewear-gym');
    expect(activeWear.sceneIds).toContain('beach-standing');
    expect(res.packs.map((p) => p.totalCredits)).toEqual([20, 75, 230, 600]);
    expect(res.tiers).toEqual(['free', 'starter', 'glow_up', 'model_mode']);
    expect(res.videoSurcharge).toBe(3);
    expect(res.templates[0].thumbnail).toBe(thumbnail(res.templates[0].id));
  });
});
