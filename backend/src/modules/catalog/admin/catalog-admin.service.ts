import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import sharp from 'sharp';
import { ConflictError, NotFoundError, ValidationError } from '../../../common/errors';
import { parseListQuery, type ListParams, type SimpleRestQueryDto } from '../../../common/simple-rest';
import { STORAGE, type StoragePort } from '../../../storage';
import { AuditAction, AuditService } from '../../audit/audit.service';
import { PhotoIntakeService } from '../../uploads/photo-intake.service';
import { ArtworkService, THUMBNAIL_PHOTO_BOX, uploadedThumbnailUrl } from '../artwork.service';
import { sceneCategory, templatesForCategory, TEMPLATES } from '../catalog';
import { catalogPromptProblem, FORBIDDEN_WORDS } from '../catalog-text.policy';
import { CatalogSceneEntity, CatalogTemplateEntity } from '../store/catalog.entities';
import { CatalogRepository } from '../store/catalog.repository';
import { CatalogStore } from '../store/catalog.store';
import type { CategoryId, SceneArtwork } from '../catalog.types';
import type {
  AdminSceneCreateDto,
  AdminSceneDto,
  AdminSceneUpdateDto,
  AdminTemplateCreateDto,
  AdminTemplateDto,
  AdminTemplateUpdateDto,
} from './catalog-admin.dto';
import type { EntityManager } from 'typeorm';

/** The console's catalogue messages (VALIDATION_ERROR, NOT_FOUND, CONFLICT). */
export const CATALOG_ADMIN_MESSAGES = {
  templateNotFound: 'Template not found.',
  sceneNotFound: 'Scene not found.',
  exists: (id: string) => `The id ${id} is taken: choose another.`,
  nameEmpty: 'Please enter a name.',
  promptEmpty: 'Please enter the prompt text.',
  forbiddenWord: 'Catalogue text may not mention nudity, see-through clothing or anything that suggests a minor.',
  shopUrl: 'The shop link must be a full https:// address, e.g. https://shop.example/item.',
  noPhoto: 'Please choose a photo to upload',
} as const;

export const CATALOG_AUDIT = {
  templateCreate: AuditAction.CatalogTemplateCreate,
  templateUpdate: AuditAction.CatalogTemplateUpdate,
  templatePhoto: AuditAction.CatalogTemplateGarment,
  templateThumbnail: AuditAction.CatalogTemplateThumbnail,
  sceneCreate: AuditAction.CatalogSceneCreate,
  sceneUpdate: AuditAction.CatalogSceneUpdate,
  scenePhoto: AuditAction.CatalogSceneReference,
} as const;

/** A new scene's picture when nothing else says how to draw it. */
const DEFAULT_SCENE_ARTWORK: SceneArtwork = { setting: 'studio', pose: 'standing' };

/** A console link to a catalogue photo lives this long (seconds). */
export const CATALOG_PHOTO_LINK_TTL_SECONDS = 600;

type Kind = 'template' | 'scene';

const TEMPLATE_SORTABLE = ['id', 'name', 'category', 'required_tier', 'sort_order', 'enabled', 'updated_at'] as const;
const SCENE_SORTABLE = [...TEMPLATE_SORTABLE, 'credit_cost'] as const;
const FILTERS = ['q', 'id', 'category', 'required_tier', 'enabled'] as const;
type Filter = (typeof FILTERS)[number];

/** An https link for "Shop this look" (no credentials in it), or null for an empty value. */
export function normalizeShopUrl(value: string | null | undefined): string | null {
  const text = (value ?? '').trim();
  if (text === '') return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ValidationError(CATALOG_ADMIN_MESSAGES.shopUrl);
  }
  if (url.protocol !== 'https:' || !url.hostname.includes('.') || url.username || url.password)
    throw new ValidationError(CATALOG_ADMIN_MESSAGES.shopUrl);
  return url.toString();
}

/** Trims the texts of a change and refuses what no catalogue text may say. */
function checkTexts(change: { name?: string; description?: string; prompt_description?: string }, promptChanged: boolean): void {
  if (change.name !== undefined) {
    change.name = change.name.trim();
    if (change.name === '') throw new ValidationError(CATALOG_ADMIN_MESSAGES.nameEmpty);
  }
  if (change.description !== undefined) change.description = change.description.trim();
  if (change.prompt_description !== undefined) change.prompt_description = change.prompt_description.trim();
  for (const text of [change.name, change.description, change.prompt_description]) {
    if (text !== undefined && FORBIDDEN_WORDS.test(text)) throw new ValidationError(CATALOG_ADMIN_MESSAGES.forbiddenWord);
  }
  if (promptChanged && change.prompt_description !== undefined) {
    // the same check as a custom pose: the text goes into the AI prompt
    const problem = catalogPromptProblem(change.prompt_description);
    if (problem) throw new ValidationError(problem.empty ? CATALOG_ADMIN_MESSAGES.promptEmpty : problem.message);
  }
}

