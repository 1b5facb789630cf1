import { SafetyReason } from './custom-pose-terms.data';
import * as D from './numbers.data';
import { VocabularyTag as T } from './vocabulary/vocabulary.types';
import type { Finding } from './finding';
import type { Word } from './vocabulary-check';

/**
 * The number rule of the custom-pose check (docs/safety.md "Numbers"). Every number, in digits or
 * in words, is read in its context, in this order, and the first reading that fits decides:
 *
 * 1. an age, by its own words: "15 years old", "15yo", "15 y/o", "3 months old", "16th birthday",
 *    "sweet 16", "in my 30s", "me at 45", "at 25, backpacking..." (at the start, a clause of its own);
 * 2. a school year: "year 9", "grade 3", "7th grade", "a 9th grader" (up to 13), "class of <this year or later>";
 *    a birth year: "born in <a year less than 18 years ago>";
 * 3. a measurement, a time, a size, a label, a decade, a year or a price: "35mm", "20 denier",
 *    "5 pm", "5:30", "100%", "size 12", "gate 12", "the 90s", "1990s", "summer 2024", "$50";
 * 4. several people ("two women"): someone else in the picture;
 * 5. a count of things: "3 red balloons", "two coffee cups" ("15 candles" is an age);
 * 6. an age, by a person beside it: "girl, 15", "a 15 girl", "a woman of 52";
 * 7. an age, by the word before it: "aged 28", "turning 50", "I'm 25", "make me look 12", "under 18";
 * 8. a duration ("for 10 years", "a 10 year anniversary"; "12 years" alone is an age), a time of
 *    day after "at", "until"... (up to 24), a range ("9 to 5"), an ordinal ("2nd floor"), or a
 *    vocabulary number word ("one leg", "a third").
 *
 * An age under 18, a school year and a child's height ("a 3 foot tall girl") are refused as
 * `minor` (a safety refusal, counted); an adult's age is understood. A number no reading fits is
 * not understood (`number`): it is neither accepted nor counted against the person.
 */

/** What a number turned out to be. */
export type NumberReading =
  | { kind: 'age'; value: number }
  | { kind: 'school' }
  | { kind: 'child-height' }
  | { kind: 'people' }
  | { kind: 'understood'; as: string }
  | { kind: 'unclear' };

/** An age under this is a minor's. */
export const ADULT_AGE = 18;

const has = (w: Word | undefined, set: ReadonlySet<string>): boolean => {
  if (!w) return false;
  if (set.has(w.text)) return true;
  for (const l of w.lemmas) if (set.has(l)) return true;
  return false;
};

