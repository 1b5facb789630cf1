import { createSystem, defaultConfig, defineConfig, type SystemContext } from '@chakra-ui/react';
import { brand, ink, sand } from './palette';

/** Maps a raw scale ({ 50: '#..', ... }) to Chakra tokens ({ 50: { value: '#..' }, ... }). */
const toTokens = (scale: Record<number, string>) => Object.fromEntries(Object.entries(scale).map(([step, value]) => [step, { value }]));

const serif = `"Iowan Old Style", "Palatino Linotype", Palatino, "URW Palladio L", P052, "Book Antiqua", Georgia, serif`;
const sans = `system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif`;

/**
 * Chakra's colour palettes the app never names. Statuses take theirs from Chakra's recipes (info blue,
 * warning orange, success green, error red), and gray, brand and sand are used directly; these five
 * are not. Each palette is about a tenth of the design system's build (tokens, semantic tokens and the
 * `colorPalette` variables), which runs on the main thread at every app start: without them it takes
 * 30-40 ms instead of about 57 (Node, the project machine). `system.test.ts` fails when a component
 * names one of them.
 */
export const UNUSED_PALETTES = ['yellow', 'teal', 'cyan', 'purple', 'pink'] as const;

const withoutUnused = <T extends object>(group: T | undefined): T =>
  Object.fromEntries(Object.entries(group ?? {}).filter(([name]) => !(UNUSED_PALETTES as readonly string[]).includes(name))) as T;

/** Chakra's default configuration without the unused palettes. */
const chakraDefaults = {
  ...defaultConfig,
  theme: {
    ...defaultConfig.theme,
    tokens: { ...defaultConfig.theme?.tokens, colors: withoutUnused(defaultConfig.theme?.tokens?.colors) },
    semanticTokens: { ...defaultConfig.theme?.semanticTokens, colors: withoutUnused(defaultConfig.theme?.semanticTokens?.colors) },
  },
};

/**
 * The app's design system: Chakra's defaults plus the brand palette, warm neutrals and type.
 * Components use semantic tokens (`bg`, `fg.muted`, `colorPalette.solid`, ...), never raw colours.
 */
const config = defineConfig({
  globalCss: {
    html: {
      // Every component takes the brand palette unless it asks for another one.
      colorPalette: 'brand',
      // No `scroll-behavior: smooth` here: the router's scroll to the top of a new page would glide
      // up through it (about a second from a long page's footer). A smooth scroll is asked for where
      // it is meant (CategoryPage brings the panel into view).
    },
    // Fallback focus indicator for elements without a recipe (recipes draw their own ring).
    ':focus-visible': {
      outline: '2px solid',
      outlineColor: 'brand.focusRing',
      outlineOffset: '2px',
    },
  },
  theme: {
    tokens: {
      colors: {
        brand: toTokens(brand),
        sand: toTokens(sand),
        ink: { value: ink },
      },
      fonts: {
        heading: { value: serif },
        body: { value: sans },
      },
    },
    semanticTokens: {
      colors: {
        bg: {
          DEFAULT: { value: '{colors.sand.50}' },
          subtle: { value: '{colors.sand.100}' },
          muted: { value: '{colors.sand.200}' },
          panel: { value: '{colors.white}' },
        },
        fg: {
          DEFAULT: { value: '{colors.ink}' },
          muted: { value: '{colors.sand.700}' },
          subtle: { value: '{colors.sand.500}' },
          // Chakra's red.500 reads at 3.8:1 on white: error texts (field errors) need 4.5:1 (WCAG AA)
          error: { value: '{colors.red.700}' },
        },
        border: {
          DEFAULT: { value: '{colors.sand.200}' },
          muted: { value: '{colors.sand.100}' },
        },
        // The palette contract Chakra's recipes expect from a colorPalette.
        brand: {
          contrast: { value: '{colors.white}' },
          fg: { value: '{colors.brand.700}' },
          subtle: { value: '{colors.brand.100}' },
          muted: { value: '{colors.brand.200}' },
          emphasized: { value: '{colors.brand.300}' },
          solid: { value: '{colors.brand.600}' },
          focusRing: { value: '{colors.brand.500}' },
          border: { value: '{colors.brand.300}' },
        },
      },
    },
    recipes: {
      button: {
        base: { borderRadius: 'full' },
      },
      // Chakra's skip link has no z-index: without one the top bar paints over it.
      skipNavLink: {
        base: { _focusVisible: { zIndex: 'skipNav', boxShadow: 'md' } },
      },
    },
  },
});

let system: SystemContext | undefined;

/**
 * The system, built on first use: building it takes tens of milliseconds of main thread, so the
 * browser does it in a task of its own (main.tsx) instead of in the modules' evaluation.
 */
export function appSystem(): SystemContext {
  system ??= createSystem(chakraDefaults, config);
  return system;
}