/**
 * The console's catalogue: lists (ra-data-simple-rest), create, edit and the photos. Every change
 * is one transaction with its audit row and a raised catalogue version, so every API process
 * shows it within seconds (CatalogStore); this process reloads at once.
 */
@Injectable()
export class CatalogAdminService {
  private readonly logger = new Logger('CatalogAdmin');

  constructor(
    private readonly repo: CatalogRepository,
    private readonly store: CatalogStore,
    private readonly artwork: ArtworkService,
    private readonly intake: PhotoIntakeService,
    private readonly audit: AuditService,
    @Inject(STORAGE) private readonly storage: StoragePort,
  ) {}

  // ---- lists ------------------------------------------------------------------------------

  parse(query: SimpleRestQueryDto, kind: Kind): ListParams<Filter> {
    const fields = kind === 'template' ? TEMPLATE_SORTABLE : SCENE_SORTABLE;
    return parseListQuery(query, {
      sortable: Object.fromEntries(fields.map((f) => [f, f])),
      defaultSort: ['sort_order', 'ASC'],
      defaultPageSize: 100,
      filters: FILTERS,
    });
  }

  async listTemplates(params: ListParams<Filter>): Promise<{ rows: AdminTemplateDto[]; total: number }> {
    const rows = await Promise.all((await this.repo.templates()).map((r) => this.templateDto(r)));
    return page(rows, params);
  }

  async listScenes(params: ListParams<Filter>): Promise<{ rows: AdminSceneDto[]; total: number }> {
    const rows = await Promise.all((await this.repo.scenes()).map((r) => this.sceneDto(r)));
    return page(rows, params);
  }

  async template(id: string): Promise<AdminTemplateDto> {
    const row = await this.repo.template(id);
    if (!row) throw new NotFoundError(CATALOG_ADMIN_MESSAGES.templateNotFound);
    return this.templateDto(row);
  }

  async scene(id: string): Promise<AdminSceneDto> {
    const row = await this.repo.scene(id);
    if (!row) throw new NotFoundError(CATALOG_ADMIN_MESSAGES.sceneNotFound);
    return this.sceneDto(row);
  }

  // ---- changes ----------------------------------------------------------------------------

  async createTemplate(actorId: string, dto: AdminTemplateCreateDto): Promise<AdminTemplateDto> {
    const change = { ...dto, description: dto.description ?? '' };
    checkTexts(change, true);
    const shopUrl = normalizeShopUrl(dto.shop_url);
    await this.change(async (m) => {
      if ((await this.repo.template(dto.id, m)) || (await this.repo.scene(dto.id, m)))
        throw new ConflictError(CATALOG_ADMIN_MESSAGES.exists(dto.id));
      const row = {
        id: dto.id,
        category: dto.category,
        name: change.name,
        description: change.description,
        promptDescription: change.prompt_description,
        requiredTier: dto.required_tier,
        sortOrder: dto.sort_order ?? (await this.nextOrder()),
        enabled: dto.enabled ?? true,
        shopUrl,
        garmentKey: null,
        thumbnailKey: null,
        artwork: this.defaultOutfit(dto.category),
      };
      await this.repo.insertTemplate(row, m);
      await this.audit.record(
        { actorId, action: CATALOG_AUDIT.templateCreate, targetType: 'catalog_template', targetId: dto.id, after: templateAudit(row) },
        m,
      );
    });
    return this.template(dto.id);
  }

  async updateTemplate(actorId: string, id: string, dto: AdminTemplateUpdateDto): Promise<AdminTemplateDto> {
    await this.change(async (m) => {
      const row = await this.repo.template(id, m);
      if (!row) throw new NotFoundError(CATALOG_ADMIN_MESSAGES.templateNotFound);
      const change = { ...dto };
      checkTexts(change, dto.prompt_description !== undefined && dto.prompt_description.trim() !== row.promptDescription);
      const next: Partial<CatalogTemplateEntity> = {};
      if (change.name !== undefined) next.name = change.name;
      if (change.description !== undefined) next.description = change.description;
      if (change.prompt_description !== undefined) next.promptDescription = change.prompt_description;
      if (dto.required_tier !== undefined) next.requiredTier = dto.required_tier;
      if (dto.sort_order !== undefined) next.sortOrder = dto.sort_order;
      if (dto.enabled !== undefined) next.enabled = dto.enabled;
      if (dto.shop_url !== undefined) next.shopUrl = normalizeShopUrl(dto.shop_url);
      const changed = changedFields(row, next);
      if (Object.keys(changed).length === 0) return false;
      await this.repo.updateTemplate(id, changed, m);
      await this.audit.record(
        {
          actorId,
          action: CATALOG_AUDIT.templateUpdate,
          targetType: 'catalog_template',
          targetId: id,
          before: templateAudit(pick(row, changed)),
          after: templateAudit(changed),
        },
        m,
      );
    });
    return this.template(id);
  }

