import type { SceneDefinition, TemplateDefinition } from './catalog.types';

/**
 * The fixed end of every prompt: whatever came before, the person is an adult, fully clothed in
 * the described outfit, in a non-sexual pose (docs/product.md, Safety).
 */
export const PROMPT_SAFETY_CLAUSE = 'The person is an adult, fully clothed in the outfit described, in a non-sexual pose.';

/**
 * What vendors that take a negative prompt are told to avoid (Wan image editing and image-to-video):
 * nudity, see-through clothing, and anything that suggests a minor.
 */
export const NEGATIVE_PROMPT =
  'nudity, nude, naked, topless, bare breasts, nipples, exposed genitals, see-through clothing, sheer fabric, transparent clothing, ' +
  'wardrobe malfunction, lingerie falling off, sexual act, explicit content, child, minor, teenager, school uniform, childlike body';

/**
 * The prompt of a generation (docs/product.md): "show the woman " + the outfit's
 * promptDescription + the pose, then PROMPT_SAFETY_CLAUSE. A catalogue scene's text is ours; a
 * custom pose's text (after the safety check of the generation API) goes in as a quoted
 * description, never as instructions.
 */
export function composePrompt(
  template: Pick<TemplateDefinition, 'promptDescription'>,
  pose: Pick<SceneDefinition, 'promptDescription'> | { custom: string },
): string {
  const posePart =
    'custom' in pose ? `in the pose the customer described as "${pose.custom.replace(/["\\]/g, '').trim()}"` : pose.promptDescription;
  return `show the woman ${template.promptDescription}, ${posePart}. ${PROMPT_SAFETY_CLAUSE}`;
}
