import type { Tier } from './tiers';

/** The six categories with a screen (docs/product.md). */
export const CATEGORY_IDS = ['active_wear', 'dress', 'pajamas', 'bikini', 'lingerie', 'spicy'] as const;
export type CategoryId = (typeof CATEGORY_IDS)[number];

/** Labels a generation record may carry: the six categories plus `corporate`, which has no screen. */
export const GENERATION_CATEGORIES = [...CATEGORY_IDS, 'corporate'] as const;
export type GenerationCategory = (typeof GENERATION_CATEGORIES)[number];

export const GENERATION_TYPES = ['image', 'video'] as const;
export type GenerationType = (typeof GENERATION_TYPES)[number];

export interface CategoryDefinition {
  id: CategoryId;
  /** The category's one name, everywhere: sidebar, header, page title, "Your <label> Generations", console: "Active Wear", "Dresses" */
  label: string;
  /** Route segment: /dashboard/<slug> */
  slug: string;
  /** Scenes of this category have ids starting with `<scenePrefix>-` */
  scenePrefix: string;
  /** Placeholder of the "+ Custom" pose input */
  customPoseHint: string;
}

// ---- artwork parameters -------------------------------------------------------------------

/** How an outfit is drawn: the garment cut on the croquis (see artwork/garments.ts). */
export type OutfitShape =
  // swimwear
  | 'bikini-triangle'
  | 'bikini-bandeau'
  | 'bikini-halter'
  | 'bikini-sporty'
  | 'bikini-high-waist'
  | 'bikini-sarong'
  | 'swimsuit'
  | 'swimsuit-halter'
  // lingerie
  | 'bralette-set'
  | 'balconette-set'
  | 'longline-set'
  | 'bodysuit'
  | 'corset-set'
  | 'slip'
  | 'chemise'
  | 'robe-set'
  // active wear
  | 'bra-leggings'
  | 'bra-bike-shorts'
  | 'tank-leggings'
  | 'crop-flare-leggings'
  | 'jacket-leggings'
  | 'tennis-dress'
  | 'unitard'
  | 'tracksuit'
  | 'tank-running-shorts'
  | 'hoodie-leggings'
  // dresses
  | 'bodycon'
  | 'sundress'
  | 'wrap-dress'
  | 'shirt-dress'
  | 'knit-dress'
  | 'skater-dress'
  | 'slip-dress'
  | 'sequin-mini'
  | 'maxi-dress'
  | 'off-shoulder-dress'
  | 'ball-gown'
  | 'blazer-dress'
  // sleepwear
  | 'pj-long'
  | 'pj-shorts'
  | 'cami-shorts'
  | 'tee-shorts'
  | 'nightgown'
  | 'onesie'
  | 'robe'
  | 'lounge-set'
  // costumes and evening looks
  | 'uniform-dress'
  | 'skirt-suit'
  | 'corset-gown'
  | 'burlesque'
  | 'catsuit'
  | 'party-dress'
  | 'pirate'
  | 'cape-gown';

export type FabricPattern =
  'solid' | 'stripes' | 'dots' | 'floral' | 'leopard' | 'plaid' | 'gingham' | 'sequins' | 'lace' | 'ribbed' | 'camo' | 'stars';

export type Accessory =
  | 'nurse-cap'
  | 'pillbox-hat'
  | 'peaked-cap'
  | 'pirate-hat'
  | 'horns'
  | 'halo'
  | 'wings'
  | 'cat-ears'
  | 'feather-headdress'
  | 'neck-scarf'
  | 'belt'
  | 'badge'
  | 'gloves'
  | 'sun-hat'
  | 'sunglasses'
  | 'pearls'
  | 'headband'
  | 'sleep-mask'
  | 'mask'
  | 'hood';

export type Footwear = 'bare' | 'heels' | 'sneakers' | 'slippers' | 'boots' | 'sandals';

