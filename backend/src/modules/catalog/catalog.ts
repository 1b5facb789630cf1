import {
  CatalogScene,
  CatalogTemplate,
  CATEGORY_IDS,
  CategoryId,
  GENERATION_CATEGORIES,
  GenerationCategory,
  SceneDefinition,
  TemplateDefinition,
} from './catalog.types';
import { CATEGORIES, SCENE_PREFIX_ALIASES } from './data/categories.data';
import { CATEGORY_SCENES, GENERIC_SCENES } from './data/scenes.data';
import { TEMPLATES } from './data/templates.data';
import { tierRank } from './tiers';

/**
 * Lookups over the live catalogue. The typed data (data/*.ts) is its SEED: a migration and every
 * start insert the seed rows missing from `catalog_templates` / `catalog_scenes`, and never
 * overwrite a row (admins edit them in the console). Each process keeps the rows in memory as a
 * snapshot (replaced by CatalogStore when the database's catalogue version moves), so every
 * lookup here stays synchronous. Until a store loads the database, the snapshot is the seed.
 */
export { CATEGORIES, CATEGORY_SCENES, GENERIC_SCENES, TEMPLATES };
export { CREDIT_PACKS, PLANS } from './data/plans.data';
export { CUSTOM_POSE, VIDEO_SURCHARGE } from './data/costs.data';

/** The seed's scenes: category scenes first, then the generic ones. */
export const ALL_SCENES: readonly SceneDefinition[] = [...CATEGORY_SCENES, ...GENERIC_SCENES];

/** Seed order: 10, 20, 30... so that an admin can slot an item between two. */
export const SEED_ORDER_STEP = 10;

/** The seed as catalogue rows: enabled, in the data's order, no photos, no shop links. */
export function seedTemplates(): CatalogTemplate[] {
  return TEMPLATES.map((t, i) => ({
    ...t,
    sortOrder: (i + 1) * SEED_ORDER_STEP,
    enabled: true,
    shopUrl: null,
    garmentKey: null,
    thumbnailKey: null,
  }));
}

export function seedScenes(): CatalogScene[] {
  return ALL_SCENES.map((s, i) => ({ ...s, sortOrder: (i + 1) * SEED_ORDER_STEP, enabled: true, referenceKey: null }));
}

interface Snapshot {
  templates: readonly CatalogTemplate[];
  scenes: readonly CatalogScene[];
  templatesById: ReadonlyMap<string, CatalogTemplate>;
  scenesById: ReadonlyMap<string, CatalogScene>;
}

function snapshotOf(templates: readonly CatalogTemplate[], scenes: readonly CatalogScene[]): Snapshot {
  const byOrder = <T extends { sortOrder: number; id: string }>(a: T, b: T) => a.sortOrder - b.sortOrder || a.id.localeCompare(b.id);
  const t = [...templates].sort(byOrder);
  const s = [...scenes].sort(byOrder);
  return { templates: t, scenes: s, templatesById: new Map(t.map((x) => [x.id, x])), scenesById: new Map(s.map((x) => [x.id, x])) };
}

let current: Snapshot = snapshotOf(seedTemplates(), seedScenes());

/** Replaces this process's snapshot (CatalogStore, after reading the database). */
export function replaceCatalog(templates: readonly CatalogTemplate[], scenes: readonly CatalogScene[]): void {
  current = snapshotOf(templates, scenes);
}

/** Every template of the snapshot, disabled ones included, in display order. */
export function catalogTemplates(): readonly CatalogTemplate[] {
  return current.templates;
}

/** Every scene of the snapshot, disabled ones included, in display order. */
export function catalogScenes(): readonly CatalogScene[] {
  return current.scenes;
}

export function isCategoryId(value: unknown): value is CategoryId {
  return typeof value === 'string' && (CATEGORY_IDS as readonly string[]).includes(value);
}

/** A label a generation may carry: a category with a screen, or `corporate` (no screen). */
export function isGenerationCategory(value: unknown): value is GenerationCategory {
  return typeof value === 'string' && (GENERATION_CATEGORIES as readonly string[]).includes(value);
}

/** A template by id, enabled or not (a generation under way keeps its template). */
export function findTemplate(id: string): CatalogTemplate | undefined {
  return current.templatesById.get(id);
}

/** A scene by id, enabled or not. */
export function findScene(id: string): CatalogScene | undefined {
  return current.scenesById.get(id);
}

/** The enabled templates of a category, in display order. */
export function templatesForCategory(category: CategoryId): TemplateDefinition[] {
  return current.templates.filter((t) => t.enabled && t.category === category);
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
 * The pose buttons of a category screen: its own enabled scenes plus the generic ones, cheapest
 * tier first, then by their order (seeded: category scenes before generic ones). Accepts the
 * aliases `activewear` and `dresses`.
 */
export function scenesForCategory(category: CategoryId | string): SceneDefinition[] {
  const prefix = scenePrefix(category);
  const owner = CATEGORIES.find((c) => c.scenePrefix === prefix)?.id ?? null;
  return current.scenes
    .filter((s) => s.enabled && (isGenericScene(s) || (owner !== null && sceneCategory(s.id) === owner)))
    .map((scene, index) => ({ scene, index }))
    .sort((a, b) => tierRank(a.scene.requiredTier) - tierRank(b.scene.requiredTier) || a.index - b.index)
    .map((x) => x.scene);
}

/** Whether a scene may be used on a category's screen (its own scene or a generic one). */
export function sceneBelongsTo(sceneId: string, category: CategoryId): boolean {
  const owner = sceneCategory(sceneId);
  return findScene(sceneId) !== undefined && (owner === null || owner === category);
}
