import { describe, expect, it } from 'vitest';
import { emotionStyleTags } from './emotion-styles';

describe("the pre-rendered page's style tags", () => {
  const cache = {
    key: 'css',
    inserted: {
      // a global style (<Global>): not registered
      gl1: ':root{--c:red;}',
      // class styles: registered; the second one is not used by the HTML
      abc: '.css-abc{color:red;}',
      unused: '.css-unused{color:blue;}',
      def: '.css-def{margin:0;}',
      // already in a browser stylesheet: nothing to send
      old: true as const,
      // keyframes: not registered either, but inserted with the class styles that use them
      'animation-k1': '@keyframes animation-k1{from{opacity:0;}}',
    },
    registered: { 'css-abc': 'color:red;', 'css-unused': 'color:blue;', 'css-def': 'margin:0;', 'css-old': 'x' },
  };

  it('puts each global style in a tag <Global> adopts, and the used class styles in one tag the cache adopts', () => {
    const tags = emotionStyleTags(cache, '<div class="css-abc"><p class="x css-def">Hi</p></div>');
    expect(tags).toBe(
      '<style data-emotion="css-global gl1" data-s="">:root{--c:red;}</style>' +
        '<style data-emotion="css abc def animation-k1" data-s="">.css-abc{color:red;}.css-def{margin:0;}@keyframes animation-k1{from{opacity:0;}}</style>',
    );
  });

  it('leaves out class styles the HTML does not use, and sends no class tag when none is used', () => {
    const tags = emotionStyleTags({ ...cache, inserted: { unused: '.css-unused{color:blue;}' } }, '<p>plain</p>');
    expect(tags).toBe('');
  });
});
