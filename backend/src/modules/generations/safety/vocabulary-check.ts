import { PERSON_CONTEXT as PERSON_CONTEXT_WORDS } from './context-rules.data';
import { SafetyReason } from './custom-pose-terms.data';
import { LEET } from './normalize';
import { lookupWord, matchPhrase } from './vocabulary';
import { FOREIGN_FUNCTION_WORDS } from './vocabulary/foreign-words.data';
import { NUMBER_WORD_VALUES } from './vocabulary/number-words.data';
import { VocabularyTag } from './vocabulary/vocabulary.types';
import type { Finding } from './finding';
import type { RawWord } from './words';

/**
 * The first layer of the custom-pose check: every word must be in the closed vocabulary
 * (vocabulary/). A word written in leetspeak is read as the word it spells ("b34ch" is "beach"),
 * then judged like that word. Digits are refused (an age can hide in any number); the context
 * rules (context-rules.ts) decide whether a number is also an age.
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
}

export interface ReadText {
  words: Word[];
  findings: Finding[];
}

/** Digits, with an ordinal, plural, unit, time or age ending: "15", "21st", "1990s", "5pm", "15yo", "5'4". */
const NUMBER = /^\$?[0-9]+(?:st|nd|rd|th|s|'s|am|pm|yo|y|yr|yrs|k|m|cm|mm|ft|in|kg|kgs|lb|lbs|x|h|hr|hrs|min|mins|ish|'[0-9]+|'?s)?$/;
/** Age endings of a number token ("15yo"). */
const AGE_ENDING = /[0-9](?:yo|y|yr|yrs)$/;

const EMPTY: ReadonlySet<never> = new Set();

function decodeLeet(text: string): string {
  return text.replace(/[0-9@$]/g, (c) => LEET[c] ?? c);
}

function numberValue(text: string): number {
  const digits = text.match(/[0-9]+/);
  return digits ? Number(digits[0]) : NaN;
}

interface Reading {
  text: string;
  lemmas: ReadonlySet<string>;
  tags: ReadonlySet<VocabularyTag>;
  known: boolean;
  number: number | null;
  /** a problem with the word itself (a mask, an age ending), besides being unknown */
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
  if (NUMBER.test(text)) {
    const ageEnding = AGE_ENDING.test(text) ? { reason: SafetyReason.Minor, rule: 'an age ("yo", "yr")' } : undefined;
    return { text, lemmas: EMPTY, tags: EMPTY, known: false, number: numberValue(text), problem: problem ?? ageEnding };
  }
  // leetspeak only in words that also hold a letter ("s3x", "b34ch"), never in plain numbers
  if (/[a-z]/.test(text) && /[0-9@$]/.test(text)) text = decodeLeet(text);
  if (/[0-9]/.test(text)) return { text, lemmas: EMPTY, tags: EMPTY, known: false, number: NaN, problem };
  text = text.replace(/[@$]/g, '');
  const numberWord = NUMBER_WORD_VALUES[text];
  // single letters are spelled-out words ("n u d e"), except "a" and "i"
  const meaning = text.length === 1 && text !== 'a' && text !== 'i' ? null : lookupWord(text);
  return {
    text,
    lemmas: meaning?.lemmas ?? EMPTY,
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
 * unknown words (or "language" when one of them is a common word of another language), numbers,
 * masked letters.
 */
export function readWords(raw: readonly RawWord[]): ReadText {
  const words: Word[] = [];
  const findings: Finding[] = [];
  const texts = raw.map((r) => phraseKey(r.text));
  let sentence = -1;
  const push = (r: RawWord, position: number, reading: Reading, joined: boolean, typed = r.typed) => {
    words.push({
      position,
      text: reading.text,
      typed,
      lemmas: reading.lemmas,
      tags: reading.tags,
      known: reading.known,
      number: reading.number,
      capitalised: isCapitalised(typed),
      sentenceStart: r.sentenceStart && !joined,
      clauseStart: r.clauseStart && !joined,
      sentence,
      joined,
    });
    if (reading.problem) findings.push({ ...reading.problem, rule: `${reading.problem.rule}: word #${position}` });
  };

  for (let i = 0; i < raw.length; i++) {
    const r = raw[i];
    if (r.sentenceStart) sentence++;
    const position = i + 1;
    const phrase = matchPhrase(texts, i);
    if (phrase) {
      const reading: Reading = {
        text: phrase.phrase,
        lemmas: new Set([phrase.phrase]),
        tags: new Set([phrase.tag]),
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
        push(r, position, { text: r.text, lemmas: EMPTY, tags: EMPTY, known: false, number: value }, false);
        continue;
      }
      // a hyphenated word that is not listed whole: each part must be a word ("white-sand", "mid-stride")
      const typedParts = r.typed.split('-');
      r.text.split('-').forEach((part, k) => push(r, position, readSimple(part), k > 0, typedParts[k] ?? part));
      continue;
    }
    // not a capitalised word inside a sentence ("next to Madeline"), nor straight after a word that puts a person beside the user
    const nameSpot = (/^\p{Lu}/u.test(r.typed) && !r.sentenceStart) || PERSON_CONTEXT_WORDS.has(texts[i - 1] ?? '');
    const compound = whole.known || whole.number !== null || nameSpot ? null : splitCompound(whole.text);
    if (compound) {
      // a closed compound of two words ("speedboat", "stargazing"): read as its two words, so the
      // context rules and the block lists still see them ("shirtless" is "shirt" + "less")
      push(r, position, compound[0], false, compound[0].text);
      push(r, position, compound[1], true, compound[1].text);
      continue;
    }
    push(r, position, whole, false);
  }

  for (const w of words) {
    if (w.number !== null && !w.known) findings.push({ reason: SafetyReason.Number, rule: `a number: word #${w.position}` });
    else if (!w.known) {
      const foreign = FOREIGN_FUNCTION_WORDS.has(w.text);
      findings.push({
        reason: foreign ? SafetyReason.Language : SafetyReason.UnknownWord,
        rule: `${foreign ? 'a word of another language' : 'not in the vocabulary'}: word #${w.position} "${w.text}"`,
      });
    }
  }
  return { words, findings };
}
