import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Logger } from '@nestjs/common';
import express, { NextFunction, Request, Response } from 'express';
import { type AppConfig } from '../config/app-config';
import { CatalogService } from '../modules/catalog/catalog.service';
import { escapeHtml, loadPrerenderBundle, PrerenderedPages } from './prerender';
import type { INestApplication } from '@nestjs/common';

/** Repository root: backend/dist/bootstrap -> ../../.. ; backend/src/bootstrap (tests) -> ../../.. */
export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

interface UiBundle {
  mount: string; // '' for the user app, '/admin' for the console
  dir: string;
}

/** Weak ETags of the pages served, by their (cached, so same-object) HTML text. */
const etags = new Map<string, string>();

function etagOf(html: string): string {
  let etag = etags.get(html);
  if (!etag) {
    if (etags.size >= 64) etags.clear();
    etag = `W/"${createHash('sha1').update(html).digest('base64url')}"`;
    etags.set(html, etag);
  }
  return etag;
}

/** What the browser apps may know of the configuration (frontend/src/config/app-config.ts reads it). */
function publicConfig(config: AppConfig) {
  return {
    appName: config.appName,
    supportEmail: config.contact.supportEmail,
    businessEmail: config.contact.businessEmail,
    // the privacy policy states it (UPLOAD_RETENTION_DAYS)
    uploadRetentionDays: config.privacy.uploadRetentionDays,
  };
}

/** The public configuration in a JSON data block (not a script, so CSP allows it). */
function injectPublicConfig(html: string, config: AppConfig): string {
  const json = JSON.stringify(publicConfig(config)).replace(/</g, '\\u003c');
  const escapedName = escapeHtml(config.appName);
  return html
    .replace(/<title>[^<]*<\/title>/, `<title>${escapedName}</title>`)
    .replace('</head>', `  <script id="app-config" type="application/json">${json}</script>\n  </head>`);
}

/**
 * Serves the built user app at `/` and the console at `/admin` from the same port as the API.
 * Hashed assets are cached for a year; index.html never (so a deploy is picked up at once).
 * Unknown non-API paths fall back to the app's index.html (client-side routing). The user app's
 * public pages (landing, pricing, legal) are served rendered to HTML with the live catalogue when
 * the frontend's pre-render bundle was built (frontend/dist-server; docs/frontend-performance.md).
 */
export function serveUserInterfaces(app: INestApplication, config: AppConfig): void {
  const server = app.getHttpAdapter().getInstance() as express.Express;
  const bundles: UiBundle[] = [
    { mount: '/admin', dir: path.join(REPO_ROOT, 'admin-ui', 'dist') },
    { mount: '', dir: path.join(REPO_ROOT, 'frontend', 'dist') },
  ];

  const logger = new Logger('UserInterfaces');
  const prerenderBundle = loadPrerenderBundle(path.join(REPO_ROOT, 'frontend', 'dist-server', 'entry-server.cjs'), logger);
  const prerendered = prerenderBundle
    ? new PrerenderedPages(prerenderBundle, () => app.get(CatalogService, { strict: false }), publicConfig(config), logger)
    : undefined;

  for (const bundle of bundles) {
    const index = path.join(bundle.dir, 'index.html');
    const staticHandler = express.static(bundle.dir, {
      index: false,
      redirect: false,
      fallthrough: true,
      setHeaders: (res, filePath) => {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`) || filePath.includes(`${path.sep}artwork${path.sep}`);
        res.setHeader('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
      },
    });
    let cached: { mtimeMs: number; html: string } | undefined;
    const readIndex = () => {
      if (!fs.existsSync(index)) return undefined;
      const mtimeMs = fs.statSync(index).mtimeMs;
      if (cached?.mtimeMs !== mtimeMs) cached = { mtimeMs, html: injectPublicConfig(fs.readFileSync(index, 'utf8'), config) };
      return cached;
    };
    const pages = bundle.mount ? undefined : prerendered;
    const sendIndex = (req: Request, res: Response, next: NextFunction) => {
      const page = readIndex();
      if (!page) return next();
      const send = (html: string) => {
        res.setHeader('Cache-Control', 'no-cache');
        res.setHeader('ETag', etagOf(html)); // a revalidation answers 304 until a deploy or a catalogue change
        res.type('html').send(html);
      };
      if (!pages) return send(page.html);
      void pages.html(req.originalUrl, page).then((html) => send(html ?? page.html), next);
    };
    if (pages && config.isProduction) {
      // rendered at start, so the first visitor does not wait (again on the first visit after a catalogue change)
      app.getHttpServer().once('listening', () => {
        const page = readIndex();
        if (page) void pages.warm(page);
      });
    }
    const router = express.Router();
    router.use(staticHandler);
    router.use((req: Request, res: Response, next: NextFunction) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') return next();
      if (path.extname(req.path)) return next(); // a missing asset is a 404, not the app shell
      sendIndex(req, res, next);
    });
    server.use(bundle.mount || '/', (req: Request, res: Response, next: NextFunction) => {
      if (req.originalUrl.startsWith('/api/') || req.originalUrl === '/api') return next();
      if (!bundle.mount && (req.originalUrl === '/admin' || req.originalUrl.startsWith('/admin/'))) return next();
      router(req, res, next);
    });
  }
}
