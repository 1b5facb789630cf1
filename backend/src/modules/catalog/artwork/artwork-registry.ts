import { catalogScenes, catalogTemplates, CUSTOM_POSE, sceneCategory } from '../catalog';
import { renderOutfitArtwork } from './outfit-artwork';
import { renderSceneArtwork } from './scene-artwork';
import type { CategoryId, OutfitArtwork } from '../catalog.types';

export interface ArtworkEntry {
  id: string;
  /** what the picture is drawn from: the same inputs draw the same picture */
  inputs: string;
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
 * Every picture the catalogue shows (its live snapshot): one per template, one per scene, one for "+ Custom", and
 * per template a "before" picture (the same figure in everyday clothes) for the landing page's
 * before/after grid, served at `/api/catalog/artwork/before-<template id>.svg`.
 */
export function artworkEntries(): ArtworkEntry[] {
  const templates = catalogTemplates();
  return [
    ...templates.map((t) => ({
      id: t.id,
      inputs: JSON.stringify([t.id, t.name, t.artwork]),
      kind: 'template' as const,
      category: t.category,
      render: () => renderOutfitArtwork(t.id, t.name, t.artwork),
    })),
    ...templates.map((t) => ({
      id: `${BEFORE_ARTWORK_PREFIX}${t.id}`,
      inputs: JSON.stringify(['before', t.id, t.name]),
      kind: 'before' as const,
      category: t.category,
      // the template's id seeds the figure's look, so before and after show the same person
      render: () => renderOutfitArtwork(t.id, `Before: everyday clothes (${t.name})`, BEFORE_OUTFIT),
    })),
    ...catalogScenes().map((s) => ({
      id: s.id,
      inputs: JSON.stringify([s.name, s.artwork]),
      kind: 'scene' as const,
      category: sceneCategory(s.id),
      render: () => renderSceneArtwork(s.name, s.artwork),
    })),
    {
      id: CUSTOM_POSE.id,
      inputs: 'custom',
      kind: 'custom' as const,
      category: null,
      render: () => renderSceneArtwork('Custom pose', CUSTOM_POSE.artwork),
    },
  ];
}
