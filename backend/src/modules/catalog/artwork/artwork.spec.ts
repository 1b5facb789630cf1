import { ALL_SCENES, TEMPLATES } from '../catalog';
import { artworkEntries, BEFORE_ARTWORK_PREFIX } from './artwork-registry';
import { body, hairFront, lookFor } from './figure';
import { OUTFIT_SHAPES } from './garments';
import { hashInt } from './svg';

describe('catalogue artwork', () => {
  const entries = artworkEntries();

  it('has one picture per template, per scene and for the custom pose, and a "before" picture per template', () => {
    expect(entries.map((e) => e.id).sort()).toEqual(
      [
        ...TEMPLATES.map((t) => t.id),
        ...TEMPLATES.map((t) => `${BEFORE_ARTWORK_PREFIX}${t.id}`),
        ...ALL_SCENES.map((s) => s.id),
        'custom',
      ].sort(),
    );
  });

  it('draws a template\'s "before" picture on the same figure, in other clothes', () => {
    const byId = new Map(entries.map((e) => [e.id, e.render()]));
    for (const t of TEMPLATES) {
      const after = byId.get(t.id)!;
      const before = byId.get(`${BEFORE_ARTWORK_PREFIX}${t.id}`)!;
      expect(before).not.toBe(after);
      // the same body (skin tone) and hair in both
      const look = lookFor(hashInt(t.id));
      for (const part of [body(look), hairFront(look)]) {
        expect(after).toContain(part);
        expect(before).toContain(part);
      }
    }
  });

  it('renders deterministic, self-contained SVG (no scripts, links, images or fonts)', () => {
    for (const entry of entries) {
      const svg = entry.render();
      expect(svg).toBe(entry.render());
      expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" width="300" height="400" viewBox="0 0 300 400"')).toBe(true);
      expect(svg.endsWith('</svg>')).toBe(true);
      expect({
        id: entry.id,
        bad: svg.match(/<script|<image|<text|<foreignObject|href=|@import|url\((?!#)|on[a-z]+=|NaN|undefined/gi),
      }).toEqual({ id: entry.id, bad: null });
      // every url(#id) points at something defined in the picture
      for (const [, ref] of svg.matchAll(/url\(#([^)]+)\)/g))
        expect({ id: entry.id, ref, defined: svg.includes(`id="${ref}"`) }).toEqual({ id: entry.id, ref, defined: true });
    }
  });

  it('gives different outfits different pictures', () => {
    const svgs = entries.map((e) => e.render());
    expect(new Set(svgs).size).toBe(svgs.length);
  });

  it('uses every garment shape the renderer knows', () => {
    const used = new Set(TEMPLATES.map((t) => t.artwork.shape));
    expect(OUTFIT_SHAPES.filter((s) => !used.has(s))).toEqual([]);
  });
});
