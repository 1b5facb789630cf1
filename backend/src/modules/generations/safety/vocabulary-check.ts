import { PERSON_CONTEXT as PERSON_CONTEXT_WORDS } from './context-rules.data';
import { SafetyReason } from './custom-pose-terms.data';
import { LEET } from './normalize';
import { lookupWord, matchPhrase } from './vocabulary';
import { FOREIGN_FUNCTION_WORDS } from './vocabulary/foreign-words.data';
import { NUMBER_WORD_VALUES } from './vocabulary/number-words.data';
import { VocabularyTag, type WordKind } from './vocabulary/vocabulary.types';
import type { Finding } from './finding';
import type { RawWord } from './words';

/**
 * The first layer of the custom-pose check: every word must be in the closed vocabulary
 * (vocabulary/). A word written in leetspeak is read as the word it spells ("b34ch" is "beach"),
 * then judged like that word. Numbers (digits and number words) are read here with their value;
 * numbers.ts decides what each one is (a time, a size, an adult's age, a minor's age...).
 */
export interface Word {
  /** 1-based position among the words of the text, for explainCustomPose */
  position: number;
  /** the word as read: lower case, leetspeak decoded; a phrase's words joined by spaces */
  text: string;
  /** as typed (capitals kept) */
  typed: string;
  lemmas: ReadonlySet<string>;
  tags: ReadonlySet<VocabularyTag>;
  /** how it can be read (noun, verb, adjective, fixed); a phrase is a noun */
  kinds: ReadonlySet<WordKind>;
  known: boolean;
  /** the value of a number (digits or a number word), NaN when it cannot be read, null for other words */
  number: number | null;
  capitalised: boolean;
  sentenceStart: boolean;
  clauseStart: boolean;
  /** the sentence it is in (0-based) */
  sentence: number;
  /** joined to the word before by a hyphen ("sand" in "white-sand") */
  joined: boolean;
  /** the characters before the word and after it, as typed ("%" after "100", ":" between "5" and "30"; "-" inside a hyphenated word) */
  gap: string;
  after: string;
}

export interface ReadText {
  words: Word[];
  findings: Finding[];
}

/**
 * Digits (with a decimal part or minutes: "1.5", "5:30", "1,000"), with an ordinal, plural, unit,
 * time or age ending: "15", "21st", "1990s", "5pm", "15yo", "5'4", "35mm", "1080p".
 */
