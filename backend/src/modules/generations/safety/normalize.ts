/**
 * Text normalisation for the custom-pose safety check: turns what a person typed into the forms the
 * term lists are matched against, so that obfuscations ("N U D E", "n.a.k.e.d", "nüdé", "ｎｕｄｅ",
 * "nudе" with a Cyrillic е, "n*d3", "t33n", "nu\u200Bde") meet the same words as the plain ones.
 */

/**
 * Letters that look like Latin ones but that NFKC keeps apart (Cyrillic, Greek, small capitals,
 * a few ligatures). Applied after lower-casing.
 */
const LOOKALIKES: Record<string, string> = {
  // Cyrillic
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  з: '3',
  и: 'u',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  п: 'n',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ь: 'b',
  ѕ: 's',
  і: 'i',
  ї: 'i',
  ј: 'j',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  һ: 'h',
  ӏ: 'l',
  ɡ: 'g',
  ԍ: 'g',
  // Greek
  α: 'a',
  β: 'b',
  γ: 'y',
  δ: 'd',
  ε: 'e',
  η: 'n',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  ω: 'w',
  ς: 's',
  σ: 'o',
  μ: 'u',
  // small capitals and other IPA look-alikes
  ᴀ: 'a',
  ʙ: 'b',
  ᴄ: 'c',
  ᴅ: 'd',
  ᴇ: 'e',
  ꜰ: 'f',
  ɢ: 'g',
  ʜ: 'h',
  ɪ: 'i',
  ᴊ: 'j',
  ᴋ: 'k',
  ʟ: 'l',
  ᴍ: 'm',
  ɴ: 'n',
  ᴏ: 'o',
  ᴘ: 'p',
  ʀ: 'r',
  ꜱ: 's',
  ᴛ: 't',
  ᴜ: 'u',
  ᴠ: 'v',
  ᴡ: 'w',
  ʏ: 'y',
  ᴢ: 'z',
  ɑ: 'a',
  ɩ: 'i',
  ɵ: 'o',
  // letters that have no decomposition
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ı: 'i',
  ħ: 'h',
  ŧ: 't',
  ð: 'd',
  þ: 'th',
};

/** Leetspeak, applied only inside tokens that also hold a letter ("s3x", "n@ked"), never to plain numbers ("15"). */
export const LEET: Readonly<Record<string, string>> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's' };

/** Invisible format characters: zero-width space/joiners, soft hyphen, bidi controls, tag characters. */
const INVISIBLE = /\p{Cf}/gu;
const MARKS = /\p{M}/gu;
/** Regional indicator symbols (🇳🇺🇩🇪) read as their letters. */
const REGIONAL_INDICATOR = /[\u{1F1E6}-\u{1F1FF}]/gu;

function stripMarks(text: string): string {
  return text.normalize('NFD').replace(MARKS, '').normalize('NFC');
}

/**
 * NFKC (full-width and mathematical letters, circled digits), invisible characters removed,
 * accents stripped. Case is kept: the "as <Firstname Lastname>" rule needs it.
 */
export function foldKeepingCase(text: string): string {
  const compat = text
    .replace(INVISIBLE, '')
    .normalize('NFKC')
    .replace(REGIONAL_INDICATOR, (c) => String.fromCharCode(0x61 + (c.codePointAt(0)! - 0x1f1e6)));
  return stripMarks(compat).replace(INVISIBLE, '');
}

/** foldKeepingCase, lower-cased, with look-alike letters replaced by the Latin ones. */
export function fold(text: string): string {
  const lower = foldKeepingCase(text).toLowerCase();
  let out = '';
  for (const ch of lower) out += LOOKALIKES[ch] ?? ch;
  return stripMarks(out);
}

/**
 * What separates a token from the one before: `word` for punctuation inside a word ("ked" in
 * "na.ked"), `space` for whitespace (or the start of the text), `clause` for punctuation then
 * whitespace ("nude, heels"), which no term spans.
 */
export type Boundary = 'word' | 'space' | 'clause';

export interface Token {
  text: string;
  boundary: Boundary;
}

const TOKEN = /[a-z0-9@$*]+/g;
/** Most letters a word may mask with `*` ("n*de", "f**k"); more, and the stars are dropped. */
const MAX_MASKED_LETTERS = 3;

/** Splits folded text into raw tokens of `[a-z0-9@$*]`; everything else separates. */
export function splitTokens(folded: string): Token[] {
  const tokens: Token[] = [];
  let lastEnd = 0;
  for (const m of folded.matchAll(TOKEN)) {
    const between = folded.slice(lastEnd, m.index);
    lastEnd = m.index + m[0].length;
    const boundary: Boundary = tokens.length === 0 ? 'space' : !/\s/.test(between) ? 'word' : /^\s*$/.test(between) ? 'space' : 'clause';
    tokens.push({ text: m[0], boundary });
  }
  return tokens;
}

