import { fold, foldKeepingCase } from './normalize';

/**
 * Splits a custom pose into words for the vocabulary check, and reports every character that a
 * pose description has no use for. Allowed between words: white space, commas, full stops,
 * colons, semicolons, "!", "?", "&", "%", "/", brackets "(" ")", apostrophes, hyphens and dashes;
 * inside words: letters, digits, an apostrophe or a hyphen between two letters, and ".", ",", ":"
 * between digits ("1.5", "5:30", "1,000"). The characters of code ("<", ">", "{", "}", "[", "]",
 * "=", "|", "\\", "`"), links, e-mail addresses and "@handles" are how instructions to the AI are
 * written: refused as injection. Any other character (quotes, "+", "#", "~", emoji...) is not
 * understood (docs/safety.md).
 */
export interface RawWord {
  /** lower case, accents stripped, look-alike letters read as Latin ones (normalize.fold) */
  text: string;
  /** as typed, after NFKC and with invisible characters removed: for the capitals of names */
  typed: string;
  /** first word of the text or of a sentence (after . ! ?) */
  sentenceStart: boolean;
  /** first word after a comma, semicolon, dash or "&" (or a sentence start) */
  clauseStart: boolean;
  /** joined to the word before by "-" ("white-sand" is "white" and "sand"), set by the vocabulary check */
  joined?: boolean;
  /** the characters between the word before and this one, as typed ("" for the first word: what comes before it) */
  gap: string;
  /** the characters between this word and the next one (or the end of the text) */
  after: string;
}

/**
 * A character the check has no use for: `code` (how instructions, links and handles are written:
 * injection, a safety refusal), `symbol` (not understood: quotes, "+", emoji...), `script`
 * (another script: another language). `character` is the character itself, for the person.
 */
export interface CharacterProblem {
  kind: 'code' | 'symbol' | 'script';
  rule: string;
  character?: string;
  /** the word in another script, as typed */
  word?: string;
}

export interface SplitText {
  words: RawWord[];
  problems: CharacterProblem[];
}

/** Characters allowed between words. */
const GAP_CHARACTER = /[\s,.:;!?&%/()'\-–—]/u;
/** Characters of code: refused as injection wherever they are. */
const CODE_CHARACTER = /[<>{}[\]=|\\`]/u;
/** A word; ".", ",", ":" between digits stay inside it ("1.5", "5:30pm", "1,000"). */
const WORD = /[\p{L}\p{N}@$*]+(?:['-][\p{L}\p{N}@$*]+|(?<=[0-9])[.,:][0-9][\p{L}\p{N}]*)*/gu;
/** what is left of a word after fold() when it was written in Latin letters (or look-alikes of them) */
const LATIN_WORD = /^[a-z0-9@$*'.,:-]+$/;

const APOSTROPHES = /[\u2018\u2019\u201B\u02BC\u02B9\u0060\u00B4\u2032]/g;
const HYPHENS = /[\u2010\u2011\u2012\u2043\u2212\uFE63\uFF0D]/g;

/** Signs of a link, an e-mail address, a handle (injection) or an emoji (not understood), looked for in the text as typed. */
const TEXT_PATTERNS: Array<[RegExp, string, CharacterProblem['kind']]> = [
  [/\p{Extended_Pictographic}|[\u{1F1E6}-\u{1F1FF}]|\uFE0F|\u20E3/u, 'emoji', 'symbol'],
  [/https?:|www\.|\b[\p{L}\p{N}-]+\.(?:com|net|org|io|ai|co|uk|ly|me|app|dev|xyz|info|biz|tv|gg|ru|de|fr)\b/iu, 'link', 'code'],
  [/[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+\.[\p{L}]{2,}/u, 'e-mail address', 'code'],
  [/(?:^|[^\p{L}\p{N}])@[\p{L}\p{N}_]/u, '@handle', 'code'],
];

function codePoint(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The problems of the characters between two words. */
function gapProblems(gap: string): CharacterProblem[] {
  const bad = [...new Set([...gap].filter((c) => !GAP_CHARACTER.test(c)))];
  return bad.map((c) => ({ kind: CODE_CHARACTER.test(c) ? 'code' : 'symbol', rule: `character ${codePoint(c)}`, character: c }));
}

export function splitWords(text: string): SplitText {
  const problems: CharacterProblem[] = [];
  for (const [pattern, rule, kind] of TEXT_PATTERNS) if (pattern.test(text)) problems.push({ kind, rule });

  const cased = foldKeepingCase(text).replace(APOSTROPHES, "'").replace(HYPHENS, '-');
  const words: RawWord[] = [];
  let lastEnd = 0;
  let sentence = true;
  let clause = true;
  let pendingJoin = false;
  for (const m of cased.matchAll(WORD)) {
    const gap = cased.slice(lastEnd, m.index);
    problems.push(...gapProblems(gap));
    lastEnd = m.index + m[0].length;
    if (/[.!?]/.test(gap)) sentence = true;
    if (/[,;:&()–—.!?]/.test(gap)) clause = true;
    const typed = m[0];
    const folded = fold(typed).replace(APOSTROPHES, "'").replace(HYPHENS, '-');
    if (!LATIN_WORD.test(folded)) problems.push({ kind: 'script', rule: `word #${words.length + 1} is not in Latin letters`, word: typed });
    // "e.g.", "n.u.d.e": single letters joined by full stops are one word
    const previous = words[words.length - 1];
    if (previous) previous.after = gap;
    if (pendingJoin && gap === '.' && folded.length === 1 && previous && /^[a-z0-9@$*]+$/.test(previous.text)) {
      previous.text += folded;
      previous.typed += `.${typed}`;
      continue;
    }
    pendingJoin = folded.length === 1;
    words.push({ text: folded, typed, sentenceStart: sentence, clauseStart: clause || sentence, gap, after: '' });
    sentence = false;
    clause = false;
  }
  const tail = cased.slice(lastEnd);
  if (words.length > 0) words[words.length - 1].after = tail;
  problems.push(...gapProblems(tail));
  return { words, problems };
}
