import type { CategoryDefinition, CategoryId } from '../catalog.types';

/**
 * The category screens, in the order of the dashboard's sidebar (docs/product.md). `label` is each
 * one's only name: the sidebar, the headers, "Your Dresses Generations" and the console read it.
 * Scene ids of a category start with its scenePrefix (active_wear -> activewear, dress -> dresses).
 */
export const CATEGORIES: readonly CategoryDefinition[] = [
  {
    id: 'active_wear',
    label: 'Active Wear',
    slug: 'active-wear',
    scenePrefix: 'activewear',
    customPoseHint: 'e.g. mid-stride on a city running track at sunrise, earbuds in',
  },
  {
    id: 'dress',
    label: 'Dresses',
    slug: 'dress',
    scenePrefix: 'dresses',
    customPoseHint: 'e.g. twirling on a cobblestone street in Paris, golden hour light',
  },
  {
    id: 'pajamas',
    label: 'Pajamas',
    slug: 'pajamas',
    scenePrefix: 'pajamas',
    customPoseHint: 'e.g. curled up on a sofa with a mug of cocoa and a blanket',
  },
  {
    id: 'bikini',
    label: 'Bikini',
    slug: 'bikini',
    scenePrefix: 'bikini',
    customPoseHint: 'e.g. walking out of the sea on a white-sand beach, hair wet',
  },
  {
    id: 'lingerie',
    label: 'Lingerie',
    slug: 'lingerie',
    scenePrefix: 'lingerie',
    customPoseHint: 'e.g. standing by a tall window in a softly lit hotel suite',
  },
  {
    id: 'spicy',
    label: 'Spicy',
    slug: 'spicy',
    scenePrefix: 'spicy',
    customPoseHint: 'e.g. posing on a glamorous stage under a single spotlight',
  },
];

/** `active_wear` and `activewear` both map to the activewear scene prefix; `dress` to dresses. */
export const SCENE_PREFIX_ALIASES: Readonly<Record<string, string>> = {
  activewear: 'activewear',
  active_wear: 'activewear',
  dress: 'dresses',
  dresses: 'dresses',
};

export function categoryById(id: CategoryId): CategoryDefinition {
  const category = CATEGORIES.find((c) => c.id === id);
  if (!category) throw new TypeError(`Unknown category: ${id}`);
  return category;
}
