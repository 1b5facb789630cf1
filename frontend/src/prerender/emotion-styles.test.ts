import { describe, expect, it } from 'vitest';
import { emotionStyleTags, pruneCustomProperties } from './emotion-styles';

describe("the pre-rendered page's style tags", () => {
  const cache = {
    key: 'css',
    inserted: {
      // a global style (<Global>): not registered
      gl1: ':root{--c:red;}',
      // class styles: registered; the second one is not used by the HTML
      abc: '.css-abc{color:var(--c);}',
      unused: '.css-unused{color:blue;}',
      def: '.css-def{margin:0;}',
      // already in a browser stylesheet: nothing to send
      old: true as const,
      // keyframes: not registered either, but inserted with the class styles that use them
      'animation-k1': '@keyframes animation-k1{from{opacity:0;}}',
    },
    registered: { 'css-abc': 'color:var(--c);', 'css-unused': 'color:blue;', 'css-def': 'margin:0;', 'css-old': 'x' },
  };

  it('puts each global style in a tag <Global> adopts, and the used class styles in one tag the cache adopts', () => {
    const tags = emotionStyleTags(cache, '<div class="css-abc"><p class="x css-def">Hi</p></div>');
    expect(tags).toBe(
      '<style data-emotion="css-global gl1" data-s="">:root{--c:red;}</style>' +
        '<style data-emotion="css abc def animation-k1" data-s="">.css-abc{color:var(--c);}.css-def{margin:0;}@keyframes animation-k1{from{opacity:0;}}</style>',
    );
  });

  it('leaves out class styles the HTML does not use, and sends no class tag when none is used', () => {
    const tags = emotionStyleTags({ ...cache, inserted: { unused: '.css-unused{color:blue;}' } }, '<p>plain</p>');
    expect(tags).toBe('');
  });
});

describe('pruning the custom properties a pre-rendered page does not read', () => {
  it('keeps what the classes, the markup and ordinary declarations read, and what those variables read in turn', () => {
    const globals = [
      ':where(html){--a:1px;--b:var(--c);--c:red;--unused:url("data:image/svg+xml;utf8,<svg>;</svg>");--d:blue}',
      'html{font-family:var(--font, var(--fallback));--font:serif;--fallback:sans;--gone:0}',
    ];
    const { css } = pruneCustomProperties(globals, '.x{color:var(--b)}<p style="margin:var(--a)">');
    expect(css).toEqual([
      ':where(html){--a:1px;--b:var(--c);--c:red;}',
      'html{font-family:var(--font, var(--fallback));--font:serif;--fallback:sans;}',
    ]);
  });

  it('names a pruned global style so that emotion does not adopt it, and leaves an untouched one adoptable', () => {
    const tags = emotionStyleTags(
      {
        key: 'css',
        inserted: { gl1: ':root{--c:red;--d:blue;}', gl2: 'body{margin:0}', abc: '.css-abc{color:var(--c);}' },
        registered: { 'css-abc': 'color:var(--c);' },
      },
      '<div class="css-abc"></div>',
    );
    expect(tags).toBe(
      '<style data-emotion="css-prerendered gl1" data-s="">:root{--c:red;}</style>' +
        '<style data-emotion="css-global gl2" data-s="">body{margin:0}</style>' +
        '<style data-emotion="css abc" data-s="">.css-abc{color:var(--c);}</style>',
    );
  });
});
