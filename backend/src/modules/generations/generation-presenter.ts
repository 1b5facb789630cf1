import { Inject, Injectable } from '@nestjs/common';
import { ConflictError } from '../../common/errors';
import { APP_CONFIG } from '../../config/config.module';
import { STORAGE, type StoragePort } from '../../storage';
import { CUSTOM_POSE, findScene, findTemplate } from '../catalog';
import { GenerationResponseDto } from './dto/generation-response.dto';
import { GENERATION_MESSAGES, progressOf, progressStepsOf } from './generation-progress';
import { GenerationEntity, GenerationStatus } from './generation.entity';
import type { AppConfig } from '../../config/app-config';

/** "Fitting Room" -> "fitting-room": the prefix of downloaded file names. */
export function downloadPrefix(appName: string): string {
  return (
    appName
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'generation'
  );
}

/** What a custom pose is called where a scene's name would be ("Custom pose"). */
export const CUSTOM_POSE_NAME = `${CUSTOM_POSE.name} pose`;

/**
 * The names a generation is shown by, from the live catalogue (admin edits included): its outfit
 * (template) and its pose (scene, or "Custom pose"); null for one the catalogue no longer has.
 */
export function generationNames(metadata: Partial<GenerationEntity['metadata']> | null | undefined): {
  template_name: string | null;
  scene_name: string | null;
} {
  const sceneId = metadata?.scene_id;
  return {
    template_name: (metadata?.outfit_id && findTemplate(metadata.outfit_id)?.name) || null,
    scene_name: sceneId === CUSTOM_POSE.id ? CUSTOM_POSE_NAME : (sceneId && findScene(sceneId)?.name) || null,
  };
}

/**
 * How a generation is shown to its owner: the API's answer (with its progress, its names and a
 * signed link to a finished result) and the download link. The one place a result's storage key
 * becomes a link. `sourcePhotoUrl`: the signed link to the person's photo it was made from, which
 * only GET /api/generations/:id looks up (GenerationsService.get).
 */
@Injectable()
export class GenerationPresenter {
  constructor(
    @Inject(STORAGE) private readonly storage: StoragePort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async toDto(row: GenerationEntity, extras: { sourcePhotoUrl?: string | null } = {}): Promise<GenerationResponseDto> {
    const url =
      row.status === GenerationStatus.Completed && row.resultKey
        ? await this.storage.signedUrl(row.resultKey, { hostRelative: true })
        : null;
    return {
      id: row.id,
      user_id: row.userId,
      type: row.type,
      status: row.status,
      cost: row.cost,
      category: row.category,
      prompt: row.prompt,
      metadata: row.metadata,
      ...generationNames(row.metadata),
      url,
      source_photo_url: extras.sourcePhotoUrl ?? null,
      progress: { ...progressOf(row), steps: progressStepsOf(row) },
      error: row.status === GenerationStatus.Failed ? (row.error ?? GENERATION_MESSAGES.failed) : null,
      created_at: new Date(row.createdAt).toISOString(),
      updated_at: new Date(row.updatedAt).toISOString(),
      completed_at: row.completedAt ? new Date(row.completedAt).toISOString() : null,
    };
  }

  /** A signed link to a finished result, named `<prefix>-<id>.jpg|.mp4` (Content-Disposition: attachment). */
  downloadUrl(row: GenerationEntity): Promise<string> {
    if (row.status !== GenerationStatus.Completed || !row.resultKey) throw new ConflictError(GENERATION_MESSAGES.noResult);
    const extension = row.type === 'video' ? 'mp4' : 'jpg';
    return this.storage.signedUrl(row.resultKey, {
      downloadName: `${downloadPrefix(this.config.appName)}-${row.id}.${extension}`,
      hostRelative: true,
    });
  }
}
