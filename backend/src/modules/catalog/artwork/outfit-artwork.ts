import { body, CX, H, hairBack, hairFront, lookFor, W } from './figure';
import { backAccessories, fabricDefs, footwear, frontAccessories, Paint, renderGarment } from './garments';
import { darken, el, hashInt, lighten, luminance, mix } from './svg';
import type { OutfitArtwork } from '../catalog.types';

const CREAM = '#fbf6f0';

/** Gradients every card shares: soft volume shading and a satin sheen. */
export function sharedDefs(): string {
  return (
    el(
      'linearGradient',
      { id: 'shade', x1: 0, y1: 0, x2: 1, y2: 0 },
      el('stop', { offset: 0, 'stop-color': '#ffffff', 'stop-opacity': 0.16 }) +
        el('stop', { offset: 0.38, 'stop-color': '#ffffff', 'stop-opacity': 0 }) +
        el('stop', { offset: 0.7, 'stop-color': '#2a1f1a', 'stop-opacity': 0 }) +
        el('stop', { offset: 1, 'stop-color': '#2a1f1a', 'stop-opacity': 0.2 }),
    ) +
    el(
      'linearGradient',
      { id: 'sheen', x1: 0, y1: 0, x2: 1, y2: 1 },
      el('stop', { offset: 0.18, 'stop-color': '#ffffff', 'stop-opacity': 0 }) +
        el('stop', { offset: 0.3, 'stop-color': '#ffffff', 'stop-opacity': 0.42 }) +
        el('stop', { offset: 0.42, 'stop-color': '#ffffff', 'stop-opacity': 0 }) +
        el('stop', { offset: 0.62, 'stop-color': '#ffffff', 'stop-opacity': 0 }) +
        el('stop', { offset: 0.7, 'stop-color': '#ffffff', 'stop-opacity': 0.25 }) +
        el('stop', { offset: 0.78, 'stop-color': '#ffffff', 'stop-opacity': 0 }),
    )
  );
}

export function svgDocument(title: string, defs: string, content: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img">` +
    el('title', {}, title.replace(/&/g, '&amp;').replace(/</g, '&lt;')) +
    el('defs', {}, defs) +
    content +
    '</svg>'
  );
}

/**
 * An outfit thumbnail: the garment on the croquis over a soft backdrop tinted with the outfit's
 * main colour. The skin tone and hair vary per template id (deterministically).
 */
export function renderOutfitArtwork(id: string, name: string, artwork: OutfitArtwork): string {
  const { primary, secondary, accent } = artwork.palette;
  const seed = hashInt(id);
  const look = lookFor(seed);
  const paint: Paint = { main: 'url(#fabric)', primary, secondary, accent, sheen: !!artwork.sheen };
  // the backdrop takes the outfit's colour; a near-white outfit takes its accent, so it stands out
  const tint = luminance(primary) > 0.7 ? accent : primary;
  const top = mix(CREAM, tint, 0.1);
  const bottom = mix(CREAM, tint, 0.26);
  const defs =
    sharedDefs() +
    el(
      'linearGradient',
      { id: 'bg', x1: 0, y1: 0, x2: 0, y2: 1 },
      el('stop', { offset: 0, 'stop-color': top }) + el('stop', { offset: 1, 'stop-color': bottom }),
    ) +
    el(
      'radialGradient',
      { id: 'glow', cx: 0.5, cy: 0.45, r: 0.5 },
      el('stop', { offset: 0, 'stop-color': '#ffffff', 'stop-opacity': 0.75 }) +
        el('stop', { offset: 1, 'stop-color': '#ffffff', 'stop-opacity': 0 }),
    ) +
    fabricDefs('fabric', primary, secondary, accent, artwork.pattern) +
    fabricDefs('trim', secondary, primary, accent, 'solid');
  const accessories = artwork.accessories ?? [];
  // a fitting-room arch behind the figure, a soft glow and a floor shadow
  const decoration =
    el('path', { d: 'M58 400 V138 A92 92 0 0 1 242 138 V400 Z', fill: lighten(top, 0.45), opacity: 0.75 }) +
    el('path', {
      d: 'M58 400 V138 A92 92 0 0 1 242 138 V400',
      fill: 'none',
      stroke: mix(top, primary, 0.35),
      'stroke-width': 1.2,
      opacity: 0.55,
    }) +
    el('circle', { cx: CX, cy: 196, r: 150, fill: 'url(#glow)' }) +
    el('ellipse', { cx: CX, cy: 387, rx: 56, ry: 6.5, fill: darken(bottom, 0.35), opacity: 0.22 });
  const garment = renderGarment(artwork, paint);
  const figure =
    backAccessories(accessories, paint) +
    hairBack(look) +
    garment.back +
    body(look) +
    garment.front +
    footwear(artwork.footwear ?? 'bare', paint) +
    hairFront(look) +
    frontAccessories(accessories, paint);
  return svgDocument(name, defs, el('rect', { width: W, height: H, fill: 'url(#bg)' }) + decoration + figure);
}
