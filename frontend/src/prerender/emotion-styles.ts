/** The parts of an emotion cache (@emotion/cache) that the server's pre-render reads after rendering. */
export interface EmotionCacheContents {
  key: string;
  /** id -> the CSS inserted for it (a string on the server; `true` once a browser's stylesheet holds it) */
  inserted: Record<string, string | true | undefined>;
  /** `${key}-${id}` -> the class's styles, for class styles only (global styles are not registered) */
  registered: Record<string, string | undefined>;
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The `<style>` tags for the head of a page rendered with `cache` (in `compat` mode, so that no style
 * is rendered inline): the attributes emotion's browser side adopts, so nothing is inserted twice.
 *  - each global style (Chakra's reset, its tokens as CSS variables, the layer order) in its own
 *    `<style data-emotion="KEY-global NAME">`: emotion's `<Global>` adopts that tag instead of inserting;
 *  - the class styles the HTML uses (and the keyframes, `animation-*`), in one
 *    `<style data-emotion="KEY ID ID ...">`: the browser's default cache (the same key) records those
 *    ids as inserted when it starts.
 * The same shapes as @emotion/server's extractCriticalToChunks and constructStyleTagsFromChunks, plus
 * `data-s`: the mark emotion's cache puts on a tag it has placed already. Without it the cache moves
 * every server style tag to the end of the head when it starts, and the browser parses the page's
 * CSS again and recomputes the style of every element, a long task on a phone.
 */
export function emotionStyleTags(cache: EmotionCacheContents, html: string): string {
  const used = new Set<string>();
  const pattern = new RegExp(`${cache.key}-([a-zA-Z0-9_-]+)`, 'g');
  for (const match of html.matchAll(pattern)) used.add(match[1]);

  const tags: string[] = [];
  const classIds: string[] = [];
  let classCss = '';
  for (const [id, css] of Object.entries(cache.inserted)) {
    if (typeof css !== 'string') continue;
    if (id.startsWith('animation-')) {
      // keyframes (emotion's `keyframes`): inserted with the class styles that name them
      classIds.push(id);
      classCss += css;
    } else if (cache.registered[`${cache.key}-${id}`] === undefined) {
      tags.push(`<style data-emotion="${escapeAttribute(`${cache.key}-global ${id}`)}" data-s="">${css}</style>`);
    } else if (used.has(id)) {
      classIds.push(id);
      classCss += css;
    }
  }
  if (classIds.length)
    tags.push(`<style data-emotion="${escapeAttribute([cache.key, ...classIds].join(' '))}" data-s="">${classCss}</style>`);
  return tags.join('');
}
