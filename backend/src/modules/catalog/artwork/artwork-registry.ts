import { CUSTOM_POSE, sceneCategory, ALL_SCENES, TEMPLATES } from '../catalog';
import { renderOutfitArtwork } from './outfit-artwork';
import { renderSceneArtwork } from './scene-artwork';
import type { CategoryId, OutfitArtwork } from '../catalog.types';

export interface ArtworkEntry {
  id: string;
  kind: 'template' | 'scene' | 'custom' | 'before';
  /** the category the picture belongs to; null for generic scenes and the custom pose */
  category: CategoryId | null;
  render: () => string;
}

/** Id prefix of a template's "before" picture: `before-<template id>`. */
export const BEFORE_ARTWORK_PREFIX = 'before-';

/**
 * The landing page's "before" look: everyday clothes (a heather-grey hoodie over denim-blue
 * trousers, trainers). Drawn on the same figure (skin tone, hair) as the template it precedes.
 */
export const BEFORE_OUTFIT: OutfitArtwork = {
  shape: 'hoodie-leggings',
  palette: { primary: '#c9c2ba', secondary: '#51607a', accent: '#fbf8f4' },
  footwear: 'sneakers',
};

/**
 * Every picture the catalogue shows: one per template, one per scene, one for "+ Custom", and
 * per template a "before" picture (the same figure in everyday clothes) for the landing page's
 * before/after grid, served at `/api/catalog/artwork/before-<template id>.svg`.
 */
export function artworkEntries(): ArtworkEntry[] {
  return [
    ...TEMPLATES.map((t) => ({
      id: t.id,
      kind: 'template' as const,
      category: t.category,
      render: () => renderOutfitArtwork(t.id, t.name, t.artwork),
    })),
    ...TEMPLATES.map((t) => ({
      id: `${BEFORE_ARTWORK_PREFIX}${t.id}`,
      kind: 'before' as const,
      category: t.category,
      // the template's id seeds the figure's look, so before and after show the same person
      render: () => renderOutfitArtwork(t.id, `Before: everyday clothes (${t.name})`, BEFORE_OUTFIT),
    })),
    ...ALL_SCENES.map((s) => ({
      id: s.id,
      kind: 'scene' as const,
      category: sceneCategory(s.id),
      render: () => renderSceneArtwork(s.name, s.artwork),
    })),
    { id: CUSTOM_POSE.id, kind: 'custom' as const, category: null, render: () => renderSceneArtwork('Custom pose', CUSTOM_POSE.artwork) },
  ];
}
