import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { CATEGORY_IDS, type CategoryId } from '../catalog.types';
import { TIERS, type Tier } from '../tiers';

/** Limits of the console's catalogue fields (the columns of catalog_templates / catalog_scenes). */
export const CATALOG_FIELD_LIMITS = {
  id: 64,
  name: 80,
  description: 300,
  promptDescription: 300,
  shopUrl: 2000,
  maxSortOrder: 1_000_000,
  maxCreditCost: 1000,
} as const;

/** Ids are lowercase words joined by hyphens: bikini-yellow, activewear-1, beach-standing. */
export const CATALOG_ID_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const TIER_MESSAGE = `required_tier must be one of: ${TIERS.join(', ')}`;

/** A field's rules, required (POST) or optional (PATCH). */
function field(required: boolean, swagger: ApiPropertyOptions, ...rules: PropertyDecorator[]): PropertyDecorator {
  return required ? applyDecorators(ApiProperty(swagger), ...rules) : applyDecorators(ApiPropertyOptional(swagger), IsOptional(), ...rules);
}

const Name = (required: boolean) =>
  field(required, { maxLength: CATALOG_FIELD_LIMITS.name }, IsString(), MaxLength(CATALOG_FIELD_LIMITS.name));
const Description = () =>
  field(
    false,
    { maxLength: CATALOG_FIELD_LIMITS.description, description: 'shown to users' },
    IsString(),
    MaxLength(CATALOG_FIELD_LIMITS.description),
  );
const PromptText = (required: boolean) =>
  field(
    required,
    { maxLength: CATALOG_FIELD_LIMITS.promptDescription, description: 'goes into the AI prompt; checked like a custom pose' },
    IsString(),
    MaxLength(CATALOG_FIELD_LIMITS.promptDescription),
  );
const RequiredTier = (required: boolean) => field(required, { enum: TIERS, enumName: 'Tier' }, IsIn(TIERS, { message: TIER_MESSAGE }));
const SortOrder = () =>
  field(
    false,
    { type: 'integer', minimum: 0, maximum: CATALOG_FIELD_LIMITS.maxSortOrder, description: 'display order (ascending)' },
    IsInt(),
    Min(0),
    Max(CATALOG_FIELD_LIMITS.maxSortOrder),
  );
const Enabled = () => field(false, { description: 'disabled: left out of the catalogue, refused for new generations' }, IsBoolean());
const CreditCost = (required: boolean) =>
  field(
    required,
    {
      type: 'integer',
      minimum: 1,
      maximum: CATALOG_FIELD_LIMITS.maxCreditCost,
      description: "credits for an image; a video adds the catalogue's videoSurcharge",
    },
    IsInt(),
    Min(1),
    Max(CATALOG_FIELD_LIMITS.maxCreditCost),
  );
const ShopUrl = () =>
  field(
    false,
    {
      type: String,
      nullable: true,
      maxLength: CATALOG_FIELD_LIMITS.shopUrl,
      description: '"Shop this look": an https link; null or empty removes it',
    },
    ValidateIf((_o, v) => v !== null),
    IsString(),
    MaxLength(CATALOG_FIELD_LIMITS.shopUrl),
  );
const Id = (example: string) =>
  applyDecorators(
    ApiProperty({ example, maxLength: CATALOG_FIELD_LIMITS.id, description: 'lowercase words joined by hyphens; cannot change later' }),
    IsString(),
    MaxLength(CATALOG_FIELD_LIMITS.id),
    Matches(CATALOG_ID_PATTERN, { message: `id must be lowercase letters and digits joined by hyphens, e.g. ${example}` }),
  );

