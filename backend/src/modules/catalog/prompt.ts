import type { SceneDefinition, TemplateDefinition } from './catalog.types';

/**
 * The prompt of a catalogue generation (product-spec.md section 7): "show the woman " + the
 * outfit's promptDescription + the scene's promptDescription. Only catalogue text goes in here;
 * a custom pose's text must pass the safety check of the generation API first.
 */
export function composePrompt(template: Pick<TemplateDefinition, 'promptDescription'>, scene: Pick<SceneDefinition, 'promptDescription'>): string {
  return `show the woman ${template.promptDescription}, ${scene.promptDescription}`;
}