const ORDINAL_TOKEN = /^[0-9]+(?:st|nd|rd|th)$/;
const ORDINAL_WORDS = new Set([
  'first',
  'second',
  'third',
  'fourth',
  'fifth',
  'sixth',
  'seventh',
  'eighth',
  'ninth',
  'tenth',
  'eleventh',
  'twelfth',
  'thirteenth',
  'fourteenth',
  'fifteenth',
  'sixteenth',
  'seventeenth',
  'eighteenth',
  'nineteenth',
  'twentieth',
  'thirtieth',
  'fortieth',
  'fiftieth',
]);
const DECADE_WORDS = new Set(['teens', 'twenties', 'thirties', 'forties', 'fifties', 'sixties', 'seventies', 'eighties', 'nineties']);
/** "1990s", "90s", "'90s", "20s" */
const DECADE_TOKEN = /^[0-9]*0'?s$/;
const YEAR_TOKEN = /^[0-9]{4}$/;
/** A number written with a unit in it: "35mm", "5pm", "10k", "5'4", "1080p", "2x". */
const UNIT_TOKEN = /[0-9](?:m|cm|mm|km|ft|in|kg|kgs|lb|lbs|k|x|h|hr|hrs|min|mins|mph|p|mp|am|pm|'[0-9]+)$/;
const AGE_TOKEN = /[0-9](?:yo|y|yr|yrs)$/;
const CURRENCY_BEFORE = /[$£€]\s*$/;

const isOrdinal = (w: Word) => ORDINAL_TOKEN.test(w.text) || ORDINAL_WORDS.has(w.text);
const isDigits = (w: Word) => /[0-9]/.test(w.text);

/** The words of the sentence of ws[i], before and after it. */
function at(ws: readonly Word[], i: number, offset: number): Word | undefined {
  const w = ws[i + offset];
  return w && w.sentence === ws[i].sentence ? w : undefined;
}

/** The current year, for "born in 2012" and "class of 2027". */
function thisYear(): number {
  return new Date().getUTCFullYear();
}

/** A thing that can be counted: a noun of the vocabulary that is not a person. */
function countable(w: Word | undefined): boolean {
  if (!w || !w.known || !w.kinds.has('noun')) return false;
  if (w.tags.has(T.Function) || w.tags.has(T.Self) || has(w, D.PERSON_WORDS) || has(w, D.PEOPLE_PLURAL)) return false;
  // "12 years", "3 months": an age or a duration (step 8), never a count
  if (has(w, D.AGE_UNITS) || has(w, D.BABY_AGE_UNITS)) return false;
  return true;
}
/** A word that may stand between a number and what it counts: "3 RED balloons", "two SMALL coffee cups". */
function modifier(w: Word | undefined): boolean {
  if (!w || !w.known) return false;
  return (
    w.kinds.has('adjective') ||
    [T.Colour, T.Material, T.Pattern, T.Mood, T.Descriptive].some((t) => w.tags.has(t)) ||
    (w.kinds.has('noun') && !w.tags.has(T.Function))
  );
}

/** The noun a number counts (skipping up to two modifiers: "3 red balloons", "two coffee cups"), or undefined. */
function counted(ws: readonly Word[], i: number): Word | undefined {
  for (let k = 1; k <= 3; k++) {
    const w = at(ws, i, k);
    if (!w) return undefined;
    // the last noun of a run ("coffee cups"): the next one may continue it
    if (countable(w) && !countable(at(ws, i, k + 1))) return w;
    if (!modifier(w)) return undefined;
  }
  return undefined;
}

function ageOf(value: number): NumberReading {
  return { kind: 'age', value };
}

/** Step 1: an age by its own words. */
function ageByItsWords(ws: readonly Word[], i: number): NumberReading | null {
  const w = ws[i];
  const next = at(ws, i, 1);
  const after = at(ws, i, 2);
  const prev = at(ws, i, -1);
  if (AGE_TOKEN.test(w.text)) return ageOf(w.number!);
  // "3 months old": a baby
  if (has(next, D.BABY_AGE_UNITS) && after?.text === 'old') return ageOf(0);
  if (has(next, D.AGE_UNITS)) {
    // "15 yo", "15 y/o", "15 yrs": an age whatever follows; "15 years" is an age unless it is a duration
    if (!['year', 'years'].includes(next!.text)) return ageOf(w.number!);
    if (has(after, D.AGE_UNIT_FOLLOWERS)) return ageOf(w.number!);
  }
  if (isOrdinal(w) && next && (next.text === 'birthday' || next.lemmas.has('birthday'))) return ageOf(w.number!);
  if (has(prev, D.SWEET)) return ageOf(w.number!);
  // "30-something", "a forty-something": an age
  if (next?.joined && next.text === 'something') return ageOf(w.number!);
  // "in my 30s", "in her late twenties", "a woman in her forties"
  const owner = has(prev, D.DECADE_QUALIFIERS) ? at(ws, i, -2) : prev;
  if ((DECADE_TOKEN.test(w.text) || DECADE_WORDS.has(w.text)) && has(owner, D.DECADE_OWNERS)) return ageOf(w.number!);
  // "me at 45", "her at 16"; "at 25, backpacking...": "at" and a number that closes its clause at the start of a text or sentence
  if (prev?.text === 'at' && !has(next, D.UNIT_WORDS)) {
    if (has(at(ws, i, -2), D.SELF_WORDS)) return ageOf(w.number!);
    // (up to 12 it is a time: "at 8, dinner on the terrace")
    if (prev.sentenceStart && (!next || next.clauseStart) && w.number! > 12) return ageOf(w.number!);
  }
  return null;
}

/** Step 2: a school year, a birth year, a year group. */
function schoolOrBirth(ws: readonly Word[], i: number): NumberReading | null {
  const w = ws[i];
  const value = w.number!;
  const prev = at(ws, i, -1);
  const next = at(ws, i, 1);
  if (YEAR_TOKEN.test(w.text)) {
    if (has(prev, D.BIRTH_LEADS) || (prev?.text === 'in' && has(at(ws, i, -2), D.BIRTH_LEADS))) return ageOf(thisYear() - value);
    if (prev?.text === 'of' && has(at(ws, i, -2), D.CLASS_OF)) return value >= thisYear() - 1 ? { kind: 'school' } : null;
    return null;
  }
  if (value > D.MAX_SCHOOL_YEAR) return null;
  if (has(prev, D.SCHOOL_LEADS)) return { kind: 'school' };
  // "7th grade", "a 9th grader", "1st year"; "9 year old" is an age (step 1), "a 10 year anniversary" a duration
  if (has(next, D.SCHOOL_FOLLOWERS) && (isOrdinal(w) || !next!.text.startsWith('year'))) return { kind: 'school' };
  return null;
}

/** Step 3: a measurement, a time, a size, a label, a decade, a year, a price. */
function measurement(ws: readonly Word[], i: number): NumberReading | null {
  const w = ws[i];
  const prev = at(ws, i, -1);
  const next = at(ws, i, 1);
  const person = ws.some((x) => x.sentence === w.sentence && (has(x, D.PERSON_WORDS) || has(x, D.SELF_WORDS)));
  if (UNIT_TOKEN.test(w.text) || has(next, D.UNIT_WORDS) || /^\s*%/.test(w.after)) {
    // a child's height: "a 3 foot tall girl", "100 cm tall"
    const feet = /[0-9](?:ft|'[0-9]+)$/.test(w.text) || has(next, D.LENGTH_UNITS);
    const cm = /[0-9]cm$/.test(w.text) || next?.text === 'cm' || next?.lemmas.has('centimetre') || next?.lemmas.has('centimeter');
    const tall = ws.slice(i + 1, i + 4).some((x) => x.sentence === w.sentence && has(x, D.HEIGHT_CUES));
    if ((tall || person) && ((feet && w.number! < D.CHILD_HEIGHT_FEET) || (cm && w.number! >= 30 && w.number! < D.CHILD_HEIGHT_CM)))
      return { kind: 'child-height' };
    return { kind: 'understood', as: 'a measurement' };
  }
  if (w.text.includes(':')) return { kind: 'understood', as: 'a time' };
  // "10/10", "24/7", "4/5 stars": a rating or a fraction (an age beside it is still read: "15/16 years old")
  if ((/^\s*\/\s*$/.test(w.after) && at(ws, i, 1)?.number != null) || (/^\s*\/\s*$/.test(w.gap) && at(ws, i, -1)?.number != null))
    return { kind: 'understood', as: 'a ratio' };
  if (has(prev, D.LENGTH_UNITS) || /[0-9]'$/.test(prev?.text ?? '')) return { kind: 'understood', as: 'a height' };
  if (next && (next.text === 'in' || next.text === 'at') && has(at(ws, i, 2), new Set(['the'])) && has(at(ws, i, 3), D.TIME_OF_DAY))
    return { kind: 'understood', as: 'a time' };
  if (next?.text === 'at' && at(ws, i, 2)?.text === 'night') return { kind: 'understood', as: 'a time' };
  if (has(prev, D.SIZE_LEADS) || (has(at(ws, i, -2), D.SIZE_LEADS) && has(prev, D.SIZE_LEADS))) return { kind: 'understood', as: 'a size' };
  if (has(prev, D.LABEL_LEADS) && !prev!.tags.has(T.Function)) return { kind: 'understood', as: 'a label' };
  if (prev?.text === 'no' && isDigits(w)) return { kind: 'understood', as: 'a label' };
  if (CURRENCY_BEFORE.test(w.gap) || w.text.startsWith('$')) return { kind: 'understood', as: 'a price' };
  if (DECADE_TOKEN.test(w.text) && (w.number! >= 20 || /^[0-9]{4}/.test(w.text) || w.text.startsWith('0')))
    return { kind: 'understood', as: 'a decade' };
  if (DECADE_WORDS.has(w.text) && w.text !== 'teens') return { kind: 'understood', as: 'a decade' };
  if (YEAR_TOKEN.test(w.text) && w.number! >= 1800 && w.number! <= 2100) return { kind: 'understood', as: 'a year' };
  return null;
}

/** Step 4: several people after a number: "two women", "3 guys", "two tall men". */
function people(ws: readonly Word[], i: number): NumberReading | null {
  const next = at(ws, i, 1);
  const nextContent = next && !has(next, D.PEOPLE_PLURAL) && next.known && next.kinds.has('adjective') ? at(ws, i, 2) : next;
  return has(nextContent, D.PEOPLE_PLURAL) && (ws[i].number ?? 0) >= 2 ? { kind: 'people' } : null;
}

/** Step 6: a person beside the number, whose age it is. */
function personBeside(ws: readonly Word[], i: number): NumberReading | null {
  const w = ws[i];
  const prev = at(ws, i, -1);
  const next = at(ws, i, 1);
  if (w.known) return null;
  // "girl, 15", "me 15", "a 15 girl", "a woman of 52", "a girl of fourteen"
  if (has(prev, D.PERSON_WORDS)) return ageOf(w.number!);
  if (prev?.text === 'of' && has(at(ws, i, -2), D.PERSON_WORDS)) return ageOf(w.number!);
  if (has(next, D.PERSON_WORDS) && !next!.text.endsWith("'s")) return ageOf(w.number!);
  // "sixteen and in a bikini", "15, on the beach": a number that opens a clause and describes nothing
  if (w.clauseStart && (!next || next.text === 'and' || next.clauseStart)) return ageOf(w.number!);
  return null;
}

/** Step 7: an age by the word before it ("aged 28", "I'm 25", "look 12"). */
function ageByLead(ws: readonly Word[], i: number): NumberReading | null {
  const w = ws[i];
  const prev = at(ws, i, -1);
  // "at the age of 15", "age of 15"
  if (prev?.text === 'of' && has(at(ws, i, -2), D.AGE_LEADS)) return ageOf(w.number!);
  if (has(prev, D.AGE_LEADS)) return ageOf(w.number!);
  // a vocabulary number word ("I'm one of a kind", "just one coffee") is no age after these
  if (!w.known && has(prev, D.WEAK_AGE_LEADS)) return ageOf(w.number!);
  return null;
}

/** Step 8: a duration, a time after "at", a range, an ordinal, a vocabulary number word. */
function lastReadings(ws: readonly Word[], i: number): NumberReading | null {
  const w = ws[i];
  const prev = at(ws, i, -1);
  const next = at(ws, i, 1);
  if (next && (next.text === 'year' || next.text === 'years' || has(next, D.BABY_AGE_UNITS))) {
    const then = at(ws, i, 2);
    // "10 years ago", "for 5 years", "a 10 year anniversary", "3 days in Rome"
    if (has(then, D.DURATION_FOLLOWERS) || has(prev, D.DURATION_LEADS) || (countable(then) && !has(then, D.PERSON_WORDS)))
      return { kind: 'understood', as: 'a duration' };
    // "12 years" with nothing that makes it a duration: read as an age (failing closed)
    return next.text.startsWith('year') ? ageOf(w.number!) : { kind: 'understood', as: 'a duration' };
  }
  const whole = Number.isInteger(w.number) && w.number! >= 0 && w.number! <= 24;
  if (whole && has(prev, D.TIME_LEADS) && !w.known) return { kind: 'understood', as: 'a time' };
  // "at 30 on a yacht": no time of day, an age
  if (prev?.text === 'at' && Number.isInteger(w.number) && w.number! > 24 && w.number! < 120) return ageOf(w.number!);
  const numberNear = (x: Word | undefined) => x !== undefined && x.number !== null && !Number.isNaN(x.number);
  if ((has(next, D.RANGE_WORDS) && numberNear(at(ws, i, 2))) || (has(prev, D.RANGE_WORDS) && numberNear(at(ws, i, -2))))
    return { kind: 'understood', as: 'a range' };
  if (isOrdinal(w)) return { kind: 'understood', as: 'an ordinal' };
  if (w.known) return { kind: 'understood', as: 'a number word' };
  return null;
}

/** How the number ws[i] is read (docs/safety.md "Numbers"). */
export function readNumber(ws: readonly Word[], i: number): NumberReading {
  const w = ws[i];
  if (w.number === null || Number.isNaN(w.number)) return { kind: 'unclear' };
  // "teen", "teens": a minor's age whatever surrounds it
  if (D.TEEN_WORDS.has(w.text)) return ageOf(w.number);
  const byItsWords = ageByItsWords(ws, i) ?? schoolOrBirth(ws, i) ?? measurement(ws, i) ?? people(ws, i);
  if (byItsWords) return byItsWords;
  const thing = counted(ws, i);
  if (thing) return has(thing, D.AGE_COUNTS) && w.number < ADULT_AGE ? ageOf(w.number) : { kind: 'understood', as: 'a count' };
  return personBeside(ws, i) ?? ageByLead(ws, i) ?? lastReadings(ws, i) ?? { kind: 'unclear' };
}

/** The findings of every number of a text: minors and other people (refused), unclear numbers (not understood). */
export function numberFindings(ws: readonly Word[]): Finding[] {
  const found: Finding[] = [];
  ws.forEach((w, i) => {
    if (w.number === null) return;
    const reading = readNumber(ws, i);
    const where = `word #${w.position}`;
    if (reading.kind === 'age' && reading.value < ADULT_AGE)
      found.push({ reason: SafetyReason.Minor, rule: `an age under ${ADULT_AGE}: ${where}` });
    else if (reading.kind === 'school') found.push({ reason: SafetyReason.Minor, rule: `a school year: ${where}` });
    else if (reading.kind === 'child-height') found.push({ reason: SafetyReason.Minor, rule: `a child's height: ${where}` });
    else if (reading.kind === 'people') found.push({ reason: SafetyReason.OtherPerson, rule: `several people: ${where}` });
    else if (reading.kind === 'unclear')
      found.push({ reason: SafetyReason.Number, rule: `a number it cannot read: ${where}`, word: w.typed });
  });
  return found;
}
