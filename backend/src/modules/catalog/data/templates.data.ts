import { ACTIVE_WEAR_TEMPLATES } from './templates/active-wear.templates';
import { BIKINI_TEMPLATES } from './templates/bikini.templates';
import { DRESS_TEMPLATES } from './templates/dress.templates';
import { LINGERIE_TEMPLATES } from './templates/lingerie.templates';
import { PAJAMAS_TEMPLATES } from './templates/pajamas.templates';
import { SPICY_TEMPLATES } from './templates/spicy.templates';
import type { TemplateDefinition } from '../catalog.types';

/** All 72 outfit templates, 12 per category, in the sidebar's category order. */
export const TEMPLATES: readonly TemplateDefinition[] = [
  ...ACTIVE_WEAR_TEMPLATES,
  ...DRESS_TEMPLATES,
  ...PAJAMAS_TEMPLATES,
  ...BIKINI_TEMPLATES,
  ...LINGERIE_TEMPLATES,
  ...SPICY_TEMPLATES,
];
