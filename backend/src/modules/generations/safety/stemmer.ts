import type { WordKind } from './vocabulary/vocabulary.types';

/**
 * A small deterministic stemmer for the closed vocabulary: the base words an inflected form may
 * come from, each with the kinds of word that inflect that way. The lexicon accepts a form only
 * when a candidate base is listed with one of those kinds, so "walks" comes from the verb "walk",
 * "nudes" does not come from the adjective "nude", and "hooker" never comes from the verb "hook"
 * (verbs take no -er here). Irregular forms are listed in vocabulary/irregular-forms.data.ts.
 */
export interface StemCandidate {
  base: string;
  kinds: readonly WordKind[];
}

const NOUN_VERB: readonly WordKind[] = ['noun', 'verb'];
const VERB: readonly WordKind[] = ['verb'];
const NOUN: readonly WordKind[] = ['noun'];
const ADJECTIVE: readonly WordKind[] = ['adjective'];

const VOWEL = /[aeiou]/;

/** "hugg" -> "hug", "travell" -> "travel": a doubled final consonant after a stemmed -ing/-ed/-er/-est. */
function undouble(stem: string): string | null {
  const n = stem.length;
  return n >= 3 && stem[n - 1] === stem[n - 2] && !VOWEL.test(stem[n - 1]) ? stem.slice(0, -1) : null;
}

/** The stems that `suffix` leaves, with the silent e put back and a doubled consonant undone. */
function withSuffixRemoved(word: string, suffix: string, kinds: readonly WordKind[], minStem = 2): StemCandidate[] {
  if (!word.endsWith(suffix) || word.length - suffix.length < minStem) return [];
  const stem = word.slice(0, -suffix.length);
  const out: StemCandidate[] = [
    { base: stem, kinds },
    { base: `${stem}e`, kinds },
  ];
  const single = undouble(stem);
  if (single) out.push({ base: single, kinds });
  return out;
}

/** Every base `word` may be an inflection of (not including `word` itself). */
export function stemCandidates(word: string): StemCandidate[] {
  const out: StemCandidate[] = [];
  const add = (base: string, kinds: readonly WordKind[]) => {
    if (base.length >= 2) out.push({ base, kinds });
  };
  // plurals and third person: -s, -es, -ies, -ves
  if (word.endsWith('ies') && word.length > 4) add(`${word.slice(0, -3)}y`, NOUN_VERB);
  if (word.endsWith('ves') && word.length > 4) {
    add(`${word.slice(0, -3)}f`, NOUN);
    add(`${word.slice(0, -3)}fe`, NOUN);
  }
  // -es only after a hiss or an o: "dresses", "boxes", "watches", "tomatoes" ("james" is not "jam" + es)
  if (/(?:s|x|z|ch|sh|o)es$/.test(word) && word.length > 3) add(word.slice(0, -2), NOUN_VERB);
  if (word.endsWith('s') && !word.endsWith('ss') && word.length > 2) add(word.slice(0, -1), NOUN_VERB);
  // past: -ed, -d, -ied
  if (word.endsWith('ied') && word.length > 4) add(`${word.slice(0, -3)}y`, VERB);
  out.push(...withSuffixRemoved(word, 'ed', VERB));
  // -ing, -ying ("lying" -> "lie")
  if (word.endsWith('ying') && word.length > 4) add(`${word.slice(0, -4)}ie`, VERB);
  out.push(...withSuffixRemoved(word, 'ing', VERB));
  // comparatives and superlatives: -er, -est, -ier, -iest
  if (word.endsWith('ier') && word.length > 4) add(`${word.slice(0, -3)}y`, ADJECTIVE);
  if (word.endsWith('iest') && word.length > 5) add(`${word.slice(0, -4)}y`, ADJECTIVE);
  out.push(...withSuffixRemoved(word, 'er', ADJECTIVE), ...withSuffixRemoved(word, 'est', ADJECTIVE));
  // adjectives made from nouns: "pointy", "leafy", "sunny", "stony" (never "booty" or "horny": the block lists hold those)
  if (word.endsWith('y') && word.length > 4 && !word.endsWith('ly')) {
    const stem = word.slice(0, -1);
    add(stem, NOUN);
    add(`${stem}e`, NOUN);
    const single = undouble(stem);
    if (single) add(single, NOUN);
  }
  // adverbs: -ly, -ily, -ally, -lly ("fully"), -bly ("comfortably")
  if (word.endsWith('ly') && word.length > 4) {
    const stem = word.slice(0, -2);
    add(stem, ADJECTIVE);
    if (stem.endsWith('i')) add(`${stem.slice(0, -1)}y`, ADJECTIVE);
    if (stem.endsWith('al')) add(stem.slice(0, -2), ADJECTIVE);
    if (word.endsWith('lly')) add(word.slice(0, -1), ADJECTIVE);
    if (/[bpgtdkz]ly$/.test(word)) add(`${stem}le`, ADJECTIVE);
  }
  return out;
}
