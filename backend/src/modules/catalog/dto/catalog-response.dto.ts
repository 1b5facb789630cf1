import { ApiProperty } from '@nestjs/swagger';
import { CATEGORY_IDS, type CategoryId } from '../catalog.types';
import { TIERS, type Tier } from '../tiers';

/** The response of GET /api/catalog. Class names become the typed client's type names. */

export class CatalogCategoryDto {
  @ApiProperty({ enum: CATEGORY_IDS, enumName: 'CategoryId', example: 'active_wear' })
  id: CategoryId;

  @ApiProperty({
    example: 'Active Wear',
    description: 'The category\'s one name: sidebar link, header, page title and "Your <label> Generations" all read it',
  })
  label: string;

  @ApiProperty({ example: 'active-wear', description: 'Route segment of the category screen: /dashboard/<slug>' })
  slug: string;

  @ApiProperty({ example: '/dashboard/active-wear' })
  path: string;

  @ApiProperty({ example: 'e.g. mid-stride on a city running track at sunrise', description: 'Placeholder of the "+ Custom" pose input' })
  customPoseHint: string;

  @ApiProperty({ type: [String], description: 'Ids of the templates of this category, in display order' })
  templateIds: string[];

  @ApiProperty({
    type: [String],
    description: 'Ids of the pose buttons of this category (its scenes plus the generic ones), in display order',
  })
  sceneIds: string[];
}

export class CatalogTemplateDto {
  @ApiProperty({ example: 'bikini-yellow' })
  id: string;

  @ApiProperty({ example: 'Sunshine Triangle Bikini' })
  name: string;

  @ApiProperty({ enum: CATEGORY_IDS, enumName: 'CategoryId' })
  category: CategoryId;

  @ApiProperty({ description: 'Shown to users' })
  description: string;

  @ApiProperty({ description: 'The outfit part of the AI prompt' })
  promptDescription: string;

  @ApiProperty({ enum: TIERS, enumName: 'Tier' })
  requiredTier: Tier;

  @ApiProperty({
    example: '/api/catalog/artwork/bikini-yellow.svg?v=3f2a9c1b7d4e',
    description: 'Relative URL of the SVG thumbnail (long-cached; the version changes with the image)',
  })
  thumbnail: string;

  @ApiProperty({ description: "true when the caller's tier is below requiredTier" })
  locked: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'https://shop.example/sunshine-bikini',
    description: '"Shop this look": an https link set by an admin (opened in a new tab), or null',
  })
  shopUrl: string | null;
}

export class CatalogSceneDto {
  @ApiProperty({ example: 'bikini-beach-walk' })
  id: string;

  @ApiProperty({ example: 'Beach Walk' })
  name: string;

  @ApiProperty({
    enum: [...CATEGORY_IDS, null],
    nullable: true,
    type: String,
    description: 'Owning category (by id prefix); null for a generic scene offered in every category',
  })
  category: CategoryId | null;

  @ApiProperty()
  description: string;

  @ApiProperty({ description: 'The scene part of the AI prompt' })
  promptDescription: string;

  @ApiProperty({ enum: TIERS, enumName: 'Tier' })
  requiredTier: Tier;

  @ApiProperty({ type: 'integer', example: 1, description: 'Credits for an image; a video adds videoSurcharge' })
  creditCost: number;

  @ApiProperty()
  thumbnail: string;

  @ApiProperty()
  locked: boolean;
}

export class CatalogCustomPoseDto {
  @ApiProperty({ example: 'custom' })
  id: string;

  @ApiProperty({ example: 'Custom' })
  name: string;

  @ApiProperty()
  description: string;

  @ApiProperty({ enum: TIERS, enumName: 'Tier' })
  requiredTier: Tier;

  @ApiProperty({ type: 'integer', example: 3 })
  creditCost: number;

  @ApiProperty()
  thumbnail: string;

  @ApiProperty()
  locked: boolean;
}

export class CatalogPlanDto {
  @ApiProperty({ enum: TIERS, enumName: 'Tier' })
  id: Tier;

  @ApiProperty({ example: 'Glow Up' })
  name: string;

  @ApiProperty({ example: 'Glow Up Plan' })
  displayName: string;

  @ApiProperty()
  description: string;

  @ApiProperty({ example: 12.99, description: 'USD per month' })
  price: number;

  @ApiProperty({ example: 'USD' })
  currency: string;

  @ApiProperty({ type: 'integer', example: 70 })
  monthlyCredits: number;

  @ApiProperty({ type: [String] })
  features: string[];

  @ApiProperty({ description: 'Shown with a "Most popular" badge (starter only)' })
  mostPopular: boolean;
}

export class CatalogPackDto {
  @ApiProperty({ example: 'pack-70' })
  id: string;

  @ApiProperty({ type: 'integer', example: 70 })
  credits: number;

  @ApiProperty({ type: 'integer', example: 5 })
  bonus: number;

  @ApiProperty({ type: 'integer', example: 75, description: 'credits + bonus' })
  totalCredits: number;

  @ApiProperty({ example: 14.99, description: 'USD, one-off' })
  price: number;

  @ApiProperty({ example: 'USD' })
  currency: string;
}

export class CatalogFeaturesDto {
  @ApiProperty({ description: 'The Spicy category is offered (FEATURE_SPICY)' })
  spicy: boolean;

  @ApiProperty({ description: 'Video generation is offered (FEATURE_VIDEO)' })
  video: boolean;

  @ApiProperty({ description: 'Analytics events are recorded (FEATURE_ANALYTICS)' })
  analytics: boolean;
}

export class CatalogViewerDto {
  @ApiProperty({ enum: TIERS, enumName: 'Tier', description: 'The tier the `locked` flags were computed for (free when signed out)' })
  tier: Tier;

  @ApiProperty({ description: 'The tier includes video and video is switched on' })
  canGenerateVideo: boolean;

  @ApiProperty({ description: 'Results of this tier carry a watermark' })
  watermarked: boolean;
}

export class CatalogResponseDto {
  @ApiProperty({ type: [CatalogCategoryDto] })
  categories: CatalogCategoryDto[];

  @ApiProperty({ type: [CatalogTemplateDto] })
  templates: CatalogTemplateDto[];

  @ApiProperty({ type: [CatalogSceneDto], description: 'Every scene: category scenes and generic ones' })
  scenes: CatalogSceneDto[];

  @ApiProperty({ type: CatalogCustomPoseDto })
  customPose: CatalogCustomPoseDto;

  @ApiProperty({ type: [CatalogPlanDto] })
  plans: CatalogPlanDto[];

  @ApiProperty({ type: [CatalogPackDto] })
  packs: CatalogPackDto[];

  @ApiProperty({ enum: TIERS, enumName: 'Tier', isArray: true, description: 'Tiers in ascending order' })
  tiers: Tier[];

  @ApiProperty({ type: 'integer', example: 3, description: 'Credits a video adds to the scene cost' })
  videoSurcharge: number;

  @ApiProperty({ type: CatalogFeaturesDto })
  features: CatalogFeaturesDto;

  @ApiProperty({ type: CatalogViewerDto })
  viewer: CatalogViewerDto;
}
