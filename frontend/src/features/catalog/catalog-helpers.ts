import { plural } from '@fitting-room/shared';
import { tierLabel } from '../profile/tier-label';
import type {
  CatalogCategoryDto,
  CatalogPlanDto,
  CatalogResponseDto,
  CatalogSceneDto,
  CatalogTemplateDto,
  Tier,
} from '@fitting-room/api-client';

/**
 * Reading the catalogue (GET /api/catalog). Every cost, tier name and price the UI shows comes
 * through these functions from the API's answer: none is written in the UI's code.
 */
export type Catalog = CatalogResponseDto;

/** What a generation is made of, as far as its cost goes. */
export type GenerationType = 'image' | 'video';
export type PoseChoice = { kind: 'scene'; sceneId: string } | { kind: 'custom' } | null;

export function planFor(catalog: Catalog, tier: Tier): CatalogPlanDto | undefined {
  return catalog.plans.find((plan) => plan.id === tier);
}

/** A tier's short name ("Glow Up"): the plan's `name`, for badges and "Requires: ...". */
export function tierName(catalog: Catalog, tier: Tier): string {
  return planFor(catalog, tier)?.name ?? tierLabel(tier);
}

export function categoryBySlug(catalog: Catalog, slug: string): CatalogCategoryDto | undefined {
  return catalog.categories.find((category) => category.slug === slug);
}

/** A generation's category label; records may carry a label with no screen (Corporate). */
export function categoryLabel(catalog: Catalog | undefined, id: string): string {
  return catalog?.categories.find((category) => category.id === id)?.label ?? humanize(id);
}

/** "corporate" -> "Corporate", "active_wear" -> "Active Wear". */
function humanize(id: string): string {
  return id
    .split(/[_-]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

function inOrder<T extends { id: string }>(ids: readonly string[], items: readonly T[]): T[] {
  const byId = new Map(items.map((item) => [item.id, item]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The category's templates, in the catalogue's display order. */
export function categoryTemplates(catalog: Catalog, category: CatalogCategoryDto): CatalogTemplateDto[] {
  return inOrder(category.templateIds, catalog.templates);
}

/** The category's pose buttons (its scenes and the generic ones), in display order. */
export function categoryScenes(catalog: Catalog, category: CatalogCategoryDto): CatalogSceneDto[] {
  return inOrder(category.sceneIds, catalog.scenes);
}

/** Credits of an image with this pose: the scene's cost, or the custom pose's. */
export function poseCost(catalog: Catalog, pose: PoseChoice): number | null {
  if (!pose) return null;
  if (pose.kind === 'custom') return catalog.customPose.creditCost;
  return catalog.scenes.find((scene) => scene.id === pose.sceneId)?.creditCost ?? null;
}

/** The cost rule of the catalogue: the pose's credits, plus the video surcharge for a video. */
export function generationCost(catalog: Catalog, pose: PoseChoice, type: GenerationType): number | null {
  const base = poseCost(catalog, pose);
  if (base === null) return null;
  return type === 'video' ? base + catalog.videoSurcharge : base;
}

/** "1 credit", "3 credits". */
export function formatCredits(credits: number): string {
  return plural(credits, 'credit');
}

/** A plan's price: "$12.99", "$0". */
export function formatPrice(amount: number, currency: string): string {
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency,
    minimumFractionDigits: Number.isInteger(amount) ? 0 : 2,
  }).format(amount);
}