export const NUMBER =
  /^\$?[0-9]+(?:[.,:][0-9]+)*(?:st|nd|rd|th|s|'s|am|pm|yo|y|yr|yrs|k|m|cm|mm|km|ft|in|kg|kgs|lb|lbs|x|h|hr|hrs|min|mins|mph|p|mp|ish|'[0-9]+|'?s)?$/;
const EMPTY: ReadonlySet<never> = new Set();
/** A vocabulary phrase ("golden hour", "teddy bear") is read as a noun. */
const PHRASE_KINDS: ReadonlySet<WordKind> = new Set(['noun']);

function decodeLeet(text: string): string {
  return text.replace(/[0-9@$]/g, (c) => LEET[c] ?? c);
}

/** The value of a number written in digits: "1,000" is 1000, "1.5" is 1.5, "5:30" is 5 (the hour), "5'4" is 5. */
function numberValue(text: string): number {
  const digits = text.match(/[0-9]+(?:[.,][0-9]+)*/);
  if (!digits) return NaN;
  const plain = digits[0].replace(/,(?=[0-9]{3}(?![0-9]))/g, '').replace(',', '.');
  return Number(plain);
}

interface Reading {
  text: string;
  lemmas: ReadonlySet<string>;
  tags: ReadonlySet<VocabularyTag>;
  kinds: ReadonlySet<WordKind>;
  known: boolean;
  number: number | null;
  /** a problem with the word itself (a mask), besides being unknown */
  problem?: Finding;
}

/** How one word (no hyphen) is read. */
function readSimple(raw: string): Reading {
  let text = raw;
  let problem: Finding | undefined;
  if (text.includes('*')) {
    problem = { reason: SafetyReason.Injection, rule: 'letters masked with *' };
    text = text.replace(/\*/g, '');
  }
  // a listed word written with a digit ("y2k", "3d"), before it is read as a number or leetspeak
  if (/[0-9]/.test(text) && /[a-z]/.test(text)) {
    const listed = lookupWord(text);
    if (listed) return { text, lemmas: listed.lemmas, tags: listed.tags, kinds: listed.kinds, known: true, number: null, problem };
  }
  if (NUMBER.test(text)) return { text, lemmas: EMPTY, tags: EMPTY, kinds: EMPTY, known: false, number: numberValue(text), problem };
  // leetspeak only in words that also hold a letter ("s3x", "b34ch"), never in plain numbers
  if (/[a-z]/.test(text) && /[0-9@$]/.test(text)) text = decodeLeet(text);
  if (/[0-9]/.test(text)) return { text, lemmas: EMPTY, tags: EMPTY, kinds: EMPTY, known: false, number: NaN, problem };
  text = text.replace(/[@$]/g, '');
  const numberWord = NUMBER_WORD_VALUES[text];
  // single letters are spelled-out words ("n u d e"), except "a" and "i"
  const meaning = text.length === 1 && text !== 'a' && text !== 'i' ? null : lookupWord(text);
  return {
    text,
    lemmas: meaning?.lemmas ?? EMPTY,
    kinds: meaning?.kinds ?? EMPTY,
    tags: meaning?.tags ?? EMPTY,
    known: meaning !== null,
    number: numberWord ?? null,
    problem,
  };
}

/** Shortest part of a closed compound: "sun" + "bed", never "a" + "float". */
const MIN_COMPOUND_PART = 3;

/**
 * The two vocabulary words a closed compound is made of, or null. Of several splits, the one with
 * the longest shorter part ("face" + "down", not "faced" + "own").
 */
function splitCompound(text: string): [Reading, Reading] | null {
  if (!/^[a-z]+$/.test(text) || text.length < 2 * MIN_COMPOUND_PART) return null;
  let best: [Reading, Reading] | null = null;
  let bestShorter = 0;
  for (let k = text.length - MIN_COMPOUND_PART; k >= MIN_COMPOUND_PART; k--) {
    const shorter = Math.min(k, text.length - k);
    if (shorter <= bestShorter) continue;
    const head = readSimple(text.slice(0, k));
    if (!head.known || head.number !== null) continue;
    const tail = readSimple(text.slice(k));
    if (tail.known && tail.number === null) [best, bestShorter] = [[head, tail], shorter];
  }
  return best;
}

function isCapitalised(typed: string): boolean {
  return /^\p{Lu}/u.test(typed);
}

/** The text a phrase is matched on: leetspeak decoded ("ch1ld's pose"), numbers left alone. */
function phraseKey(text: string): string {
  return /[a-z]/.test(text) && /[0-9@$]/.test(text) && !NUMBER.test(text) ? decodeLeet(text) : text;
}

/**
 * Reads the words of a text against the vocabulary: phrases first (longest match), then each word
 * whole, then the parts of a hyphenated word. Returns the words and the findings of this layer:
 * unknown words (or "language" when one of them is a common word of another language) and masked
 * letters; numbers.ts judges the numbers.
 */
export function readWords(raw: readonly RawWord[]): ReadText {
  const words: Word[] = [];
  const findings: Finding[] = [];
  const texts = raw.map((r) => phraseKey(r.text));
  let sentence = -1;
  const push = (r: RawWord, position: number, reading: Reading, joined: boolean, typed = r.typed, gap = r.gap, after = r.after) => {
    words.push({
      position,
      text: reading.text,
      typed,
      lemmas: reading.lemmas,
      tags: reading.tags,
      kinds: reading.kinds,
      known: reading.known,
      number: reading.number,
      capitalised: isCapitalised(typed),
      sentenceStart: r.sentenceStart && !joined,
      clauseStart: r.clauseStart && !joined,
      sentence,
      joined,
      gap,
      after,
    });
    if (reading.problem) findings.push({ ...reading.problem, rule: `${reading.problem.rule}: word #${position}` });
  };

  for (let i = 0; i < raw.length; i++) {
    const r = raw[i];
    if (r.sentenceStart) sentence++;
    const position = i + 1;
    const phrase = matchPhrase(texts, i);
    if (phrase) {
      // a hyphenated word written apart ("leg warmers") means what the word means
      const hyphenated = lookupWord(phrase.phrase.replace(/ /g, '-'));
      const reading: Reading = {
        text: phrase.phrase,
        lemmas: new Set([phrase.phrase, ...(hyphenated?.lemmas ?? [])]),
        tags: hyphenated?.tags ?? new Set([phrase.tag]),
        kinds: hyphenated?.kinds ?? PHRASE_KINDS,
        known: true,
        number: null,
      };
      push(
        r,
        position,
        reading,
        false,
        raw
          .slice(i, i + phrase.length)
          .map((w) => w.typed)
          .join(' '),
        r.gap,
        raw[i + phrase.length - 1].after,
      );
      i += phrase.length - 1;
      continue;
    }
    const whole = readSimple(r.text);
    if (!whole.known && r.text.includes('-')) {
      const parts = r.text.split('-');
      // a number in words ("twenty-five"): one number, whose value the age rule reads
      if (parts.every((p) => NUMBER_WORD_VALUES[p] !== undefined)) {
        const value = parts.reduce((sum, p) => sum + NUMBER_WORD_VALUES[p], 0);
        push(r, position, { text: r.text, lemmas: EMPTY, tags: EMPTY, kinds: EMPTY, known: false, number: value }, false);
        continue;
      }
      // a hyphenated word that is not listed whole: each part must be a word ("white-sand", "mid-stride")
      const typedParts = r.typed.split('-');
      const last = parts.length - 1;
      parts.forEach((part, k) =>
        push(r, position, readSimple(part), k > 0, typedParts[k] ?? part, k === 0 ? r.gap : '-', k === last ? r.after : '-'),
      );
      continue;
    }
    // not a capitalised word inside a sentence ("next to Madeline"), nor straight after a word that puts a person beside the user
    const nameSpot = (/^\p{Lu}/u.test(r.typed) && !r.sentenceStart) || PERSON_CONTEXT_WORDS.has(texts[i - 1] ?? '');
    const compound = whole.known || whole.number !== null || nameSpot ? null : splitCompound(whole.text);
    if (compound) {
      // a closed compound of two words ("speedboat", "stargazing"): read as its two words, so the
      // context rules and the block lists still see them ("shirtless" is "shirt" + "less")
      push(r, position, compound[0], false, compound[0].text, r.gap, '');
      push(r, position, compound[1], true, compound[1].text, '', r.after);
      continue;
    }
    push(r, position, whole, false);
  }

  // numbers are judged by numbers.ts; any other word must be known
  for (const w of words) {
    if (w.number === null && !w.known) {
      const foreign = FOREIGN_FUNCTION_WORDS.has(w.text);
      findings.push({
        reason: foreign ? SafetyReason.Language : SafetyReason.UnknownWord,
        rule: `${foreign ? 'a word of another language' : 'not in the vocabulary'}: word #${w.position} "${w.text}"`,
        word: w.typed,
      });
    }
  }
  return { words, findings };
}
