import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from 'obscenity';
import {
  AGE_WORDS_UNDER_18,
  ALLOWED_PHRASES,
  INJECTION_TERMS,
  MINOR_TERMS,
  NUDE_COLOUR_FOLLOWERS,
  NUDE_COLOUR_QUALIFIERS,
  NUDITY_TERMS,
  OBSCENITY_ALLOWED_PHRASES,
  OBSCENITY_NUDITY_WORDS,
  OBSCENITY_SEXUAL_WORDS,
  ORDINAL_WORDS_UNDER_18,
  OTHER_PERSON_TERMS,
  REASON_PRIORITY,
  RELATIONSHIP_DETERMINERS,
  RELATIONSHIP_NOUNS,
  SafetyReason,
  SELF_HARM_TERMS,
  SEXUAL_TERMS,
  UNDRESSING_GARMENTS,
  UNDRESSING_VERBS,
  VIOLENCE_TERMS,
} from './custom-pose-terms.data';
import { fold, normalizeForMatching, tokenize, type NormalizedText } from './normalize';
import type { Finding } from './finding';

/**
 * The second layer of the custom-pose check: the block lists of custom-pose-terms.data.ts and the
 * `obscenity` English dataset, matched on the normalised text (normalize.ts: NFKC, accents,
 * zero-width characters, look-alike letters, leetspeak, spaced and split words, masked letters).
 * The vocabulary check (layer one) refuses every word it does not know; this layer names the
 * reason of a refused word ("n u d e" is nudity, not an unknown word) and still refuses a listed
 * word that the vocabulary would let through in some spelling.
 */

// ---------------------------------------------------------------------------------------------
// Compiling the term lists
// ---------------------------------------------------------------------------------------------

/** Separator between the words of a term in the normalised text: a space, a "-" (inside a word), or nothing ("seethrough"). */
const GAP = '[ -]?';
const BEFORE = '(?<![a-z0-9*])';
const AFTER = '(?![a-z0-9*])';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One word of a term: each run of a letter matches that many or more ("nude" matches "nuuude"); `*` in the text masks any letter. */
function wordSource(word: string): string {
  let src = '';
  for (let i = 0; i < word.length;) {
    const c = word[i];
    let k = 1;
    while (word[i + k] === c) k++;
    src += /[a-z]/.test(c) ? `[${c}*]${k === 1 ? '+' : `{${k},}`}` : escapeRegExp(c).repeat(k);
    i += k;
  }
  return src;
}

/** A term of the data file as a regular-expression source over normalised text (see custom-pose-terms.data.ts). */
export function termSource(term: string): string {
  const open = term.endsWith('*');
  const words = tokenize(fold(open ? term.slice(0, -1) : term), { leet: false }).map((t) => t.text);
  if (words.length === 0) throw new Error(`Custom-pose term "${term}" has no letters`);
  return words.map(wordSource).join(GAP) + (open ? '[a-z*]*' : '');
}

const anyOf = (terms: readonly string[]) => `(?:${terms.map(termSource).join('|')})`;

/** One named rule: where in the text it looks and what it finds. */
interface Rule {
  reason: SafetyReason;
  /** the data-file term or rule name, for explainCustomPose */
  name: string;
  source: string;
  /** also tried on the words a text split up ("na.ked", "top-less"); false for multi-word rules */
  whole: boolean;
  /** an age rule: also runs on the text whose spelled-out digits are joined ("1 5 years old") */
  age?: boolean;
}

function termRules(reason: SafetyReason, terms: readonly string[]): Rule[] {
  return terms.map((term) => ({ reason, name: term, source: termSource(term), whole: true }));
}

const UNITS =
  '(?:[0-9]|cm|mm|m|ft|foot|feet|in|inch|inches|kg|kgs|lb|lbs|pound|pounds|st|stone|percent|am|pm|min|mins|minutes|hour|hours|o[ -]?clock|and[ -]a[ -]half|dollars?|euros?|quid|bucks)';
