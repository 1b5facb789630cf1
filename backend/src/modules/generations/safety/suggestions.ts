import { lookupWord, vocabularyEntries } from './vocabulary';
import { IRREGULAR_FORMS } from './vocabulary/irregular-forms.data';
import type { WordKind } from './vocabulary/vocabulary.types';

/**
 * "Did you mean": the words of the vocabulary closest to a word the check did not understand
 * (docs/safety.md "Not understood"). Candidates are the vocabulary's words and their regular and
 * irregular forms ("walking", "sat"), at most two edits away (one for words of four letters or
 * fewer; an edit is a letter added, removed, changed, or two letters swapped), or sharing a long
 * stem with it ("photographs" for "photographie"). The caller drops candidates that the check
 * would refuse, alone or in the text (custom-pose-safety.ts): a suggestion never leads into a refusal.
 */

const VOWEL = /[aeiou]/;

/** The regular forms of a word of a kind (the stemmer, stemmer.ts, reads them back). */
function forms(word: string, kinds: ReadonlySet<WordKind>): string[] {
  const out = [word];
  if (!/^[a-z]+$/.test(word)) return out;
  const last = word[word.length - 1];
  const consonantY = last === 'y' && word.length > 1 && !VOWEL.test(word[word.length - 2]);
  const hiss = /(?:s|x|z|ch|sh)$/.test(word);
  if (kinds.has('noun') || kinds.has('verb')) out.push(consonantY ? `${word.slice(0, -1)}ies` : hiss ? `${word}es` : `${word}s`);
  if (kinds.has('verb')) {
    const stem = last === 'e' ? word.slice(0, -1) : word;
    out.push(`${stem}ing`, consonantY ? `${word.slice(0, -1)}ied` : `${stem}ed`);
  }
  if (kinds.has('adjective')) {
    const stem = consonantY ? `${word.slice(0, -1)}i` : last === 'e' ? word.slice(0, -1) : word;
    out.push(`${stem}ly`);
  }
  return out;
}

interface Candidate {
  form: string;
  /** a listed word (not an inflection of one): preferred on a tie */
  base: boolean;
}

let index: Map<number, Candidate[]> | null = null;

/** Every candidate, by length; built on the first call (a few tens of milliseconds). */
function candidates(): Map<number, Candidate[]> {
  if (index) return index;
  const seen = new Map<string, Candidate>();
  const add = (form: string, base: boolean) => {
    const known = seen.get(form);
    if (known) known.base ||= base;
    else seen.set(form, { form, base });
  };
  for (const [word, kinds] of vocabularyEntries()) {
    add(word, true);
    for (const form of forms(word, kinds).slice(1)) if (lookupWord(form)) add(form, false);
  }
  for (const form of Object.keys(IRREGULAR_FORMS)) if (lookupWord(form)) add(form, false);
  index = new Map();
  for (const c of seen.values()) {
    const list = index.get(c.form.length) ?? [];
    list.push(c);
    index.set(c.form.length, list);
  }
  return index;
}

/** Damerau-Levenshtein distance (optimal string alignment), or max + 1 as soon as it exceeds max. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prevPrev: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prevPrev[j - 2] + 1);
      row.push(d);
      rowMin = Math.min(rowMin, d);
    }
    if (rowMin > max) return max + 1;
    prevPrev = prev;
    prev = row;
  }
  return prev[b.length];
}

function commonPrefix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

/**
 * The vocabulary's closest words to `word` (lower case, letters and an apostrophe or hyphen), the
 * closest first, at most `limit` of those that `acceptable` lets through.
 */
export function closeWords(word: string, limit: number, acceptable: (candidate: string) => boolean = () => true): string[] {
  const w = word.toLowerCase();
  if (!/^[a-z][a-z'-]*$/.test(w) || w.length < 2) return [];
  const max = w.length <= 4 ? 1 : 2;
  const scored: Array<{ form: string; score: number }> = [];
  for (const [length, list] of candidates()) {
    const near = Math.abs(length - w.length) <= max;
    // a long shared stem: "photographie" and "photographs", "bandeaux" and "bandeau"
    const stemmy = w.length >= 6 && length >= 5;
    if (!near && !stemmy) continue;
    for (const c of list) {
      if (c.form === w) continue;
      const d = near ? editDistance(w, c.form, max) : max + 1;
      const prefix = commonPrefix(w, c.form);
      const stem = stemmy && prefix >= Math.max(5, Math.min(w.length, c.form.length) - 2);
      if (d > max && !stem) continue;
      // fewer edits first; then a listed word, the same first letter, a longer shared start
      const edits = d <= max ? d : max + 0.5;
      scored.push({ form: c.form, score: edits * 10 - (c.base ? 2 : 0) - (c.form[0] === w[0] ? 3 : 0) - Math.min(prefix, 6) * 0.5 });
    }
  }
  scored.sort((a, b) => a.score - b.score || a.form.localeCompare(b.form));
  const out: string[] = [];
  for (const { form } of scored) {
    if (out.length >= limit) break;
    if (acceptable(form)) out.push(form);
  }
  return out;
}
