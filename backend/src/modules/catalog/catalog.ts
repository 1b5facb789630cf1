import { CATEGORY_IDS, CategoryId, GENERATION_CATEGORIES, GenerationCategory, SceneDefinition, TemplateDefinition } from './catalog.types';
import { CATEGORIES, SCENE_PREFIX_ALIASES } from './data/categories.data';
import { CATEGORY_SCENES, GENERIC_SCENES } from './data/scenes.data';
import { TEMPLATES } from './data/templates.data';
import { tierRank } from './tiers';

/**
 * Lookups over the catalogue data (data/*.ts). Everything here is pure and synchronous: the
 * catalogue is code, versioned with the app, and the same for every process.
 */
export { CATEGORIES, CATEGORY_SCENES, GENERIC_SCENES, TEMPLATES };
export { CREDIT_PACKS, PLANS } from './data/plans.data';
export { CUSTOM_POSE, VIDEO_SURCHARGE } from './data/costs.data';

export const ALL_SCENES: readonly SceneDefinition[] = [...CATEGORY_SCENES, ...GENERIC_SCENES];

const templatesById = new Map(TEMPLATES.map((t) => [t.id, t]));
const scenesById = new Map(ALL_SCENES.map((s) => [s.id, s]));

export function isCategoryId(value: unknown): value is CategoryId {
  return typeof value === 'string' && (CATEGORY_IDS as readonly string[]).includes(value);
}

/** A label a generation may carry: a category with a screen, or `corporate` (no screen). */
export function isGenerationCategory(value: unknown): value is GenerationCategory {
  return typeof value === 'string' && (GENERATION_CATEGORIES as readonly string[]).includes(value);
}

export function findTemplate(id: string): TemplateDefinition | undefined {
  return templatesById.get(id);
}

export function findScene(id: string): SceneDefinition | undefined {
  return scenesById.get(id);
}

export function templatesForCategory(category: CategoryId): TemplateDefinition[] {
  return TEMPLATES.filter((t) => t.category === category);
}

/** The scene id prefix of a category or alias: active_wear and activewear -> activewear, dress -> dresses. */
export function scenePrefix(category: string): string {
  return SCENE_PREFIX_ALIASES[category] ?? CATEGORIES.find((c) => c.id === category)?.scenePrefix ?? category;
}

/** The category a scene belongs to by its id prefix, or null for a generic scene. */
export function sceneCategory(sceneId: string): CategoryId | null {
  return CATEGORIES.find((c) => sceneId.startsWith(`${c.scenePrefix}-`))?.id ?? null;
}

export function isGenericScene(scene: Pick<SceneDefinition, 'id'>): boolean {
  return sceneCategory(scene.id) === null;
}

/**
 * The pose buttons of a category screen: its own scenes plus the generic ones, cheapest tier
 * first (stable within a tier: category scenes before generic ones). Accepts the aliases
 * `activewear` and `dresses`.
 */
export function scenesForCategory(category: CategoryId | string): SceneDefinition[] {
  const prefix = scenePrefix(category);
  const own = CATEGORY_SCENES.filter((s) => s.id.startsWith(`${prefix}-`));
  return [...own, ...GENERIC_SCENES]
    .map((scene, index) => ({ scene, index }))
    .sort((a, b) => tierRank(a.scene.requiredTier) - tierRank(b.scene.requiredTier) || a.index - b.index)
    .map((x) => x.scene);
}

/** Whether a scene may be used on a category's screen (its own scene or a generic one). */
export function sceneBelongsTo(sceneId: string, category: CategoryId): boolean {
  const owner = sceneCategory(sceneId);
  return findScene(sceneId) !== undefined && (owner === null || owner === category);
}
