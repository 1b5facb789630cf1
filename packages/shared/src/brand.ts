/**
 * The brand's colours: one source for the user app's design system (`frontend/src/theme`), the
 * user app's build (`theme-color`, which reads `brand-colours.json` itself: a build configuration
 * cannot load TypeScript from a package) and the mail the API sends
 * (`backend/src/modules/mail/mail-templates.ts`), so a mail looks like the app it comes from.
 */
import colours from './brand-colours.json';

type Scale = Readonly<Record<50 | 100 | 200 | 300 | 400 | 500 | 600 | 700 | 800 | 900 | 950, string>>;

/** Dusty terracotta rose: buttons, links, focus rings. */
export const BRAND_SCALE: Scale = colours.brand;

/** Warm sand neutrals: page background, borders, muted text. */
export const SAND_SCALE: Scale = colours.sand;

/** Espresso ink for body text. */
export const INK: string = colours.ink;

/**
 * The colours of the app's roles, by name: what a mail (which cannot read the app's design tokens)
 * uses. `solid` is the app's `brand.solid` (buttons: white text on it reads at 5.3:1), `fg` its
 * `brand.fg` (links and the wordmark).
 */
export const BRAND_COLOURS = {
  solid: BRAND_SCALE[600],
  fg: BRAND_SCALE[700],
  onSolid: '#ffffff',
  page: SAND_SCALE[50],
  panel: '#ffffff',
  text: INK,
  muted: SAND_SCALE[700],
  border: SAND_SCALE[200],
} as const;
