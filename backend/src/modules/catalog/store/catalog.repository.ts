import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { insertMissingSeed } from './catalog-seed';
import { CatalogSceneEntity, CatalogTemplateEntity, CatalogVersionEntity } from './catalog.entities';
import type { CatalogScene, CatalogTemplate, CategoryId } from '../catalog.types';
import type { Tier } from '../tiers';

export function toTemplate(row: CatalogTemplateEntity): CatalogTemplate {
  return {
    id: row.id,
    name: row.name,
    category: row.category as CategoryId,
    description: row.description,
    promptDescription: row.promptDescription,
    requiredTier: row.requiredTier as Tier,
    artwork: row.artwork,
    sortOrder: row.sortOrder,
    enabled: row.enabled,
    shopUrl: row.shopUrl,
    garmentKey: row.garmentKey,
    thumbnailKey: row.thumbnailKey,
  };
}

export function toScene(row: CatalogSceneEntity): CatalogScene {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    promptDescription: row.promptDescription,
    requiredTier: row.requiredTier as Tier,
    creditCost: row.creditCost,
    artwork: row.artwork,
    sortOrder: row.sortOrder,
    enabled: row.enabled,
    referenceKey: row.referenceKey,
  };
}

/** The catalogue's tables: catalog_templates, catalog_scenes and catalog_version. */
@Injectable()
export class CatalogRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** The catalogue's version (raised by every change). */
  async version(): Promise<string> {
    const row = await this.db.manager.findOneBy(CatalogVersionEntity, { id: 1 });
    return row?.version ?? '0';
  }

  /** Raises the version inside the change's transaction: every process reloads after it commits. */
  async bumpVersion(m: EntityManager): Promise<void> {
    await m.query(`UPDATE "catalog_version" SET "version" = "version" + 1 WHERE "id" = 1`);
  }

  /** Inserts the seed rows that are missing (never overwrites); raises the version when it inserted any. */
  async insertMissingSeed(): Promise<number> {
    return this.db.transaction(async (m) => {
      const inserted = await insertMissingSeed((sql, params) => m.query(sql, params));
      if (inserted > 0) await this.bumpVersion(m);
      return inserted;
    });
  }

  /** Every row with the version they belong to, read in one snapshot. */
  async loadAll(): Promise<{ version: string; templates: CatalogTemplateEntity[]; scenes: CatalogSceneEntity[] }> {
    return this.db.transaction('REPEATABLE READ', async (m) => {
      const version = (await m.findOneBy(CatalogVersionEntity, { id: 1 }))?.version ?? '0';
      const templates = await m.find(CatalogTemplateEntity);
      const scenes = await m.find(CatalogSceneEntity);
      return { version, templates, scenes };
    });
  }

  templates(): Promise<CatalogTemplateEntity[]> {
    return this.db.manager.find(CatalogTemplateEntity);
  }

  scenes(): Promise<CatalogSceneEntity[]> {
    return this.db.manager.find(CatalogSceneEntity);
  }

  /** A template, locked for the rest of the transaction when `m` is given. */
  template(id: string, m?: EntityManager): Promise<CatalogTemplateEntity | null> {
    const manager = m ?? this.db.manager;
    return manager.findOne(CatalogTemplateEntity, { where: { id }, ...(m ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
  }

  scene(id: string, m?: EntityManager): Promise<CatalogSceneEntity | null> {
    const manager = m ?? this.db.manager;
    return manager.findOne(CatalogSceneEntity, { where: { id }, ...(m ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
  }

  async insertTemplate(row: Omit<CatalogTemplateEntity, 'createdAt' | 'updatedAt'>, m: EntityManager): Promise<void> {
    await m.insert(CatalogTemplateEntity, row as never);
  }

  async insertScene(row: Omit<CatalogSceneEntity, 'createdAt' | 'updatedAt'>, m: EntityManager): Promise<void> {
    await m.insert(CatalogSceneEntity, row as never);
  }

  async updateTemplate(id: string, patch: Partial<CatalogTemplateEntity>, m: EntityManager): Promise<void> {
    await m.update(CatalogTemplateEntity, { id }, patch as never);
  }

  async updateScene(id: string, patch: Partial<CatalogSceneEntity>, m: EntityManager): Promise<void> {
    await m.update(CatalogSceneEntity, { id }, patch as never);
  }
}