const DIGIT_AGE = '(?:0?[0-9]|1[0-7])';
const WORD_AGE = `(?:${AGE_WORDS_UNDER_18.join('|')})`;
/** not the "five" of "twenty-five" */
const AGE = `(?:${DIGIT_AGE}|(?<!(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)${GAP})${WORD_AGE})`;
const YEARS_OLD = `(?:y(?:ea)?rs?${GAP}o(?:ld)?|y${GAP}o|y(?:ea)?rs?${GAP}of${GAP}age)`;

/** Ages under 18 in digits or words, and a few age phrasings; matched on the text with and without leetspeak. */
const AGE_RULES: Rule[] = [
  { name: '<age> years old', source: `${AGE}${GAP}${YEARS_OLD}` },
  { name: 'aged <age>', source: `(?:age|aged|ages|age${GAP}of)[ -]${AGE}${AFTER}(?![ -]?${UNITS}${AFTER})` },
  {
    name: "I'm <age>",
    source: `(?:i${GAP}a?m|she${GAP}i?s|he${GAP}is|he-s|who${GAP}is|who-s|girl${GAP}is|model${GAP}is)[ -]${DIGIT_AGE}${AFTER}(?![ -]?${UNITS}${AFTER})`,
  },
  { name: '<age>th birthday', source: `(?:${DIGIT_AGE}(?:st|nd|rd|th)?|${ORDINAL_WORDS_UNDER_18.join('|')})${GAP}birthday` },
  { name: 'under 18', source: `(?:under|below|younger${GAP}than|less${GAP}than|not${GAP}yet)[ -](?:18|eighteen)` },
  {
    name: 'school grade',
    source: `(?:grade[ -](?:[1-9]|1[0-2]|${AGE_WORDS_UNDER_18.slice(1, 13).join('|')})|(?:[1-9]|1[0-2])(?:st|nd|rd|th)?${GAP}grade|(?:${ORDINAL_WORDS_UNDER_18.slice(0, 12).join('|')})${GAP}grade(?:r|rs)?)`,
  },
].map((r) => ({ ...r, reason: SafetyReason.Minor, whole: false, age: true }));

const RULES: Rule[] = [
  ...AGE_RULES,
  ...termRules(SafetyReason.Minor, MINOR_TERMS),
  ...termRules(SafetyReason.Sexual, SEXUAL_TERMS),
  ...termRules(SafetyReason.Nudity, NUDITY_TERMS),
  ...termRules(SafetyReason.SelfHarm, SELF_HARM_TERMS),
  ...termRules(SafetyReason.Injection, INJECTION_TERMS),
  {
    reason: SafetyReason.Nudity,
    name: 'undressing: <verb> [her] <garment>',
    source: `${anyOf(UNDRESSING_VERBS)}${GAP}(?:(?:her|my|the|their|his|your)${GAP})?${anyOf(UNDRESSING_GARMENTS)}`,
    whole: false,
  },
  ...termRules(SafetyReason.OtherPerson, OTHER_PERSON_TERMS),
  {
    reason: SafetyReason.OtherPerson,
    name: 'my/her/with <relationship>',
    source: `${anyOf(RELATIONSHIP_DETERMINERS)}${GAP}${anyOf(RELATIONSHIP_NOUNS)}`,
    whole: false,
  },
  {
    // "look like <someone>": a generic "look like a model" or "look like I'm walking" is fine, anyone named or pointed at is not
    reason: SafetyReason.OtherPerson,
    name: 'look like <someone>',
    source: `look(?:s|ing|ed)?${GAP}(?:(?:just|exactly|more|much|a${GAP}lot|a${GAP}bit)[ -])?like(?![ -](?:a|an|i|im|i-m|i-ve|i-d|i-ll|it|its|it-s|this|that|something)${AFTER})`,
    whole: false,
  },
  ...termRules(SafetyReason.Violence, VIOLENCE_TERMS),
];

