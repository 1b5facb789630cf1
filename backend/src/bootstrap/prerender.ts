import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import { Logger } from '@nestjs/common';
import type { CatalogService } from '../modules/catalog/catalog.service';

/**
 * What frontend/src/entry-server.tsx exports, built into frontend/dist-server by `npm run build -w frontend`.
 * docs/frontend-performance.md tells why it renders here, at start and on catalogue change.
 */
export interface PrerenderBundle {
  /** the page that serves a request's URL (path and search), or null when none is pre-rendered */
  prerenderedPath(url: string): string | null;
  /** the auth dialog that URL opens over its page (`/?auth=login`, `/?auth=signup`), or null (absent in an older build) */
  prerenderedDialog?(url: string): string | null;
  PRERENDERED_PATHS: readonly string[];
  render(input: { path: string; catalog: unknown; config: object }): Promise<RenderedPage>;
}

/**
 * One rendered page: its title (text), what goes at the end of the head, the root's markup, and what
 * follows the root by the dialog the URL opens (`none` for none): the early auth dialog's templates,
 * and the open dialog (docs/frontend-performance.md).
 */
export interface RenderedPage {
  title: string;
  head: string;
  body: string;
  after?: Record<string, string | undefined>;
}

/** Text for HTML (element content or a quoted attribute). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

/** The pre-render bundle, or undefined when the frontend was built without it (the plain app is served then). */
export function loadPrerenderBundle(file: string, logger: Logger): PrerenderBundle | undefined {
  if (!fs.existsSync(file)) return undefined;
  try {
    const bundle = createRequire(__filename)(file) as Partial<PrerenderBundle>;
    if (typeof bundle.render !== 'function' || typeof bundle.prerenderedPath !== 'function') throw new Error('unexpected exports');
    return bundle as PrerenderBundle;
  } catch (err) {
    logger.warn(`could not load the pre-render bundle ${file}; serving the plain app: ${String(err)}`);
    return undefined;
  }
}

/**
 * Puts a rendered page into the app's index.html (its public configuration injected already). The
 * page is painted without the app's scripts: the entry (src/boot.ts) is fetched at low priority, and
 * the links that would fetch the app's modules with it (`data-app-module`) go into an inert
 * `<template id="app-modules">`, so the hero pictures and the HTML have the connection. The entry
 * fetches them when a person shows up, and runs them when the app is needed or the page has been idle
 * a while (docs/frontend-performance.md). After the root: the early auth dialog's markup, open when
 * the URL asks for the dialog (`dialog`).
 */
export function pageHtml(indexHtml: string, page: RenderedPage, dialog: string | null = null): string | undefined {
  const root = '<div id="root"></div>';
  if (!indexHtml.includes(root) || !indexHtml.includes('</head>') || !/<title>[^<]*<\/title>/.test(indexHtml)) return undefined;
  const after = page.after?.[dialog ?? 'none'];
  if (dialog && after === undefined) return undefined;
  // an open dialog is modal from the first paint: the page behind it is inert until the dialog closes
  const rootTag = dialog ? '<div id="root" inert>' : '<div id="root">';
  // the app's modules: listed for the entry, which fetches them when a person shows up (not with the page)
  const appModules: string[] = [];
  // functions as replacements: a `$` in the page is text, not a replacement pattern
  return indexHtml
    .replace(/[ \t]*(<link rel="modulepreload"[^>]*\sdata-app-module[^>]*>)\n?/g, (_, link: string) => {
      appModules.push(link);
      return '';
    })
    .replace(/<(script type="module"|link rel="modulepreload")(?![^>]*fetchpriority)/g, '<$1 fetchpriority="low"')
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(page.title)}</title>`)
    .replace(
      '</head>',
      () => `${appModules.length ? `<template id="app-modules">${appModules.join('')}</template>` : ''}${page.head}</head>`,
    )
    .replace(root, () => `${rootTag}${page.body}</div>${after ?? ''}`);
}

/**
 * The pre-rendered public pages, each rendered once per catalogue version (and per index.html, so a
 * new build is never mixed with an old render), never per request: a request finds the page of the
 * current version, or waits for its one render. A page that fails to render is served as the plain
 * app until the next version.
 */
export class PrerenderedPages {
  /** by path: the render of the current version */
  private readonly pages = new Map<string, { key: string; page: Promise<RenderedPage | undefined> }>();
  /** by path and dialog: the HTML made of that render */
  private readonly variants = new Map<string, { page: Promise<RenderedPage | undefined>; html: Promise<string | undefined> }>();

  constructor(
    private readonly bundle: PrerenderBundle,
    private readonly catalog: () => CatalogService,
    private readonly publicConfig: object,
    private readonly logger: Logger,
  ) {}

  /** The page's HTML for `url` (path and search), or undefined: not a pre-rendered page, or its render failed. */
  async html(url: string, index: { html: string; mtimeMs: number }): Promise<string | undefined> {
    const path = this.bundle.prerenderedPath(url);
    if (path === null) return undefined;
    const dialog = this.bundle.prerenderedDialog?.(url) ?? null;
    // the anonymous answer of GET /api/catalog, made once per catalogue version by CatalogService
    const { bytes, etag } = this.catalog().encodedCatalog('free', 'identity');
    const key = `${index.mtimeMs}:${etag}`;
    let rendered = this.pages.get(path);
    if (rendered?.key !== key) {
      rendered = { key, page: this.render(path, bytes) };
      this.pages.set(path, rendered);
    }
    const variant = `${path}\n${dialog ?? ''}`;
    let made = this.variants.get(variant);
    if (made?.page !== rendered.page) {
      const page = rendered.page;
      made = { page, html: page.then((p) => (p ? this.compose(path, p, index.html, dialog) : undefined)) };
      this.variants.set(variant, made);
    }
    return made.html;
  }

  /** Renders every pre-rendered page for the current catalogue (at start, so the first visitor does not wait). */
  async warm(index: { html: string; mtimeMs: number }): Promise<void> {
    await Promise.all(this.bundle.PRERENDERED_PATHS.map((path) => this.html(path, index)));
  }

  private async render(path: string, catalogJson: Buffer): Promise<RenderedPage | undefined> {
    const started = Date.now();
    try {
      const page = await this.bundle.render({ path, catalog: JSON.parse(catalogJson.toString('utf8')), config: this.publicConfig });
      this.logger.debug(`pre-rendered ${path} in ${Date.now() - started} ms`);
      return page;
    } catch (err) {
      this.logger.warn(
        `could not pre-render ${path}; serving the plain app until the catalogue changes: ${err instanceof Error ? err.stack : String(err)}`,
      );
      return undefined;
    }
  }

  private compose(path: string, page: RenderedPage, indexHtml: string, dialog: string | null): string | undefined {
    const html = pageHtml(indexHtml, page, dialog);
    if (html === undefined) {
      this.logger.warn(
        `could not pre-render ${path}: index.html has no empty <div id="root"></div> or </head>, or the page no ${dialog} dialog`,
      );
    }
    return html;
  }
}