  async createScene(actorId: string, dto: AdminSceneCreateDto): Promise<AdminSceneDto> {
    const change = { ...dto, description: dto.description ?? '' };
    checkTexts(change, true);
    await this.change(async (m) => {
      if ((await this.repo.scene(dto.id, m)) || (await this.repo.template(dto.id, m)))
        throw new ConflictError(CATALOG_ADMIN_MESSAGES.exists(dto.id));
      const row = {
        id: dto.id,
        name: change.name,
        description: change.description,
        promptDescription: change.prompt_description,
        requiredTier: dto.required_tier,
        creditCost: dto.credit_cost,
        sortOrder: dto.sort_order ?? (await this.nextOrder()),
        enabled: dto.enabled ?? true,
        referenceKey: null,
        artwork: DEFAULT_SCENE_ARTWORK,
      };
      await this.repo.insertScene(row, m);
      await this.audit.record(
        { actorId, action: CATALOG_AUDIT.sceneCreate, targetType: 'catalog_scene', targetId: dto.id, after: sceneAudit(row) },
        m,
      );
    });
    return this.scene(dto.id);
  }

  async updateScene(actorId: string, id: string, dto: AdminSceneUpdateDto): Promise<AdminSceneDto> {
    await this.change(async (m) => {
      const row = await this.repo.scene(id, m);
      if (!row) throw new NotFoundError(CATALOG_ADMIN_MESSAGES.sceneNotFound);
      const change = { ...dto };
      checkTexts(change, dto.prompt_description !== undefined && dto.prompt_description.trim() !== row.promptDescription);
      const next: Partial<CatalogSceneEntity> = {};
      if (change.name !== undefined) next.name = change.name;
      if (change.description !== undefined) next.description = change.description;
      if (change.prompt_description !== undefined) next.promptDescription = change.prompt_description;
      if (dto.required_tier !== undefined) next.requiredTier = dto.required_tier;
      if (dto.credit_cost !== undefined) next.creditCost = dto.credit_cost;
      if (dto.sort_order !== undefined) next.sortOrder = dto.sort_order;
      if (dto.enabled !== undefined) next.enabled = dto.enabled;
      const changed = changedFields(row, next);
      if (Object.keys(changed).length === 0) return false;
      await this.repo.updateScene(id, changed, m);
      await this.audit.record(
        {
          actorId,
          action: CATALOG_AUDIT.sceneUpdate,
          targetType: 'catalog_scene',
          targetId: id,
          before: sceneAudit(pick(row, changed)),
          after: sceneAudit(changed),
        },
        m,
      );
    });
    return this.scene(id);
  }

  /** The garment photo vendors receive for this template, through the uploads' intake; replaces the previous one. */
  async setGarmentPhoto(actorId: string, id: string, file: { buffer: Buffer } | undefined): Promise<AdminTemplateDto> {
    if (!(await this.repo.template(id))) throw new NotFoundError(CATALOG_ADMIN_MESSAGES.templateNotFound);
    await this.replacePhoto('template', actorId, id, file);
    return this.template(id);
  }

