/**
 * The server's pre-render (docs/frontend-performance.md): the API process loads this module's
 * build (frontend/dist-server, `npm run build -w frontend`) and renders the public pages of
 * PRERENDERED_PATHS to HTML with the live catalogue, once per catalogue version. The browser then
 * hydrates that HTML (main.tsx). The tree is the browser's own (App, the same routes), so the markup
 * matches: the session is not known here, so the pages render as the browser's first render does.
 */
import createCache, { type EmotionCache } from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { SessionStore } from '@fitting-room/shared/browser';
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { App } from './app/App';
import { paths } from './app/paths';
import { createQueryClient } from './app/query-client';
import { routes } from './app/router';
import { formatDocumentTitle, renderedTitle } from './app/useDocumentTitle';
import { applyRuntimeConfig, type RuntimeAppConfig } from './config/app-config';
import AuthDialog from './features/auth/AuthDialog';
import { EARLY_AUTH_ID, EARLY_AUTH_MODES, EARLY_AUTH_STYLE_ID, type EarlyAuthMode, earlyAuthTemplateId } from './features/auth/early-auth';
import { sessionApi } from './features/auth/session-api';
import { heroPictures } from './features/landing/landing-catalog';
import { deferredStyles, emotionStyleTags } from './prerender/emotion-styles';
import { pageDataTag, seedQueries } from './prerender/page-data';
import type { CatalogResponseDto } from '@fitting-room/api-client';
import type { QueryClient } from '@tanstack/react-query';

export { PRERENDERED_PATHS, prerenderedPath, prerenderedDialog } from './prerender/prerendered-paths';

export interface PrerenderInput {
  /** one of PRERENDERED_PATHS */
  path: string;
  /** GET /api/catalog as a signed-out visitor gets it */
  catalog: CatalogResponseDto;
  /** the public configuration the server puts in `#app-config` */
  config: RuntimeAppConfig;
}

export interface PrerenderedPage {
  /** the page's title (text, not HTML), as useDocumentTitle sets it in the browser */
  title: string;
  /** for the end of the head: the hero pictures' preloads, the page's styles, its data block */
  head: string;
  /** the markup inside `<div id="root">` */
  body: string;
  /**
   * The markup after the root, by the dialog the URL opens (`/?auth=login`, `/?auth=signup`; `none`
   * for every other URL): the early auth dialog's markup of each mode in a `<template>`, which the
   * page's entry shows at a click on Log in or Sign up before the app is live, and, for a URL that
   * opens the dialog, that mode's dialog open (features/auth/early-auth.ts).
   */
  after: Record<EarlyAuthMode | 'none', string>;
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

// One render at a time: the configuration's values are module-level (config/app-config.ts).
let queue: Promise<unknown> = Promise.resolve();

/** Renders one page; rejects when anything in it failed to render (the server then serves the plain app). */
export function render(input: PrerenderInput): Promise<PrerenderedPage> {
  const page = queue.then(() => renderNow(input));
  queue = page.catch(() => undefined);
  return page;
}

async function renderNow({ path, catalog, config }: PrerenderInput): Promise<PrerenderedPage> {
  applyRuntimeConfig(config);
  renderedTitle.current = undefined;
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(path, 'http://prerender.invalid')));
  if (context instanceof Response) throw new Error(`${path} answered ${context.status}, not a page`);
  const router = createStaticRouter(handler.dataRoutes, context);

  const queryClient = createQueryClient();
  seedQueries(queryClient, { catalog });
  // compat: styles are collected in the cache, not rendered inline; they go in the head instead
  const cache = createCache({ key: 'css' });
  cache.compat = true;
  const errors: unknown[] = [];
  try {
    const { prelude } = await prerender(
      <StrictMode>
        <CacheProvider value={cache}>
          <App queryClient={queryClient} sessionStore={new SessionStore(sessionApi, { restore: false })}>
            <StaticRouterProvider router={router} context={context} hydrate={false} />
          </App>
        </CacheProvider>
      </StrictMode>,
      {
        onError: (error) => void errors.push(error),
        // every Suspense boundary inline, in place: an outlined one is completed by an inline
        // script, which the CSP (script-src 'self') blocks
        progressiveChunkSize: Number.POSITIVE_INFINITY,
      },
    );
    // React puts the resource hints it derives from the markup (preloads of its first images) before
    // the markup, inside the root: the head's preloads below are those, with their priority
    const body = (await new Response(prelude).text()).replace(/^(?:<link rel="preload"[^>]*>)+/, '');
    if (errors.length) throw new AggregateError(errors, `pre-rendering ${path} failed`);
    if (context.statusCode !== 200) throw new Error(`${path} rendered status ${context.statusCode}`);

    const title = renderedTitle.current ?? formatDocumentTitle();
    const dialogs = await renderEarlyAuthDialogs(cache, queryClient);
    // the dialog's styles the page lacks: parsed only when the dialog is shown
    const style = `<style>${deferredStyles(cache, body, Object.values(dialogs).join(''), `#${EARLY_AUTH_ID}`)}</style>`;
    const templates =
      `<template id="${EARLY_AUTH_STYLE_ID}">${style}</template>` +
      EARLY_AUTH_MODES.map((mode) => `<template id="${earlyAuthTemplateId(mode)}">${dialogs[mode]}</template>`).join('');
    const open = (mode: EarlyAuthMode) => `<div id="${EARLY_AUTH_ID}" data-mode="${mode}">${style}${dialogs[mode]}</div>`;

    const hero = path === paths.home ? heroPictures(catalog) : undefined;
    const head = [
      ...(hero ? [hero.after, hero.before] : []).map(
        (src) => `<link rel="preload" as="image" href="${escapeAttribute(src)}" fetchpriority="high">`,
      ),
      emotionStyleTags(cache, body),
      pageDataTag({ catalog }),
    ].join('');
    return { title, head, body, after: { none: templates, login: open('login') + templates, signup: open('signup') + templates } };
  } finally {
    queryClient.clear();
  }
}

const noop = () => undefined;

/**
 * The auth dialog's markup of each early mode, open (features/auth/early-auth.ts): the browser's own
 * AuthDialog rendered here, so the early dialog looks like the dialog that takes its place. Its ids
 * have a prefix of their own (the page's markup is another render).
 */
async function renderEarlyAuthDialogs(cache: EmotionCache, queryClient: QueryClient): Promise<Record<EarlyAuthMode, string>> {
  const dialogs = {} as Record<EarlyAuthMode, string>;
  for (const mode of EARLY_AUTH_MODES) {
    const handler = createStaticHandler([
      { path: '*', element: <AuthDialog open mode={mode} errorCode={null} onModeChange={noop} onClose={noop} /> },
    ]);
    const context = await handler.query(new Request(new URL(`/?auth=${mode}`, 'http://prerender.invalid')));
    if (context instanceof Response) throw new Error(`the ${mode} dialog answered ${context.status}`);
    const errors: unknown[] = [];
    const { prelude } = await prerender(
      <CacheProvider value={cache}>
        <App queryClient={queryClient} sessionStore={new SessionStore(sessionApi, { restore: false })}>
          <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />
        </App>
      </CacheProvider>,
      {
        identifierPrefix: `${EARLY_AUTH_ID}-${mode}-`,
        onError: (error) => void errors.push(error),
        progressiveChunkSize: Number.POSITIVE_INFINITY,
      },
    );
    if (errors.length) throw new AggregateError(errors, `pre-rendering the ${mode} dialog failed`);
    dialogs[mode] = (await new Response(prelude).text()).replace(/^(?:<link rel="preload"[^>]*>)+/, '');
  }
  return dialogs;
}
