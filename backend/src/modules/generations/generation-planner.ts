import { Injectable } from '@nestjs/common';
import { ForbiddenError, ValidationError } from '../../common/errors';
import {
  canGenerateVideo,
  canUseScene,
  canUseTemplate,
  CatalogService,
  composePrompt,
  CUSTOM_POSE,
  findScene,
  findTemplate,
  generationCost,
  planForTier,
  sceneBelongsTo,
  TIERS,
  type CategoryId,
  type SceneDefinition,
  type TemplateDefinition,
} from '../catalog';
import { GenerationCheckDto } from './dto/generation-check.dto';
import { GENERATION_MESSAGES } from './generation-progress';
import { SafetyRefusalsService } from './safety-refusals.service';
import type { AuthUser } from '../../common/auth';

/** What a valid start request asks for. */
export interface StartPlan {
  template: TemplateDefinition;
  scene: SceneDefinition | null;
  customPose: string | null;
  cost: number;
  prompt: string;
}

/**
 * The rules of a generation request, before anything is written: the live catalogue (enabled
 * categories, templates and scenes, video), the caller's tier, and the custom pose's safety screen.
 * Answers the cost and the prompt; throws the catalogue's errors.
 */
@Injectable()
export class GenerationPlanner {
  constructor(
    private readonly catalog: CatalogService,
    private readonly refusals: SafetyRefusalsService,
  ) {}

  /**
   * Every check of a start request but the photos' ownership; throws the catalogue's errors. A
   * check (`source` 'check') needs no photos yet.
   */
  async plan(user: AuthUser, dto: GenerationCheckDto & { upload_ids?: string[] }, source: 'check' | 'start'): Promise<StartPlan> {
    const custom = dto.custom_pose !== undefined && dto.custom_pose !== null;
    const sceneGiven = typeof dto.scene_id === 'string' && dto.scene_id !== '';
    const customMode = custom || dto.scene_id === CUSTOM_POSE.id;
    const photosMissing = source === 'start' && !dto.upload_ids?.length;
    if (photosMissing || !dto.template_id || (!sceneGiven && !custom)) throw new ValidationError(GENERATION_MESSAGES.missingInput);
    if (custom && sceneGiven && dto.scene_id !== CUSTOM_POSE.id) throw new ValidationError(GENERATION_MESSAGES.poseAndCustom);

    this.catalog.assertCategoryEnabled(dto.category);
    const category = dto.category as CategoryId;
    // a template or scene an admin disabled is refused like an unknown one
    const template = findTemplate(dto.template_id);
    if (!template?.enabled) throw new ValidationError(`${GENERATION_MESSAGES.unknownTemplate}: ${dto.template_id}`);
    if (template.category !== category) throw new ValidationError(GENERATION_MESSAGES.templateCategory);
    if (!canUseTemplate(user.tier, template))
      throw new ForbiddenError(GENERATION_MESSAGES.lockedTemplate(planForTier(template.requiredTier).name));

    let scene: SceneDefinition | null = null;
    let customPose: string | null = null;
    if (customMode) {
      customPose = (dto.custom_pose ?? '').trim();
      await this.refusals.screen(user, customPose, source);
    } else {
      const found = findScene(dto.scene_id!);
      scene = found?.enabled ? found : null;
      if (!scene) throw new ValidationError(`${GENERATION_MESSAGES.unknownScene}: ${dto.scene_id}`);
      if (!sceneBelongsTo(scene.id, category)) throw new ValidationError(GENERATION_MESSAGES.sceneCategory);
      if (!canUseScene(user.tier, scene)) throw new ForbiddenError(GENERATION_MESSAGES.lockedScene(planForTier(scene.requiredTier).name));
    }

    if (dto.type === 'video') {
      this.catalog.assertVideoEnabled();
      if (!canGenerateVideo(user.tier))
        throw new ForbiddenError(GENERATION_MESSAGES.videoTier(planForTier(TIERS.find(canGenerateVideo)!).name));
    }
    const cost = generationCost(customMode ? { custom: true, type: dto.type } : { sceneId: scene!.id, type: dto.type });
    const prompt = composePrompt(template, customMode ? { custom: customPose! } : scene!);
    return { template, scene, customPose, cost, prompt };
  }
}
