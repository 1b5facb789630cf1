import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { OutfitArtwork, SceneArtwork } from '../catalog.types';

/**
 * The columns templates and scenes share. Each entity's table has its own copy of them (TypeORM's
 * concrete-table inheritance: this class has no table).
 */
abstract class CatalogItemColumns {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  id: string;

  @Column({ type: 'varchar', length: 80 })
  name: string;

  @Column({ type: 'varchar', length: 300 })
  description: string;

  @Column({ name: 'prompt_description', type: 'varchar', length: 300 })
  promptDescription: string;

  @Column({ name: 'required_tier', type: 'varchar', length: 32 })
  requiredTier: string;

  @Column({ name: 'sort_order', type: 'integer' })
  sortOrder: number;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}

/**
 * A template of the catalogue. Seeded from the typed data (data/templates.data.ts) by id, never
 * overwritten after: what an admin edits in the console stays. `garment_key` is the private
 * storage key of the garment photo vendors receive (null: they get the artwork).
 */
@Entity({ name: 'catalog_templates' })
export class CatalogTemplateEntity extends CatalogItemColumns {
  @Column({ type: 'varchar', length: 32 })
  category: string;

  @Column({ name: 'shop_url', type: 'varchar', length: 2000, nullable: true })
  shopUrl: string | null;

  @Column({ name: 'garment_key', type: 'varchar', length: 512, nullable: true })
  garmentKey: string | null;

  /** the thumbnail an admin uploaded (a public catalogue picture); null: the drawn artwork */
  @Column({ name: 'thumbnail_key', type: 'varchar', length: 512, nullable: true })
  thumbnailKey: string | null;

  @Column({ type: 'jsonb' })
  artwork: OutfitArtwork;
}

/** A scene (pose) of the catalogue, seeded like templates (its category is its id's prefix); `reference_key`: its optional reference photo. */
@Entity({ name: 'catalog_scenes' })
export class CatalogSceneEntity extends CatalogItemColumns {
  @Column({ name: 'credit_cost', type: 'integer' })
  creditCost: number;

  @Column({ name: 'reference_key', type: 'varchar', length: 512, nullable: true })
  referenceKey: string | null;

  @Column({ type: 'jsonb' })
  artwork: SceneArtwork;
}

/**
 * One row (id 1): the catalogue's version, raised in the same transaction as every change. Each
 * process compares it every few seconds and reloads its in-memory snapshot when it moved.
 */
@Entity({ name: 'catalog_version' })
export class CatalogVersionEntity {
  @PrimaryColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'bigint' })
  version: string;
}
