/**
 * Raw brand colours: plain data, so both the Chakra system (src/theme/system.ts) and the build
 * (theme-color in index.html, via vite.config.ts) read the same values. Their one source is the
 * shared package (`@fitting-room/shared/brand`), which the API's mail reads too.
 */
import { BRAND_SCALE, INK, SAND_SCALE } from '@fitting-room/shared/brand';

/** Dusty terracotta rose: buttons, links, focus rings. */
export const brand = BRAND_SCALE;

/** Warm sand neutrals: page background, borders, muted text. */
export const sand = SAND_SCALE;

/** Espresso ink for body text. */
export const ink = INK;

/** Browser UI colour (`<meta name="theme-color">`). */
export const themeColor = brand[600];
