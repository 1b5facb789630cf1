import { readFileSync } from 'node:fs';
// the brand's colours as data: a build configuration loads no TypeScript from a package (src/theme/palette.ts reads the same file)
import brandColours from '@fitting-room/shared/brand-colours.json';
import react from '@vitejs/plugin-react';
import sharp from 'sharp';
import { defineConfig, type Plugin } from 'vite';
import { DEFAULT_APP_NAME } from './src/config/app-config.ts';

/** Fills index.html's placeholders from the app's own modules, so each value has one source. */
function htmlPlaceholders(values: Record<string, string>): Plugin {
  return {
    name: 'fitting-room:html-placeholders',
    transformIndexHtml: {
      order: 'pre',
      handler: (html) => html.replace(/%([A-Z_]+)%/g, (match, key: string) => values[key] ?? match),
    },
  };
}

/**
 * Lists the app's modules (src/main.tsx, which src/boot.ts imports when the app starts, and every
 * module it imports) in index.html as `modulepreload` links, so a page that starts the app at once
 * fetches them with the entry. The server drops them (`data-app-module`) from a pre-rendered page,
 * which starts the app on the visitor's first intent (docs/frontend-performance.md).
 */
function appModules(): Plugin {
  return {
    name: 'fitting-room:app-modules',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html, ctx) => {
        const chunks = Object.values(ctx.bundle ?? {}).filter((c) => c.type === 'chunk');
        const main = chunks.find((c) => c.facadeModuleId?.endsWith('/src/main.tsx'));
        if (!main) throw new Error('app-modules: the build has no chunk for src/main.tsx');
        const files = new Set<string>();
        const visit = (fileName: string) => {
          if (files.has(fileName) || fileName === ctx.chunk?.fileName) return;
          files.add(fileName);
          for (const dep of chunks.find((c) => c.fileName === fileName)?.imports ?? []) visit(dep);
        };
        visit(main.fileName);
        const hrefs = [...files].map((f) => `/${f}`);
        const links = hrefs.map((href) => `    <link rel="modulepreload" crossorigin href="${href}" data-app-module>`).join('\n');
        return html.replace('</head>', `${links}\n  </head>`);
      },
    },
  };
}

/**
 * The tab and home-screen icons as PNGs, drawn from public/favicon.svg (the one source) at build time
 * and served from memory by the dev server. A page that names an SVG icon makes Chromium build it as
 * an SVG document on the page's main thread (about 25-50 ms on the project machine, four times that in
 * Lighthouse's phone simulation); a PNG is decoded off it.
 */
const BRAND_ICONS = { 'favicon-32.png': 32, 'apple-touch-icon.png': 180 } as const;

function brandIcons(): Plugin {
  const svg = () => readFileSync(new URL('./public/favicon.svg', import.meta.url));
  const png = (size: number) =>
    sharp(svg(), { density: (72 * size) / 32 })
      .resize(size, size)
      .png({ compressionLevel: 9 })
      .toBuffer();
  return {
    name: 'fitting-room:brand-icons',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const size = BRAND_ICONS[req.url?.slice(1) as keyof typeof BRAND_ICONS];
        if (!size) return next();
        png(size).then((body) => {
          res.setHeader('Content-Type', 'image/png');
          res.end(body);
        }, next);
      });
    },
    async generateBundle() {
      for (const [fileName, size] of Object.entries(BRAND_ICONS)) {
        this.emitFile({ type: 'asset', fileName, source: await png(size) });
      }
    },
  };
}

const apiProxy = { '/api': { target: 'http://localhost:3000' } };

export default defineConfig(({ isSsrBuild }) => ({
  base: '/',
  plugins: [
    react(),
    htmlPlaceholders({ APP_NAME: DEFAULT_APP_NAME, THEME_COLOR: brandColours.brand['600'] }), // palette.ts's themeColor
    appModules(),
    ...(isSsrBuild ? [] : [brandIcons()]),
  ],
  server: { port: 5173, proxy: apiProxy },
  preview: { port: 4173, proxy: apiProxy },
  // The server's pre-render (src/entry-server.tsx, docs/frontend-performance.md): `vite build --ssr`
  // makes one self-contained CommonJS file the API process requires (the production image installs
  // the backend's packages only, not React's or Chakra's).
  ssr: { noExternal: true },
  build: isSsrBuild
    ? {
        outDir: 'dist-server',
        emptyOutDir: true,
        copyPublicDir: false,
        rolldownOptions: { output: { format: 'cjs', entryFileNames: '[name].cjs', codeSplitting: false } },
      }
    : {
        outDir: 'dist',
        rolldownOptions: {
          // The app (src/main.tsx) is an entry of its own: src/boot.ts imports it when the app starts,
          // and the vendor groups below (code the first screen needs, `$initial`) are counted from it.
          input: { index: 'index.html', main: 'src/main.tsx' },
          // Chakra's module makes a `defaultSystem` nobody here uses (the app makes its own,
          // src/theme/system.ts): building a system is pure, so the unused one is dropped. It cost
          // about 100 ms of main thread at every start (`npm run bench:web`).
          treeshake: { manualPureFunctions: ['createSystem'] },
          output: {
            // Vendor code changes less often than ours: keep it in its own long-cached chunks.
            // Only code the first screen needs ($initial) goes there; lazy routes keep their own.
            codeSplitting: {
              groups: [
                {
                  name: 'react',
                  test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser)[\\/]/,
                  tags: ['$initial'],
                  priority: 20,
                },
                {
                  name: 'chakra',
                  test: /[\\/]node_modules[\\/](@chakra-ui|@ark-ui|@zag-js|@emotion|@pandacss|@floating-ui|@internationalized|@swc[\\/]helpers|stylis|hoist-non-react-statics|react-is|proxy-compare|uqr|@babel[\\/]runtime)[\\/]/,
                  tags: ['$initial'],
                  priority: 10,
                },
                {
                  name: 'vendor',
                  test: /[\\/]node_modules[\\/]/,
                  tags: ['$initial'],
                  priority: 0,
                },
              ],
            },
          },
        },
      },
}));