/** Phrases cut out of the text before the rules run: ALLOWED_PHRASES and "nude" as a colour ("nude heels"). */
const ALLOWED = new RegExp(
  `${BEFORE}(?:${[
    ...ALLOWED_PHRASES.map(termSource),
    // only the word "nude" is cut: "nude heels only" still meets "heels only"; "nude toned body" is not a colour
    `${termSource('nude')}(?=${GAP}(?:${anyOf(NUDE_COLOUR_QUALIFIERS)}${GAP})?${anyOf(NUDE_COLOUR_FOLLOWERS)}${AFTER})`,
  ].join('|')})${AFTER}`,
  'g',
);

interface CompiledRule extends Rule {
  scan: RegExp;
  exact: RegExp | null;
}
const COMPILED: CompiledRule[] = RULES.map((r) => ({
  ...r,
  scan: new RegExp(`${BEFORE}(?:${r.source})${AFTER}`),
  exact: r.whole ? new RegExp(`^(?:${r.source})$`) : null,
}));

/**
 * The rules in a few alternations, so that a text is read once per group rather than once per
 * rule; only a match looks for the rule that made it (for explainCustomPose).
 */
interface RuleGroup {
  rules: CompiledRule[];
  scan: RegExp;
  exact: RegExp | null;
}
function group(rules: CompiledRule[]): RuleGroup {
  const whole = rules.filter((r) => r.whole);
  return {
    rules,
    scan: new RegExp(`${BEFORE}(?:${rules.map((r) => r.source).join('|')})${AFTER}`),
    exact: whole.length ? new RegExp(`^(?:${whole.map((r) => r.source).join('|')})$`) : null,
  };
}
const AGE_GROUP = group(COMPILED.filter((r) => r.age));
const TERM_GROUPS = REASON_PRIORITY.map((reason) => COMPILED.filter((r) => !r.age && r.reason === reason))
  .filter((rules) => rules.length > 0)
  .map(group);

