import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Logger } from '@nestjs/common';
import { loadPrerenderBundle, pageHtml, PrerenderedPages, type PrerenderBundle } from './prerender';
import type { CatalogService } from '../modules/catalog/catalog.service';

const INDEX = `<!doctype html><html><head><title>Shop</title><script type="module" crossorigin src="/assets/index.js"></script><link rel="modulepreload" crossorigin href="/assets/helper.js">\n    <link rel="modulepreload" crossorigin href="/assets/main.js" data-app-module>\n    <link rel="modulepreload" crossorigin href="/assets/react.js" data-app-module>\n</head><body><div id="root"></div></body></html>`;

describe('the pre-rendered pages in index.html', () => {
  it("puts the page's title, head and markup in, fetches the entry at low priority and leaves the app's modules for later", () => {
    const html = pageHtml(INDEX, { title: 'Pricing · A&B', head: '<style>a{}</style>', body: '<main>$1 & $&</main>' });
    expect(html).toBe(
      '<!doctype html><html><head><title>Pricing · A&amp;B</title>' +
        '<script type="module" fetchpriority="low" crossorigin src="/assets/index.js"></script>' +
        '<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/helper.js">\n' +
        '<template id="app-modules"><link rel="modulepreload" crossorigin href="/assets/main.js" data-app-module>' +
        '<link rel="modulepreload" crossorigin href="/assets/react.js" data-app-module></template><style>a{}</style></head>' +
        '<body><div id="root"><main>$1 & $&</main></div></body></html>',
    );
  });

  it('gives up on an index.html without an empty root', () => {
    expect(pageHtml(INDEX.replace('<div id="root"></div>', '<div id="root">x</div>'), { title: '', head: '', body: '' })).toBeUndefined();
  });

  it('is off without the built bundle (the plain app is served)', () => {
    const missing = path.join(os.tmpdir(), `no-such-bundle-${Date.now()}.cjs`);
    expect(fs.existsSync(missing)).toBe(false);
    expect(loadPrerenderBundle(missing, new Logger('test'))).toBeUndefined();
  });

  it('renders each page once per catalogue version, and again when the version changes', async () => {
    let etag = 'W/"1"';
    const catalog = { encodedCatalog: () => ({ bytes: Buffer.from(`{"v":${etag.length}}`), etag }) } as unknown as CatalogService;
    const renders: string[] = [];
    const bundle: PrerenderBundle = {
      PRERENDERED_PATHS: ['/'],
      prerenderedPath: (url) => (url.split('?')[0] === '/' && !url.includes('auth=') ? '/' : null),
      render: async ({ path: page }) => {
        renders.push(`${page} ${etag}`);
        return { title: 'Shop', head: '', body: `<p>${etag}</p>` };
      },
    };
    const pages = new PrerenderedPages(bundle, () => catalog, {}, new Logger('test'));
    const index = { html: INDEX, mtimeMs: 1 };
    const [a, b] = await Promise.all([pages.html('/', index), pages.html('/?utm_source=x', index)]);
    expect(a).toContain('<p>W/"1"</p>');
    expect(b).toBe(a);
    expect(await pages.html('/?auth=login', index)).toBeUndefined();
    expect(renders).toEqual(['/ W/"1"']);
    etag = 'W/"2"';
    expect(await pages.html('/', index)).toContain('<p>W/"2"</p>');
    expect(renders).toEqual(['/ W/"1"', '/ W/"2"']);
  });
});
