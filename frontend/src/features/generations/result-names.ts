import { paths } from '../../app/paths';
import { categoryLabel, type Catalog } from '../catalog/catalog-helpers';
import type { Generation } from './generation-api';

/** The search parameter that opens a result in the viewer, on All Generations and the category screens. */
export const RESULT_PARAM = 'result';

/**
 * The link to a result in the app (what Share hands out): it opens the viewer on that result, after
 * signing in, for its owner only. Never a file's link: those are signed, short-lived and private.
 */
export function resultLink(id: string, origin: string = window.location.origin): string {
  return `${origin}${paths.generations}?${RESULT_PARAM}=${encodeURIComponent(id)}`;
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

export function formatGenerationDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : dateFormat.format(date);
}

export const TYPE_LABEL = { image: 'Image', video: 'Video' } as const;

export interface ResultNames {
  /** the outfit's name (the catalogue's), else the category's: the card's and the viewer's title */
  title: string;
  /** the pose's name, when known */
  pose: string | null;
  category: string;
  date: string;
  type: string;
  /** one line for assistive technology: "Sunshine Bikini, Beach Standing: image from 28 Nov 2026" */
  label: string;
}

/** How a result is named on its card and in the viewer: by its outfit and pose (the API's names, from the catalogue). */
export function resultNames(generation: Generation, catalog: Catalog | undefined): ResultNames {
  const category = categoryLabel(catalog, generation.category);
  const title = generation.template_name ?? category;
  const pose = generation.scene_name ?? null;
  const date = formatGenerationDate(generation.created_at);
  const type = TYPE_LABEL[generation.type];
  return {
    title,
    pose,
    category,
    date,
    type,
    label: `${title}${pose ? `, ${pose}` : ''}: ${type.toLowerCase()} from ${date}`,
  };
}
