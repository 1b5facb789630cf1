import { CUSTOM_POSE, sceneCategory, ALL_SCENES, TEMPLATES } from '../catalog';
import type { CategoryId } from '../catalog.types';
import { renderOutfitArtwork } from './outfit-artwork';
import { renderSceneArtwork } from './scene-artwork';

export interface ArtworkEntry {
  id: string;
  kind: 'template' | 'scene' | 'custom';
  /** the category the picture belongs to; null for generic scenes and the custom pose */
  category: CategoryId | null;
  render: () => string;
}

/** Every picture the catalogue shows: one per template, one per scene, one for "+ Custom". */
export function artworkEntries(): ArtworkEntry[] {
  return [
    ...TEMPLATES.map((t) => ({ id: t.id, kind: 'template' as const, category: t.category, render: () => renderOutfitArtwork(t.id, t.name, t.artwork) })),
    ...ALL_SCENES.map((s) => ({ id: s.id, kind: 'scene' as const, category: sceneCategory(s.id), render: () => renderSceneArtwork(s.name, s.artwork) })),
    { id: CUSTOM_POSE.id, kind: 'custom' as const, category: null, render: () => renderSceneArtwork('Custom pose', CUSTOM_POSE.artwork) },
  ];
}
