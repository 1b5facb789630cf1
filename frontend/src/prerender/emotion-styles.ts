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
 *    one whose unread CSS variables were pruned is `KEY-prerendered NAME` instead, so that `<Global>`
 *    inserts the whole style when the app starts;
 *  - the class styles the HTML uses (and the keyframes, `animation-*`), in one
 *    `<style data-emotion="KEY ID ID ...">`: the browser's default cache (the same key) records those
 *    ids as inserted when it starts.
 * The same shapes as @emotion/server's extractCriticalToChunks and constructStyleTagsFromChunks, plus
 * `data-s`: the mark emotion's cache puts on a tag it has placed already. Without it the cache moves
 * every server style tag to the end of the head when it starts, and the browser parses the page's
 * CSS again and recomputes the style of every element, a long task on a phone.
 */
interface Declaration {
  name: string;
  /** the declaration's span in its CSS, `;` included */
  start: number;
  end: number;
  value: string;
}

const DECLARATION_START = /(^|[{;\s])(--[\w-]+)\s*:/g;
const REFERENCE = /var\(\s*(--[\w-]+)/g;

/** The custom property declarations (`--name: value;`) of a stylesheet; a value ends at `;` or `}` outside parentheses and quotes. */
function customPropertyDeclarations(css: string): Declaration[] {
  const found: Declaration[] = [];
  for (const match of css.matchAll(DECLARATION_START)) {
    const start = match.index + match[1].length;
    let i = match.index + match[0].length;
    let depth = 0;
    let quote = '';
    for (; i < css.length; i++) {
      const c = css[i];
      if (quote) {
        if (c === '\\') i++;
        else if (c === quote) quote = '';
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '(') depth++;
      else if (c === ')') depth--;
      else if (depth <= 0 && (c === ';' || c === '}')) break;
    }
    const end = css[i] === ';' ? i + 1 : i;
    found.push({ name: match[2], start, end, value: css.slice(match.index + match[0].length, i) });
  }
  return found;
}

/**
 * The global styles without the custom properties nothing on the page reads: Chakra declares every
 * token of the design system as a CSS variable (about 600), the landing page reads about 150, and a
 * phone computes every inherited variable for every element of the first layout. A variable is kept
 * when a class style, the markup, a global style's ordinary declaration, or a kept variable's value
 * reads it. Answers the styles in order.
 */
export function pruneCustomProperties(globals: string[], readers: string): { css: string[] } {
  const declarations = globals.map(customPropertyDeclarations);
  const used = readVariables(globals, declarations, readers);
  const css = globals.map((text, i) => {
    let out = '';
    let from = 0;
    for (const d of declarations[i]) {
      if (used.has(d.name)) continue;
      out += text.slice(from, d.start);
      from = d.end;
    }
    return out + text.slice(from);
  });
  return { css };
}

/** The custom properties read by `readers`, by the global styles' ordinary declarations, and by the values of those, in turn. */
function readVariables(globals: string[], declarations: Declaration[][], readers: string): Set<string> {
  const values = new Map<string, string[]>();
  for (const d of declarations.flat()) values.set(d.name, [...(values.get(d.name) ?? []), d.value]);
  const used = new Set<string>();
  const queue: string[] = [];
  const read = (text: string) => {
    for (const [, name] of text.matchAll(REFERENCE)) {
      if (used.has(name)) continue;
      used.add(name);
      queue.push(name);
    }
  };
  read(readers);
  globals.forEach((css, i) => {
    let rest = '';
    let from = 0;
    for (const d of declarations[i]) {
      rest += css.slice(from, d.start);
      from = d.end;
    }
    read(rest + css.slice(from));
  });
  for (let name = queue.pop(); name !== undefined; name = queue.pop()) for (const value of values.get(name) ?? []) read(value);
  return used;
}

interface CacheParts {
  globals: Array<{ id: string; css: string }>;
  /** the keyframes: sent with the page's class styles */
  keyframes: Array<{ id: string; css: string }>;
  /** class styles by id */
  classes: Map<string, string>;
}

function cacheParts(cache: EmotionCacheContents): CacheParts {
  const parts: CacheParts = { globals: [], keyframes: [], classes: new Map() };
  for (const [id, css] of Object.entries(cache.inserted)) {
    if (typeof css !== 'string') continue;
    // keyframes (emotion's `keyframes`): inserted with the class styles that name them
    if (id.startsWith('animation-')) parts.keyframes.push({ id, css });
    else if (cache.registered[`${cache.key}-${id}`] === undefined) parts.globals.push({ id, css });
    else parts.classes.set(id, css);
  }
  return parts;
}

/** The class ids `html` names, in the cache's insertion order. */
function classesOf(cache: EmotionCacheContents, parts: CacheParts, html: string): string[] {
  const named = new Set<string>();
  for (const match of html.matchAll(new RegExp(`${cache.key}-([a-zA-Z0-9_-]+)`, 'g'))) named.add(match[1]);
  return [...parts.classes.keys()].filter((id) => named.has(id));
}

/**
 * The styles of markup the page holds but does not show yet (the early auth dialog's templates,
 * features/auth/early-auth.ts), as CSS for a `<style>` that goes into the page with that markup: the
 * class styles the page's own tag (emotionStyleTags of `pageHtml`) lacks, and the custom properties
 * they read that the page's pruned global styles dropped, set on `container` (a selector of the
 * element the markup goes into). A plain `<style>`, not one emotion adopts:
 * the markup leaves the page when the app takes over, and its style with it, and the app's emotion
 * cache must then insert those classes itself.
 */
export function deferredStyles(cache: EmotionCacheContents, pageHtml: string, laterHtml: string, container: string): string {
  const parts = cacheParts(cache);
  const pageIds = new Set(classesOf(cache, parts, pageHtml));
  const laterIds = classesOf(cache, parts, laterHtml).filter((id) => !pageIds.has(id));
  const pageCss = [...pageIds].map((id) => parts.classes.get(id)).join('');
  const laterCss = laterIds.map((id) => parts.classes.get(id)).join('');
  const globals = parts.globals.map((g) => g.css);
  const declarations = globals.map(customPropertyDeclarations);
  const onPage = readVariables(globals, declarations, pageCss + pageHtml);
  const needed = readVariables(globals, declarations, pageCss + pageHtml + laterCss + laterHtml);
  const values = new Map<string, string>();
  for (const d of declarations.flat()) if (needed.has(d.name) && !onPage.has(d.name) && !values.has(d.name)) values.set(d.name, d.value);
  const variables = [...values].map(([name, value]) => `${name}:${value};`).join('');
  // on the container only: a variable set on the root would make the browser recompute the style of
  // every element of the page when the markup comes; the container's subtree is all that reads them
  return (variables ? `${container}{${variables}}` : '') + laterCss;
}

export function emotionStyleTags(cache: EmotionCacheContents, html: string): string {
  const parts = cacheParts(cache);
  const classIds = classesOf(cache, parts, html);
  let classCss = classIds.map((id) => parts.classes.get(id)).join('');
  for (const { id, css } of parts.keyframes) {
    classIds.push(id);
    classCss += css;
  }
  const globals = parts.globals;
  const tags: string[] = [];
  const kept = pruneCustomProperties(
    globals.map((g) => g.css),
    classCss + html,
  ).css;
  globals.forEach(({ id, css }, i) => {
    // a pruned global style is the page's own: named so that <Global> does not adopt it but inserts
    // the whole style when the app starts (dialogs and other pages read the other variables)
    const name = kept[i] === css ? `${cache.key}-global ${id}` : `${cache.key}-prerendered ${id}`;
    tags.push(`<style data-emotion="${escapeAttribute(name)}" data-s="">${kept[i]}</style>`);
  });
  if (classIds.length)
    tags.push(`<style data-emotion="${escapeAttribute([cache.key, ...classIds].join(' '))}" data-s="">${classCss}</style>`);
  return tags.join('');
}