/** "as Taylor Swift", "like Marilyn Monroe": two or more capitalised words after as/like. Case matters, so it runs on the cased text. */
const NAMED_PERSON =
  /(?:^|[^\p{L}\p{N}])(?:[Aa]s|[Ll]ike|[Rr]esembling|[Ii]mpersonating|[Pp]ortraying|[Pp]laying|[Cc]osplaying|[Bb]e)\s+(?:[Tt]he\s+)?\p{Lu}[\p{Ll}'’.-]+(?:\s+(?:\p{Lu}[\p{L}'’.-]*|de|da|di|van|von|del|la|le|bin))*\s+\p{Lu}[\p{Ll}'’.-]+/u;

/** Peach, aubergine, droplets, tongue, the 18+ sign. */
const SEXUAL_EMOJI = /[\u{1F351}\u{1F346}\u{1F4A6}\u{1F445}\u{1F51E}]/u;

/** Title Case Text ("Walking On The Beach As The Sun Sets") makes every capital meaningless: skip the name rule there. */
function isTitleCase(cased: string): boolean {
  const words = cased.match(/\p{L}{3,}/gu) ?? [];
  const capitalised = words.filter((w) => /^\p{Lu}/u.test(w)).length;
  return words.length >= 4 && capitalised / words.length >= 0.8;
}

// ---------------------------------------------------------------------------------------------
// obscenity: the profanity and sexual words of its English dataset, with its own obfuscation handling
// ---------------------------------------------------------------------------------------------

const obscenityDataset = englishDataset.build();
const obscenity = new RegExpMatcher({
  blacklistedTerms: obscenityDataset.blacklistedTerms,
  whitelistedTerms: [...(obscenityDataset.whitelistedTerms ?? []), ...OBSCENITY_ALLOWED_PHRASES],
  ...englishRecommendedTransformers,
});
const SEXUAL_WORDS = new Set<string>(OBSCENITY_SEXUAL_WORDS);
const NUDITY_WORDS = new Set<string>(OBSCENITY_NUDITY_WORDS);

function obscenityFindings(text: string): Finding[] {
  return obscenity.getAllMatches(text).map((m) => {
    const word = englishDataset.getPayloadWithPhraseMetadata(m).phraseMetadata?.originalWord ?? '?';
    const reason = SEXUAL_WORDS.has(word) ? SafetyReason.Sexual : NUDITY_WORDS.has(word) ? SafetyReason.Nudity : SafetyReason.Offensive;
    return { reason, rule: `obscenity:${word}` };
  });
}

// ---------------------------------------------------------------------------------------------
// The check
// ---------------------------------------------------------------------------------------------

/** Tokens of a rendered string (see normalize.render); "|" (a cut-out allowed phrase) and "," are barriers. */
function splitRendered(s: string): Array<{ text: string; wordStart: boolean }> {
  return [...s.matchAll(/([ -]?)([^ -]+)/g)].map((m) => ({ text: m[2], wordStart: m[1] !== '-' }));
}

/** Short English words that are never the pieces of a split-up word ("an al fresco lunch" is not "anal"). */
const SHORT_WORDS = new Set([
  'a',
  'i',
  'an',
  'as',
  'at',
  'be',
  'by',
  'do',
  'go',
  'he',
  'hi',
  'if',
  'in',
  'is',
  'it',
  'me',
  'my',
  'no',
  'of',
  'oh',
  'on',
  'or',
  'so',
  'to',
  'up',
  'us',
  'we',
  'al',
  'am',
  'pm',
  'ok',
]);

/**
 * The joins a person uses to split a word: "na.ked" and "top-less" (pieces of one word), or short
 * pieces apart by spaces ("nu de", "na ked": at most one piece longer than two letters). Spaces
 * between ordinary words are never joined ("go re-apply" is not "gore").
 */
function splitWordJoins(s: string): string[] {
  const tokens = splitRendered(s);
  const joins: string[] = [];
  const wholeWord = (i: number) => tokens[i].wordStart && (i + 1 >= tokens.length || tokens[i + 1].wordStart);
  for (let i = 0; i < tokens.length; i++) {
    for (let n = 2; n <= 4 && i + n <= tokens.length; n++) {
      const window = tokens.slice(i, i + n);
      if (window.some((t) => t.text === '|' || t.text === ',')) break;
      const inOneWord = window.slice(1).every((t) => !t.wordStart);
      const shortPieces =
        window.every((t, k) => wholeWord(i + k) && !SHORT_WORDS.has(t.text)) && window.filter((t) => t.text.length > 2).length <= 1;
      if (inOneWord || shortPieces) joins.push(window.map((t) => t.text).join(''));
    }
  }
  return joins;
}

/** Every block-list finding of a text (several may come from one word). */
export function blockListFindings(text: string): Finding[] {
  const n: NormalizedText = normalizeForMatching(text);
  const found: Finding[] = [];
  const forms = [...new Set([n.plain, n.leet, n.joined])].map((f) => f.replace(ALLOWED, ' | '));
  const ageForms = [...new Set([n.plain, n.leet, n.joined, n.plainJoined])];
  const joins = [...new Set(forms.flatMap(splitWordJoins))];
  for (const [g, texts] of [[AGE_GROUP, ageForms], ...TERM_GROUPS.map((tg) => [tg, forms] as const)] as const) {
    if (texts.some((f) => g.scan.test(f))) {
      const rule = g.rules.find((r) => texts.some((f) => r.scan.test(f)))!;
      found.push({ reason: rule.reason, rule: rule.name });
    }
    if (g.exact && joins.some((j) => g.exact!.test(j))) {
      const rule = g.rules.find((r) => r.exact && joins.some((j) => r.exact!.test(j)))!;
      found.push({ reason: rule.reason, rule: `${rule.name} (joined)` });
    }
  }
  // emoji that stand for sexual content or an adult rating (any other emoji is not understood: words.ts)
  if (SEXUAL_EMOJI.test(text)) found.push({ reason: SafetyReason.Sexual, rule: 'a sexual emoji' });
  if (!isTitleCase(n.cased) && NAMED_PERSON.test(n.cased))
    found.push({ reason: SafetyReason.OtherPerson, rule: 'as <Firstname Lastname>' });
  // the text as typed (obscenity reads look-alikes and leetspeak its own way), and our normalised forms
  found.push(...obscenityFindings(text));
  for (const form of new Set([n.leet, n.joined])) found.push(...obscenityFindings(form.replace(ALLOWED, ' | ')));
  return found;
}
