import {
  ALL_SCENES,
  CATEGORIES,
  CATEGORY_SCENES,
  CREDIT_PACKS,
  CUSTOM_POSE,
  GENERIC_SCENES,
  PLANS,
  TEMPLATES,
  findScene,
  findTemplate,
  isGenerationCategory,
  sceneBelongsTo,
  sceneCategory,
  scenePrefix,
  scenesForCategory,
  templatesForCategory,
} from './catalog';
import { FORBIDDEN_WORDS } from './catalog-text.policy';
import { CATEGORY_IDS, type CategoryId } from './catalog.types';
import { planFeatures } from './generation-cost';
import { planForTier } from './plans';
import { composePrompt, PROMPT_SAFETY_CLAUSE } from './prompt';
import { TIERS, tierRank, type Tier } from './tiers';

const SPLIT: Record<CategoryId, [number, number, number, number]> = {
  bikini: [2, 6, 4, 0],
  lingerie: [0, 0, 12, 0],
  active_wear: [2, 6, 4, 0],
  dress: [2, 4, 6, 0],
  pajamas: [2, 6, 4, 0],
  spicy: [0, 0, 0, 12],
};

describe('the catalogue data', () => {
  it('has the six categories with their labels and routes (sidebar order)', () => {
    // one name each (the sidebar once said "Dress" beside the header's "Dresses")
    expect(CATEGORIES.map((c) => [c.id, c.label, c.slug])).toEqual([
      ['active_wear', 'Active Wear', 'active-wear'],
      ['dress', 'Dresses', 'dress'],
      ['pajamas', 'Pajamas', 'pajamas'],
      ['bikini', 'Bikini', 'bikini'],
      ['lingerie', 'Lingerie', 'lingerie'],
      ['spicy', 'Spicy', 'spicy'],
    ]);
    expect(CATEGORIES.every((c) => !('navLabel' in c))).toBe(true);
    expect(new Set(CATEGORIES.map((c) => c.customPoseHint)).size).toBe(6);
  });

  it('accepts corporate as a generation label without a screen', () => {
    expect(isGenerationCategory('corporate')).toBe(true);
    expect(CATEGORIES.some((c) => (c.id as string) === 'corporate')).toBe(false);
    for (const c of CATEGORY_IDS) expect(isGenerationCategory(c)).toBe(true);
    for (const v of ['activewear', 'dresses', 'Spicy', '', undefined]) expect(isGenerationCategory(v)).toBe(false);
  });

  it('has 72 templates, 12 per category, with the tier split of section 3', () => {
    expect(TEMPLATES).toHaveLength(72);
    for (const category of CATEGORY_IDS) {
      const list = templatesForCategory(category);
      expect({ category, count: list.length }).toEqual({ category, count: 12 });
      const split = TIERS.map((tier) => list.filter((t) => t.requiredTier === tier).length);
      expect({ category, split }).toEqual({ category, split: SPLIT[category] });
    }
  });

  it('uses ids in one style, unique across templates, scenes and the custom pose', () => {
    const prefix: Record<CategoryId, string> = {
      bikini: 'bikini',
      lingerie: 'lingerie',
      active_wear: 'activewear',
      dress: 'dress',
      pajamas: 'pajamas',
      spicy: 'spicy',
    };
    for (const t of TEMPLATES) expect(t.id).toMatch(new RegExp(`^${prefix[t.category]}-[a-z0-9]+(-[a-z0-9]+)*$`));
    for (const id of ['bikini-yellow', 'lingerie-silk', 'activewear-1', 'dress-bodycon', 'pajamas-1', 'spicy-nurse'])
      expect(findTemplate(id)).toBeDefined();
    const ids = [...TEMPLATES.map((t) => t.id), ...ALL_SCENES.map((s) => s.id), CUSTOM_POSE.id];
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('gives every template and scene a name, a description and prompt text', () => {
    for (const item of [...TEMPLATES, ...ALL_SCENES]) {
      expect(item.name.trim().length).toBeGreaterThan(2);
      expect(item.description.trim().length).toBeGreaterThan(10);
      expect(item.promptDescription.trim().length).toBeGreaterThan(10);
    }
    for (const t of TEMPLATES) expect(t.promptDescription).toMatch(/^wearing /);
  });

  it('contains no text suggesting nudity or a minor (docs/product.md)', () => {
    const texts = [
      ...TEMPLATES.flatMap((t) => [t.id, t.name, t.description, t.promptDescription]),
      ...ALL_SCENES.flatMap((s) => [s.id, s.name, s.description, s.promptDescription]),
      ...CATEGORIES.flatMap((c) => [c.label, c.customPoseHint]),
      ...PLANS.flatMap((p) => [p.name, p.displayName, p.description, ...planFeatures(p)]),
      CUSTOM_POSE.description,
    ];
    expect(texts.filter((t) => FORBIDDEN_WORDS.test(t))).toEqual([]);
    expect(TEMPLATES.some((t) => 'isTopless' in t)).toBe(false);
  });

  it('the forbidden-words check catches what it must', () => {
    for (const bad of ['Topless look', 'schoolgirl', 'nude tone', 'teenage', 'a little girl', 'Girls night', 'minor', 'see-through top'])
      expect(bad).toMatch(FORBIDDEN_WORDS);
  });
});

describe('scenes', () => {
  it('has the generic scenes with exactly the tiers and costs of section 9', () => {
    expect(GENERIC_SCENES.map((s) => [s.id, s.requiredTier, s.creditCost])).toEqual([
      ['beach-standing', 'free', 1],
      ['poolside-standing', 'starter', 2],
      ['poolside-sitting', 'starter', 2],
      ['bedroom-standing', 'glow_up', 2],
      ['bedroom-sitting', 'glow_up', 3],
      ['bathroom-standing', 'model_mode', 2],
    ]);
    for (const s of GENERIC_SCENES) expect(sceneCategory(s.id)).toBeNull();
  });

  it('maps categories to scene prefixes (active_wear and activewear -> activewear, dress -> dresses)', () => {
    expect(scenePrefix('active_wear')).toBe('activewear');
    expect(scenePrefix('activewear')).toBe('activewear');
    expect(scenePrefix('dress')).toBe('dresses');
    for (const c of ['bikini', 'lingerie', 'pajamas', 'spicy']) expect(scenePrefix(c)).toBe(c);
    expect(sceneCategory('activewear-gym')).toBe('active_wear');
    expect(sceneCategory('dresses-red-carpet')).toBe('dress');
  });

  it('gives every category 4-6 scenes of its own, each owned by its prefix', () => {
    for (const c of CATEGORIES) {
      const own = CATEGORY_SCENES.filter((s) => sceneCategory(s.id) === c.id);
      expect({ c: c.id, n: own.length >= 4 && own.length <= 6 }).toEqual({ c: c.id, n: true });
      for (const s of own) expect(s.id.startsWith(`${c.scenePrefix}-`)).toBe(true);
    }
    expect(CATEGORY_SCENES.every((s) => sceneCategory(s.id) !== null)).toBe(true);
  });

  it('makes spicy scenes model_mode at 3 credits', () => {
    const spicy = CATEGORY_SCENES.filter((s) => sceneCategory(s.id) === 'spicy');
    expect(spicy.every((s) => s.requiredTier === 'model_mode' && s.creditCost === 3)).toBe(true);
  });

  it('offers in every category its own scenes plus the generic ones, cheapest tier first, so every tier has one', () => {
    for (const c of CATEGORY_IDS) {
      const list = scenesForCategory(c);
      const own = CATEGORY_SCENES.filter((s) => sceneCategory(s.id) === c);
      expect(new Set(list.map((s) => s.id))).toEqual(new Set([...own, ...GENERIC_SCENES].map((s) => s.id)));
      const ranks = list.map((s) => tierRank(s.requiredTier));
      expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
      for (const tier of TIERS) expect(list.some((s) => s.requiredTier === tier)).toBe(true);
      for (const s of list) expect(sceneBelongsTo(s.id, c)).toBe(true);
    }
    expect(scenesForCategory('activewear').map((s) => s.id)).toEqual(scenesForCategory('active_wear').map((s) => s.id));
    expect(scenesForCategory('dresses').map((s) => s.id)).toEqual(scenesForCategory('dress').map((s) => s.id));
    expect(sceneBelongsTo('spicy-neon-lounge', 'bikini')).toBe(false);
    expect(sceneBelongsTo('nowhere', 'bikini')).toBe(false);
    expect(findScene('bikini-beach-walk')?.creditCost).toBe(1);
  });

  it('composes the prompt as "show the woman " + outfit + scene, ending with the fixed safety clause', () => {
    const prompt = composePrompt(findTemplate('bikini-yellow')!, findScene('beach-standing')!);
    expect(prompt).toBe(
      `show the woman ${findTemplate('bikini-yellow')!.promptDescription}, ${findScene('beach-standing')!.promptDescription}. ${PROMPT_SAFETY_CLAUSE}`,
    );
    expect(PROMPT_SAFETY_CLAUSE).toBe('The person is an adult, fully clothed in the outfit described, in a non-sexual pose.');
  });

  it('puts a custom pose in as a quoted description, never as instructions, and still ends with the clause', () => {
    const prompt = composePrompt(findTemplate('bikini-yellow')!, { custom: 'walking on the "beach" at sunset' });
    expect(prompt).toContain('in the pose the customer described as "walking on the beach at sunset"');
    expect(prompt.endsWith(PROMPT_SAFETY_CLAUSE)).toBe(true);
    for (const t of TEMPLATES) for (const s of scenesForCategory(t.category)) expect(composePrompt(t, s)).not.toMatch(/\s{2}|\s,|,,/);
  });
});

describe('plans and packs (section 9)', () => {
  it('has the four plans with their prices, credits and one most popular (starter)', () => {
    expect(PLANS.map((p) => [p.id, p.price, p.monthlyCredits, p.mostPopular])).toEqual([
      ['free', 0, 3, false],
      ['starter', 4.99, 20, true],
      ['glow_up', 12.99, 70, false],
      ['model_mode', 29.99, 180, false],
    ]);
    for (const p of PLANS) {
      expect(p.name.length).toBeGreaterThan(0);
      expect(p.displayName.length).toBeGreaterThan(0);
      expect(p.features.length).toBeGreaterThan(2);
    }
  });

  it('lists the entitlements of section 6 as features', () => {
    const features = (tier: Tier) => planFeatures(planForTier(tier));
    expect(features('free')).toEqual(expect.arrayContaining(['2 templates per category', 'Watermarked results']));
    expect(features('starter')).toEqual(expect.arrayContaining(['Most templates (about 60%)', 'HD quality', 'No watermark']));
    expect(features('glow_up')).toEqual([
      'All categories except Spicy',
      'Lingerie included',
      'Video try-on (4-6 credits)',
      'Priority support',
    ]);
    expect(features('model_mode')).toEqual([
      'All templates including Spicy',
      'Ultra HD',
      'Unlimited video (credits apply)',
      'Priority processing',
      'Early access',
      '24/7 support',
    ]);
  });

  it('has the four credit packs', () => {
    expect(CREDIT_PACKS.map((p) => [p.credits, p.price, p.bonus])).toEqual([
      [20, 4.99, 0],
      [70, 14.99, 5],
      [200, 34.99, 30],
      [500, 74.99, 100],
    ]);
  });

  it('planForTier answers each tier and refuses anything else', () => {
    for (const tier of TIERS) expect(planForTier(tier).id).toBe(tier);
    expect(() => planForTier('gold')).toThrow(TypeError);
  });
});