export interface OutfitPalette {
  /** Main fabric */
  primary: string;
  /** Second piece, trims, pattern motif */
  secondary: string;
  /** Small details: buttons, hardware, accessories */
  accent: string;
}

export interface OutfitArtwork {
  shape: OutfitShape;
  palette: OutfitPalette;
  pattern?: FabricPattern;
  /** Satin, silk or latex-look shine */
  sheen?: boolean;
  accessories?: readonly Accessory[];
  footwear?: Footwear;
}

export type SceneSetting =
  | 'beach'
  | 'yacht'
  | 'lagoon'
  | 'pool'
  | 'bedroom'
  | 'bathroom'
  | 'gym'
  | 'trail'
  | 'yoga-studio'
  | 'tennis-court'
  | 'city-street'
  | 'garden'
  | 'red-carpet'
  | 'cafe'
  | 'rooftop'
  | 'kitchen'
  | 'living-room'
  | 'window-seat'
  | 'cabin'
  | 'vanity'
  | 'hotel-window'
  | 'chaise'
  | 'studio'
  | 'neon-lounge'
  | 'cabaret'
  | 'ballroom'
  | 'custom';

/** 'floor': sitting with the legs stretched out (on a mat or a sun lounger) */
export type ScenePose = 'standing' | 'walking' | 'sitting' | 'floor';

export interface SceneArtwork {
  setting: SceneSetting;
  pose: ScenePose;
  /** Time of day for outdoor and window settings */
  light?: 'day' | 'golden' | 'night';
}

// ---- catalogue items ----------------------------------------------------------------------

export interface TemplateDefinition {
  /** e.g. bikini-yellow, activewear-1 */
  id: string;
  name: string;
  category: CategoryId;
  /** Shown to users */
  description: string;
  /** Goes into the AI prompt: "show the woman " + this + ", " + the scene's promptDescription */
  promptDescription: string;
  requiredTier: Tier;
  artwork: OutfitArtwork;
}

export interface SceneDefinition {
  /** `<category prefix>-...` for a category scene; no category prefix for a generic scene */
  id: string;
  name: string;
  description: string;
  /** Goes into the AI prompt after the outfit */
  promptDescription: string;
  requiredTier: Tier;
  /** Image cost in credits; video adds VIDEO_SURCHARGE */
  creditCost: number;
  artwork: SceneArtwork;
}

/** A template as the live catalogue holds it: its definition plus what the console manages. */
export interface CatalogTemplate extends TemplateDefinition {
  /** Display order within its category (ascending) */
  sortOrder: number;
  /** A disabled template is left out of GET /api/catalog and refused for new generations */
  enabled: boolean;
  /** "Shop this look": an https link, or null */
  shopUrl: string | null;
  /** Private storage key of the garment photo vendors receive; null: they receive the artwork */
  garmentKey: string | null;
  /** Storage key of the thumbnail an admin uploaded (served publicly); null: the drawn artwork is the thumbnail */
  thumbnailKey: string | null;
}

/** A scene as the live catalogue holds it. */
export interface CatalogScene extends SceneDefinition {
  /** Display order within a tier (ascending); pose buttons are sorted by tier first */
  sortOrder: number;
  enabled: boolean;
  /** Private storage key of the scene's reference photo, or null */
  referenceKey: string | null;
}

/** What the live catalogue gives a plan's feature text: the least and most a video costs on that plan. */
export interface PlanCostFacts {
  video: { min: number; max: number } | null;
}

/** A line of a plan card: fixed text, or text made from the live catalogue's costs (see planFeatures). */
export type PlanFeature = string | ((costs: PlanCostFacts) => string);

export interface PlanDefinition {
  id: Tier;
  name: string;
  displayName: string;
  description: string;
  /** USD per month */
  price: number;
  monthlyCredits: number;
  features: readonly PlanFeature[];
  mostPopular: boolean;
}

export interface CreditPackDefinition {
  id: string;
  credits: number;
  /** USD, one-off */
  price: number;
  bonus: number;
}
