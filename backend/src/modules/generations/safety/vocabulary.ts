import { stemCandidates } from './stemmer';
import { CLOTHING_PHRASES, CLOTHING_WORDS, CLOTHING_WORDS_FIFTH_PASS } from './vocabulary/clothing.data';
import { EVERYDAY_PHRASES, EVERYDAY_WORDS, EVERYDAY_WORDS_FIFTH_PASS } from './vocabulary/everyday.data';
import { FUNCTION_WORDS } from './vocabulary/function-words.data';
import { IRREGULAR_FORMS } from './vocabulary/irregular-forms.data';
import { LIGHT_WEATHER_TIME_PHRASES, LIGHT_WEATHER_TIME_WORDS } from './vocabulary/light-weather-time.data';
import { MOOD_WORDS } from './vocabulary/mood.data';
import { PERSON_LIKE_PLACE_NAMES, PLACE_NAME_PHRASES, PLACE_NAMES, PLACE_PHRASES, PLACE_WORDS } from './vocabulary/places.data';
import { POSE_PHRASES, POSE_WORDS } from './vocabulary/poses.data';
import { PROP_PHRASES, PROP_WORDS } from './vocabulary/props.data';
import { group, VocabularyTag, type VocabularyGroup, type VocabularyPhrase, type WordKind } from './vocabulary/vocabulary.types';

/**
 * The closed vocabulary: every word of the data files in vocabulary/, with its kinds (how it
 * inflects) and tags (what it is about), and the fixed phrases of several words.
 */
export const VOCABULARY_GROUPS: readonly VocabularyGroup[] = [
  ...FUNCTION_WORDS,
  ...POSE_WORDS,
  ...PLACE_WORDS,
  ...PLACE_NAMES,
  group(VocabularyTag.PlaceName, 'fixed', PERSON_LIKE_PLACE_NAMES.join(' ')),
  ...LIGHT_WEATHER_TIME_WORDS,
  ...MOOD_WORDS,
  ...CLOTHING_WORDS,
  ...CLOTHING_WORDS_FIFTH_PASS,
  ...PROP_WORDS,
  ...EVERYDAY_WORDS,
  ...EVERYDAY_WORDS_FIFTH_PASS,
];

export const VOCABULARY_PHRASES: readonly VocabularyPhrase[] = [
  ...POSE_PHRASES,
  ...PLACE_PHRASES,
  ...PLACE_NAME_PHRASES,
  ...LIGHT_WEATHER_TIME_PHRASES,
  ...CLOTHING_PHRASES,
  ...PROP_PHRASES,
  ...EVERYDAY_PHRASES,
];

interface Entry {
  kinds: Set<WordKind>;
  tags: Set<VocabularyTag>;
}

function buildLexicon(groups: readonly VocabularyGroup[]): Map<string, Entry> {
  const lexicon = new Map<string, Entry>();
  for (const g of groups) {
    for (const word of g.words) {
      const entry = lexicon.get(word) ?? { kinds: new Set(), tags: new Set() };
      entry.kinds.add(g.kind);
      entry.tags.add(g.tag);
      lexicon.set(word, entry);
    }
  }
  return lexicon;
}

const LEXICON = buildLexicon(VOCABULARY_GROUPS);

/** Every listed word (not its inflections), for tests and docs. */
export function vocabularyWords(): string[] {
  return [...LEXICON.keys()];
}

/** Every listed word with its kinds (how it inflects), for the suggestions (suggestions.ts). */
export function vocabularyEntries(): Array<[string, ReadonlySet<WordKind>]> {
  return [...LEXICON].map(([word, entry]) => [word, entry.kinds]);
}

/** What a word is, when it is in the vocabulary. */
export interface WordMeaning {
  /** the word and the base words it is an inflection of ("sitting": sitting, sit) */
  lemmas: Set<string>;
  tags: Set<VocabularyTag>;
  /** how the word can be read: a noun, a verb, an adjective ("balloons": noun; "walks": noun or verb) */
  kinds: Set<WordKind>;
}

function addEntry(meaning: WordMeaning, lemma: string, entry: Entry, kinds: Iterable<WordKind> = entry.kinds): void {
  meaning.lemmas.add(lemma);
  for (const t of entry.tags) meaning.tags.add(t);
  for (const k of kinds) meaning.kinds.add(k);
}

/**
 * The meaning of one word (lower case, no spaces), or null when it is not in the vocabulary. A word
 * is in it when it is listed, an irregular form of a listed word, a possessive ("girl's",
 * "models'") of one, or a regular inflection that the listed word's kind allows.
 */
export function lookupWord(word: string): WordMeaning | null {
  const meaning: WordMeaning = { lemmas: new Set(), tags: new Set(), kinds: new Set() };
  const listed = LEXICON.get(word);
  if (listed) addEntry(meaning, word, listed);
  const irregular = IRREGULAR_FORMS[word];
  const irregularEntry = irregular ? LEXICON.get(irregular) : undefined;
  if (irregular && irregularEntry) {
    meaning.lemmas.add(word);
    addEntry(meaning, irregular, irregularEntry);
  }
  for (const { base, kinds } of stemCandidates(word)) {
    const entry = LEXICON.get(base);
    if (entry && kinds.some((k) => entry.kinds.has(k))) {
      meaning.lemmas.add(word);
      addEntry(
        meaning,
        base,
        entry,
        kinds.filter((k) => entry.kinds.has(k)),
      );
    }
  }
  if (meaning.lemmas.size > 0) return meaning;
  // possessives: "girl's", "women's", "models'"
  const owner = word.endsWith("'s") ? word.slice(0, -2) : word.endsWith("s'") ? word.slice(0, -1) : null;
  return owner ? lookupWord(owner) : null;
}

interface CompiledPhrase {
  words: string[];
  tag: VocabularyTag;
}

/**
 * Phrases by their first word, longest first: the phrase lists, and every hyphenated word of the
 * vocabulary written as separate words ("leg-warmers" also reads "leg warmers", "off-the-shoulder"
 * "off the shoulder"); such a phrase means what the hyphenated word means (readWords looks it up).
 */
const PHRASES_BY_FIRST_WORD: Map<string, CompiledPhrase[]> = (() => {
  const map = new Map<string, CompiledPhrase[]>();
  const add = (words: string[], tag: VocabularyTag) => {
    const list = map.get(words[0]) ?? [];
    list.push({ words, tag });
    map.set(words[0], list);
  };
  for (const p of VOCABULARY_PHRASES) for (const phrase of p.phrases) add(phrase.split(' '), p.tag);
  for (const [word, entry] of LEXICON) {
    if (/^[a-z]+(?:-[a-z]+)+$/.test(word)) add(word.split('-'), [...entry.tags][0]);
  }
  for (const list of map.values()) list.sort((a, b) => b.words.length - a.words.length);
  return map;
})();

/** The longest vocabulary phrase that starts at `texts[start]`, as its length and tag, or null. */
export function matchPhrase(texts: readonly string[], start: number): { length: number; tag: VocabularyTag; phrase: string } | null {
  for (const p of PHRASES_BY_FIRST_WORD.get(texts[start]) ?? []) {
    if (p.words.every((w, k) => texts[start + k] === w)) return { length: p.words.length, tag: p.tag, phrase: p.words.join(' ') };
  }
  return null;
}