/**
 * Cleans raw tokens: with `leet`, tokens that hold a letter are read as leetspeak ("s3x", "n@ked"),
 * never plain numbers ("15"); `@` and `$` left in tokens without letters are dropped; `*` masks a
 * letter ("n*de") only in tokens with at least two letters and no more stars than letters (at most
 * three stars), elsewhere it is dropped.
 */
export function cleanTokens(tokens: Token[], options: { leet: boolean }): Token[] {
  const out: Token[] = [];
  const strength: Record<Boundary, number> = { word: 0, space: 1, clause: 2 };
  let pending: Boundary | null = null;
  for (const token of tokens) {
    let text = token.text;
    const hasLetter = /[a-z]/.test(text);
    if (options.leet && hasLetter) text = text.replace(/[013457@$]/g, (c) => LEET[c] ?? c);
    if (!hasLetter) text = text.replace(/[@$]/g, '');
    if (text.includes('*')) {
      const letters = text.match(/[a-z]/g)?.length ?? 0;
      const stars = text.match(/\*/g)!.length;
      // a mask hides a letter or three of a word, never most of it (and keeps the matching linear)
      if (letters < 2 || stars > MAX_MASKED_LETTERS || stars > letters) text = text.replace(/\*/g, '');
    }
    // a dropped token's boundary passes to the next one, the stronger of the two
    const boundary: Boundary = pending && strength[pending] > strength[token.boundary] ? pending : token.boundary;
    if (!text) {
      pending = boundary;
      continue;
    }
    pending = null;
    out.push({ text, boundary: out.length === 0 ? 'space' : boundary });
  }
  return out;
}

/** splitTokens then cleanTokens. */
export function tokenize(folded: string, options: { leet: boolean }): Token[] {
  return cleanTokens(splitTokens(folded), options);
}

/**
 * Merges runs of two or more one-character tokens within a clause: "n u d e" and "n.u.d.e" become
 * "nude", "1 5" becomes "15". With `mixed: false` a run of letters and a run of digits stay apart
 * ("i m 1 5" is "im 15"); with `mixed: true` they join ("s 3 x" is "s3x", read as leetspeak later).
 */
export function joinSpelledOut(tokens: Token[], options: { mixed: boolean } = { mixed: true }): Token[] {
  const out: Token[] = [];
  let run: Token[] = [];
  const flush = () => {
    if (run.length >= 2) out.push({ text: run.map((t) => t.text).join(''), boundary: run[0].boundary });
    else out.push(...run);
    run = [];
  };
  const isDigit = (t: Token) => /[0-9]/.test(t.text);
  for (const t of tokens) {
    const continues = run.length > 0 && t.boundary !== 'clause' && (options.mixed || isDigit(t) === isDigit(run[0]));
    if (t.text.length === 1 && (continues || run.length === 0)) run.push(t);
    else {
      flush();
      if (t.text.length === 1) run.push(t);
      else out.push(t);
    }
  }
  flush();
  return out;
}

const SEPARATOR: Record<Boundary, string> = { word: '-', space: ' ', clause: ' , ' };

/** Tokens as one string: the pieces of one word ("na.ked") joined by "-", words by " ", clauses by " , ". */
export function render(tokens: Token[]): string {
  return tokens.map((t, i) => (i === 0 ? '' : SEPARATOR[t.boundary]) + t.text).join('');
}

/** The forms a text is matched in. */
export interface NormalizedText {
  /** foldKeepingCase: for rules that need capitals */
  cased: string;
  /** tokens without leetspeak (ages in digits, "r34") */
  plain: string;
  /** tokens read as leetspeak */
  leet: string;
  /** leet, with spelled-out letters joined */
  joined: string;
  /** plain, with spelled-out letters and digits joined ("1 5 years old") */
  plainJoined: string;
}

export function normalizeForMatching(text: string): NormalizedText {
  const raw = splitTokens(fold(text));
  return {
    cased: foldKeepingCase(text),
    plain: render(cleanTokens(raw, { leet: false })),
    leet: render(cleanTokens(raw, { leet: true })),
    joined: render(cleanTokens(joinSpelledOut(raw, { mixed: true }), { leet: true })),
    plainJoined: render(cleanTokens(joinSpelledOut(raw, { mixed: false }), { leet: false })),
  };
}
