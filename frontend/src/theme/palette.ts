/**
 * Raw brand colours: plain data, so both the Chakra system (src/theme/system.ts) and the build
 * (theme-color in index.html, via vite.config.ts) read the same values.
 */

/** Dusty terracotta rose: buttons, links, focus rings. */
export const brand = {
  50: '#fbf4f1',
  100: '#f6e6df',
  200: '#ecccbf',
  300: '#dfab98',
  400: '#cf876f',
  500: '#bd6a51',
  600: '#a55440',
  700: '#884436',
  800: '#6d3830',
  900: '#582f29',
  950: '#311714',
} as const;

/** Warm sand neutrals: page background, borders, muted text. */
export const sand = {
  50: '#fbf8f4',
  100: '#f5efe7',
  200: '#e9dfd2',
  300: '#d8c8b4',
  400: '#bfa78c',
  500: '#a68b6d',
  600: '#8a7158',
  700: '#6e5946',
  800: '#54453a',
  900: '#3b312a',
  950: '#221c18',
} as const;

/** Espresso ink for body text. */
export const ink = '#2a1f1a';

/** Browser UI colour (`<meta name="theme-color">`). */
export const themeColor = brand[600];