/** A template as the console shows and edits it. */
export class AdminTemplateDto {
  @ApiProperty({ example: 'bikini-yellow' }) id: string;
  @ApiProperty({ example: 'Sunshine Triangle Bikini' }) name: string;
  @ApiProperty({ enum: CATEGORY_IDS, enumName: 'CategoryId' }) category: CategoryId;
  @ApiProperty({ description: 'shown to users' }) description: string;
  @ApiProperty({ description: 'the outfit part of the AI prompt' }) prompt_description: string;
  @ApiProperty({ enum: TIERS, enumName: 'Tier' }) required_tier: Tier;
  @ApiProperty({ type: 'integer', description: 'display order within the category (ascending)' }) sort_order: number;
  @ApiProperty({ description: 'disabled: left out of the catalogue and refused for new generations' }) enabled: boolean;
  @ApiProperty({ type: String, nullable: true, description: '"Shop this look" (https), or null' }) shop_url: string | null;
  @ApiProperty({ description: 'relative URL of the thumbnail: the one uploaded in the console, else the illustrated artwork' })
  thumbnail: string;
  @ApiProperty({ description: 'whether an admin uploaded the thumbnail (else it is the illustrated artwork)' })
  has_uploaded_thumbnail: boolean;
  @ApiProperty({ description: 'whether vendors receive a garment photo (else the artwork)' }) has_garment_photo: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'a short-lived signed link to the garment photo, given to admins only; null when there is none',
  })
  garment_photo_url: string | null;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

/** What PATCH /api/admin/templates/{id} may change; absent fields stay. */
export class AdminTemplateUpdateDto {
  @Name(false) name?: string;
  @Description() description?: string;
  @PromptText(false) prompt_description?: string;
  @RequiredTier(false) required_tier?: Tier;
  @SortOrder() sort_order?: number;
  @Enabled() enabled?: boolean;
  @ShopUrl() shop_url?: string | null;
}

/** POST /api/admin/templates: a new template (its thumbnail is drawn like its category's first template). */
export class AdminTemplateCreateDto {
  @Id('bikini-lilac') id: string;
  @ApiProperty({ enum: CATEGORY_IDS, enumName: 'CategoryId' })
  @IsIn(CATEGORY_IDS, { message: `category must be one of: ${CATEGORY_IDS.join(', ')}` })
  category: CategoryId;
  @Name(true) name: string;
  @Description() description?: string;
  @PromptText(true) prompt_description: string;
  @RequiredTier(true) required_tier: Tier;
  @SortOrder() sort_order?: number;
  @Enabled() enabled?: boolean;
  @ShopUrl() shop_url?: string | null;
}

/** A scene as the console shows and edits it. */
export class AdminSceneDto {
  @ApiProperty({ example: 'bikini-beach-walk' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({
    enum: [...CATEGORY_IDS, null],
    nullable: true,
    type: String,
    description: 'owning category (by id prefix); null for a generic scene',
  })
  category: CategoryId | null;
  @ApiProperty() description: string;
  @ApiProperty({ description: 'the scene part of the AI prompt' }) prompt_description: string;
  @ApiProperty({ enum: TIERS, enumName: 'Tier' }) required_tier: Tier;
  @ApiProperty({ type: 'integer', description: 'credits for an image (a video adds the catalogue’s videoSurcharge)' }) credit_cost: number;
  @ApiProperty({ type: 'integer' }) sort_order: number;
  @ApiProperty() enabled: boolean;
  @ApiProperty() thumbnail: string;
  @ApiProperty() has_reference_photo: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'a short-lived signed link to the reference photo (admins only), or null' })
  reference_photo_url: string | null;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

/** What PATCH /api/admin/scenes/{id} may change; absent fields stay. */
export class AdminSceneUpdateDto {
  @Name(false) name?: string;
  @Description() description?: string;
  @PromptText(false) prompt_description?: string;
  @RequiredTier(false) required_tier?: Tier;
  @CreditCost(false) credit_cost?: number;
  @SortOrder() sort_order?: number;
  @Enabled() enabled?: boolean;
}

/** POST /api/admin/scenes: a category scene's id starts with its category's prefix (bikini-, activewear-...); others are generic. */
export class AdminSceneCreateDto {
  @Id('bikini-sunset-pier') id: string;
  @Name(true) name: string;
  @Description() description?: string;
  @PromptText(true) prompt_description: string;
  @RequiredTier(true) required_tier: Tier;
  @CreditCost(true) credit_cost: number;
  @SortOrder() sort_order?: number;
  @Enabled() enabled?: boolean;
}