  /**
   * The template's thumbnail (a public catalogue picture, in place of the drawn artwork): through the
   * uploads' intake (a real image, under 10MB, at most 40 MP, re-encoded without metadata), fitted
   * inside THUMBNAIL_PHOTO_BOX; replaces the previous one. Vendors never receive it.
   */
  async setThumbnail(actorId: string, id: string, file: { buffer: Buffer } | undefined): Promise<AdminTemplateDto> {
    if (!(await this.repo.template(id))) throw new NotFoundError(CATALOG_ADMIN_MESSAGES.templateNotFound);
    if (!file?.buffer?.length) throw new ValidationError(CATALOG_ADMIN_MESSAGES.noPhoto);
    const photo = await this.intake.acceptOne(file.buffer);
    const { data: jpeg, info } = await sharp(photo.jpeg)
      .resize({ ...THUMBNAIL_PHOTO_BOX, fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 85, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
    const key = `catalog/templates/${id}/thumbnail-${randomUUID()}.jpg`;
    await this.storage.put(key, jpeg, { contentType: 'image/jpeg' });
    const replaced: { key: string | null } = { key: null };
    try {
      await this.change(async (m) => {
        const row = await this.repo.template(id, m);
        if (!row) throw new NotFoundError(CATALOG_ADMIN_MESSAGES.templateNotFound);
        replaced.key = row.thumbnailKey;
        await this.repo.updateTemplate(id, { thumbnailKey: key }, m);
        await this.audit.record(
          {
            actorId,
            action: CATALOG_AUDIT.templateThumbnail,
            targetType: 'catalog_template',
            targetId: id,
            before: { thumbnail: replaced.key },
            after: { thumbnail: key, width: info.width, height: info.height, bytes: jpeg.length },
          },
          m,
        );
      });
    } catch (error) {
      await this.storage.delete(key).catch((err: unknown) => this.logger.warn({ err, key }, 'could not remove an unused thumbnail'));
      throw error;
    }
    const old = replaced.key;
    if (old)
      await this.storage.delete(old).catch((err: unknown) => this.logger.warn({ err, key: old }, 'could not remove a replaced thumbnail'));
    return this.template(id);
  }

  /** The scene's reference photo; replaces the previous one. */
  async setReferencePhoto(actorId: string, id: string, file: { buffer: Buffer } | undefined): Promise<AdminSceneDto> {
    if (!(await this.repo.scene(id))) throw new NotFoundError(CATALOG_ADMIN_MESSAGES.sceneNotFound);
    await this.replacePhoto('scene', actorId, id, file);
    return this.scene(id);
  }

  // ---- internals ----------------------------------------------------------------------------

  private async replacePhoto(kind: Kind, actorId: string, id: string, file: { buffer: Buffer } | undefined): Promise<void> {
    if (!file?.buffer?.length) throw new ValidationError(CATALOG_ADMIN_MESSAGES.noPhoto);
    const photo = await this.intake.acceptOne(file.buffer);
    const key = `catalog/${kind}s/${id}/${kind === 'template' ? 'garment' : 'reference'}-${randomUUID()}.jpg`;
    await this.storage.put(key, photo.jpeg, { contentType: 'image/jpeg' });
    const replaced: { key: string | null } = { key: null };
    try {
      await this.change(async (m) => {
        if (kind === 'template') {
          const row = await this.repo.template(id, m);
          if (!row) throw new NotFoundError(CATALOG_ADMIN_MESSAGES.templateNotFound);
          replaced.key = row.garmentKey;
          await this.repo.updateTemplate(id, { garmentKey: key }, m);
        } else {
          const row = await this.repo.scene(id, m);
          if (!row) throw new NotFoundError(CATALOG_ADMIN_MESSAGES.sceneNotFound);
          replaced.key = row.referenceKey;
          await this.repo.updateScene(id, { referenceKey: key }, m);
        }
        const size = { width: photo.width, height: photo.height, bytes: photo.jpeg.length };
        await this.audit.record(
          {
            actorId,
            action: kind === 'template' ? CATALOG_AUDIT.templatePhoto : CATALOG_AUDIT.scenePhoto,
            targetType: `catalog_${kind}`,
            targetId: id,
            before: { photo: replaced.key },
            after: { photo: key, ...size },
          },
          m,
        );
      });
    } catch (error) {
      await this.storage.delete(key).catch((err: unknown) => this.logger.warn({ err, key }, 'could not remove an unused catalogue photo'));
      throw error;
    }
    const old = replaced.key;
    if (old)
      await this.storage
        .delete(old)
        .catch((err: unknown) => this.logger.warn({ err, key: old }, 'could not remove a replaced catalogue photo'));
  }

  /** Runs a change in a transaction that also raises the catalogue version; then this process reloads. */
  private async change(work: (m: EntityManager) => Promise<unknown>): Promise<void> {
    const outcome = await this.repo.transaction(async (m) => {
      const result = await work(m);
      if (result !== false) await this.repo.bumpVersion(m);
      return result;
    });
    if (outcome !== false) await this.store.reloadNow();
  }

  private async nextOrder(): Promise<number> {
    const [templates, scenes] = await Promise.all([this.repo.templates(), this.repo.scenes()]);
    return Math.max(0, ...templates.map((t) => t.sortOrder), ...scenes.map((s) => s.sortOrder)) + 10;
  }

  /** A new template is drawn like its category's first template (seeded or live). */
  private defaultOutfit(category: CategoryId) {
    return (templatesForCategory(category)[0] ?? TEMPLATES.find((t) => t.category === category)!).artwork;
  }

  private async photoLink(key: string | null): Promise<string | null> {
    return key ? this.storage.signedUrl(key, { ttlSeconds: CATALOG_PHOTO_LINK_TTL_SECONDS, hostRelative: true }) : null;
  }

  private thumbnail(id: string): string {
    return this.artwork.get(id) ? this.artwork.url(id) : '';
  }

  private async templateDto(row: CatalogTemplateEntity): Promise<AdminTemplateDto> {
    return {
      id: row.id,
      name: row.name,
      category: row.category as CategoryId,
      description: row.description,
      prompt_description: row.promptDescription,
      required_tier: row.requiredTier as AdminTemplateDto['required_tier'],
      sort_order: row.sortOrder,
      enabled: row.enabled,
      shop_url: row.shopUrl,
      thumbnail: row.thumbnailKey ? uploadedThumbnailUrl(row.id, row.thumbnailKey) : this.thumbnail(row.id),
      has_uploaded_thumbnail: row.thumbnailKey !== null,
      has_garment_photo: row.garmentKey !== null,
      garment_photo_url: await this.photoLink(row.garmentKey),
      updated_at: row.updatedAt.toISOString(),
    };
  }

  private async sceneDto(row: CatalogSceneEntity): Promise<AdminSceneDto> {
    return {
      id: row.id,
      name: row.name,
      category: sceneCategory(row.id),
      description: row.description,
      prompt_description: row.promptDescription,
      required_tier: row.requiredTier as AdminSceneDto['required_tier'],
      credit_cost: row.creditCost,
      sort_order: row.sortOrder,
      enabled: row.enabled,
      thumbnail: this.thumbnail(row.id),
      has_reference_photo: row.referenceKey !== null,
      reference_photo_url: await this.photoLink(row.referenceKey),
      updated_at: row.updatedAt.toISOString(),
    };
  }
}

/** The fields of `next` whose value differs from the row's. */
function changedFields<T extends object>(row: T, next: Partial<T>): Partial<T> {
  const out: Partial<T> = {};
  for (const [key, value] of Object.entries(next) as [keyof T, T[keyof T]][]) if (row[key] !== value) out[key] = value;
  return out;
}

function pick<T extends object>(row: T, like: Partial<T>): Partial<T> {
  return Object.fromEntries(Object.keys(like).map((k) => [k, row[k as keyof T]])) as Partial<T>;
}

const AUDIT_NAMES: Record<string, string> = {
  name: 'name',
  description: 'description',
  promptDescription: 'prompt_description',
  requiredTier: 'required_tier',
  sortOrder: 'sort_order',
  enabled: 'enabled',
  shopUrl: 'shop_url',
  creditCost: 'credit_cost',
  category: 'category',
};

/** What the audit row keeps of a change: the console's field names, no artwork or storage keys. */
function auditOf(fields: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) if (AUDIT_NAMES[key]) out[AUDIT_NAMES[key]] = value;
  return out;
}
const templateAudit = auditOf;
const sceneAudit = auditOf;

/** Filter, sort and cut a page in memory: the catalogue holds about a hundred rows. */
function page<
  T extends { id: string; name: string; description: string; category: string | null; required_tier: string; enabled: boolean },
>(rows: T[], params: ListParams<Filter>): { rows: T[]; total: number } {
  const { filter } = params;
  const q = typeof filter.q === 'string' ? filter.q.toLowerCase() : undefined;
  const ids = filter.id === undefined ? undefined : (Array.isArray(filter.id) ? filter.id : [filter.id]).map(String);
  const enabled = filter.enabled === undefined ? undefined : String(filter.enabled) === 'true';
  const matching = rows.filter(
    (r) =>
      (!q || r.name.toLowerCase().includes(q) || r.id.includes(q) || r.description.toLowerCase().includes(q)) &&
      (!ids || ids.includes(r.id)) &&
      (filter.category === undefined || r.category === filter.category) &&
      (filter.required_tier === undefined || r.required_tier === filter.required_tier) &&
      (enabled === undefined || r.enabled === enabled),
  );
  const field = params.sortField as keyof T;
  const dir = params.sortOrder === 'ASC' ? 1 : -1;
  const compare = (a: unknown, b: unknown) =>
    typeof a === 'number' && typeof b === 'number' ? a - b : String(a ?? '').localeCompare(String(b ?? ''));
  matching.sort((a, b) => dir * (compare(a[field], b[field]) || a.id.localeCompare(b.id)));
  return { rows: matching.slice(params.offset, params.offset + params.limit), total: matching.length };
}
