import { AppError, type ErrorBodyExtra, SafetyErrorCode, ValidationError } from '../../../common/errors';
import { CustomPoseMessages, type CustomPoseNotUnderstood } from '../../../common/errors/error-catalogue';
import { blockListFindings } from './block-list';
import { contextFindings } from './context-rules';
import { REASON_PRIORITY, SafetyReason } from './custom-pose-terms.data';
import { numberFindings } from './numbers';
import { closeWords } from './suggestions';
import { readWords } from './vocabulary-check';
import { splitWords, type CharacterProblem } from './words';
import type { Finding } from './finding';

export { SafetyReason } from './custom-pose-terms.data';
export type { Finding } from './finding';

/** Longest custom pose, in characters (after trimming). */
export const CUSTOM_POSE_MAX_LENGTH = 300;

/** The example every "use everyday words" message gives. */
const EXAMPLE = 'walking on the beach at sunset';
const EVERYDAY_ENGLISH = `Describe the pose in everyday English words, for example: ${EXAMPLE}`;

/**
 * What the check did not understand, rather than found unsafe (docs/safety.md "Not understood"):
 * nothing is generated, nothing is counted against the person, and they are shown what was not
 * understood with close words the check knows.
 */
export const NOT_UNDERSTOOD_REASONS: ReadonlySet<SafetyReason> = new Set([
  SafetyReason.Number,
  SafetyReason.Language,
  SafetyReason.UnknownWord,
  SafetyReason.Symbol,
]);
/** Not a description at all: nothing to check, or too long. */
export const INVALID_REASONS: ReadonlySet<SafetyReason> = new Set([SafetyReason.Empty, SafetyReason.TooLong]);

/** A safety category: a refusal for it is recorded and counted toward the pause (safety-refusals.service.ts). */
export function isSafetyReason(reason: SafetyReason): boolean {
  return !NOT_UNDERSTOOD_REASONS.has(reason) && !INVALID_REASONS.has(reason);
}

/**
 * What the user reads for each reason: one sentence per class (the API's message). A refusal's
 * message never repeats the user's words (a slur is never echoed back); a not-understood answer
 * names the words it did not know (notUnderstoodMessage), never one a block list knows.
 */
export const CUSTOM_POSE_SAFETY_MESSAGES = {
  [SafetyReason.Empty]: 'Please describe your custom pose.',
  [SafetyReason.TooLong]: `This pose description is too long: please use at most ${CUSTOM_POSE_MAX_LENGTH} characters.`,
  [SafetyReason.Minor]: "This pose description can't be used: nothing may suggest a minor, so describe a pose or setting for an adult.",
  [SafetyReason.Sexual]: "This pose description can't be used: describe an ordinary pose or setting without sexual content.",
  [SafetyReason.Nudity]: "This pose description can't be used: describe a pose or setting in which you stay clothed, without nudity.",
  [SafetyReason.SelfHarm]:
    "This pose description can't be used: describe a pose or setting without self-harm, and if you are going through a hard time, please reach out to someone you trust.",
  [SafetyReason.Violence]: "This pose description can't be used: describe a pose or setting without violence or weapons.",
  [SafetyReason.OtherPerson]:
    "This pose description can't be used: the picture can only show you, so leave out other people and don't ask to look like someone.",
  [SafetyReason.Offensive]: "This pose description can't be used: please leave out offensive language.",
  [SafetyReason.Injection]:
    "This pose description can't be used: describe the pose in plain words, without instructions to the AI, links or code.",
  [SafetyReason.Number]: `Some numbers could not be read: say what a number counts or measures ("5 pm", "size 12", "35mm film") or leave it out. ${EVERYDAY_ENGLISH}`,
  [SafetyReason.Language]: `${CustomPoseMessages.englishOnly} ${EVERYDAY_ENGLISH}`,
  [SafetyReason.UnknownWord]: EVERYDAY_ENGLISH,
  [SafetyReason.Symbol]: `Please use letters and ordinary punctuation only. ${EVERYDAY_ENGLISH}`,
} as const satisfies Record<SafetyReason, string>;

/** How the check judged a text. */
export type CustomPoseOutcome = 'accepted' | 'refused' | 'not_understood' | 'invalid';

export type CustomPoseCheck = { ok: true } | { ok: false; reason: SafetyReason; outcome: Exclude<CustomPoseOutcome, 'accepted'> };

/** Everything the check found in a text (for the safety:check script, logs and moderators). */
export interface CustomPoseAssessment {
  ok: boolean;
  /**
   * `refused` when any finding has a safety category (recorded and counted), `not_understood`
   * when the only findings are unknown words, another language, numbers it cannot read or stray
   * characters (neither generated nor counted), `invalid` when empty or too long.
   */
  outcome: CustomPoseOutcome;
  /** the reason classes found, the most serious first, each once; empty when ok */
  reasons: SafetyReason[];
  /** every finding, the most serious first; a finding may name an unknown word (not for the user) */
  findings: Finding[];
}

/** The 400 of a refused custom pose (VALIDATION_ERROR); `reason` is for logs (the message is what the user reads). */
export class CustomPoseRefusedError extends ValidationError {
  constructor(readonly reason: SafetyReason) {
    super(CUSTOM_POSE_SAFETY_MESSAGES[reason]);
  }
}

/** The 400 of a custom pose the check did not understand (CUSTOM_POSE_NOT_UNDERSTOOD), naming what it did not understand. */
export class CustomPoseNotUnderstoodError extends AppError {
  override readonly extra: ErrorBodyExtra;

  constructor(
    readonly reason: SafetyReason,
    readonly details: CustomPoseNotUnderstood,
  ) {
    super(SafetyErrorCode.CUSTOM_POSE_NOT_UNDERSTOOD, notUnderstoodMessage(reason, details), 400);
    this.extra = { not_understood: details };
  }
}

function visibleLength(text: string): number {
  return [...text.replace(/\p{Cf}/gu, '').trim()].length;
}

const rank = (f: Finding) => REASON_PRIORITY.indexOf(f.reason);

function characterFinding(p: CharacterProblem): Finding {
  const reason = p.kind === 'script' ? SafetyReason.Language : p.kind === 'code' ? SafetyReason.Injection : SafetyReason.Symbol;
  return {
    reason,
    rule: p.rule,
    ...(p.word !== undefined ? { word: p.word } : {}),
    ...(p.character !== undefined ? { character: p.character } : {}),
  };
}

function outcomeOf(reasons: readonly SafetyReason[]): CustomPoseOutcome {
  if (reasons.length === 0) return 'accepted';
  if (reasons.some((r) => INVALID_REASONS.has(r))) return 'invalid';
  return reasons.some(isSafetyReason) ? 'refused' : 'not_understood';
}

/**
 * The check, in two layers (docs/safety.md):
 * 1. the closed vocabulary: every character and word must be understood (words.ts,
 *    vocabulary-check.ts), numbers are read in their context (numbers.ts), and context rules judge
 *    the words that are harmful in some company (context-rules.ts);
 * 2. the block lists and the `obscenity` dataset on the normalised text (block-list.ts).
 * A text is accepted only when neither layer finds anything; it is refused when a finding has a
 * safety category, and not understood when every finding is an unknown word, another language,
 * a number it cannot read or a stray character.
 */
export function assessCustomPose(text: string): CustomPoseAssessment {
  let findings: Finding[];
  if (typeof text !== 'string' || visibleLength(text) === 0) findings = [{ reason: SafetyReason.Empty, rule: 'empty' }];
  else if (visibleLength(text) > CUSTOM_POSE_MAX_LENGTH)
    findings = [{ reason: SafetyReason.TooLong, rule: `longer than ${CUSTOM_POSE_MAX_LENGTH}` }];
  else {
    const split = splitWords(text);
    const read = readWords(split.words);
    findings = [
      ...split.problems.map(characterFinding),
      ...read.findings,
      ...numberFindings(read.words),
      ...contextFindings(read.words),
      ...blockListFindings(text),
    ];
  }
  findings.sort((a, b) => rank(a) - rank(b));
  const reasons = [...new Set(findings.map((f) => f.reason))];
  return { ok: findings.length === 0, outcome: outcomeOf(reasons), reasons, findings };
}

/**
 * The most serious reason a custom pose cannot be used, with the rule that found it (for tests
 * and logs: it may name the word, so it is never shown to the user), or null when it can be used.
 */
export function explainCustomPose(text: string): Finding | null {
  return assessCustomPose(text).findings[0] ?? null;
}

/** Most suggestions per word. */
const SUGGESTIONS_PER_WORD = 3;
/** Most words named back. */
const MAX_WORDS = 8;

/** A word may be named back to the person (and a suggestion offered) only when no block list knows it. */
function nameable(word: string): boolean {
  return blockListFindings(word).length === 0;
}

/**
 * What the check did not understand in `text` (its assessment `a`), for the person: the unknown
 * words, words of another language and numbers it cannot read (never a word a block list knows),
 * each with up to three close words it knows that do not make the text refused; the stray
 * characters; whether another language was seen.
 */
export function describeNotUnderstood(text: string, a: CustomPoseAssessment = assessCustomPose(text)): CustomPoseNotUnderstood {
  const otherLanguage = a.findings.some((f) => f.reason === SafetyReason.Language);
  const words: CustomPoseNotUnderstood['words'] = [];
  const seen = new Set<string>();
  for (const f of a.findings) {
    if (f.word === undefined || !NOT_UNDERSTOOD_REASONS.has(f.reason) || words.length >= MAX_WORDS) continue;
    const key = f.word.toLowerCase();
    if (seen.has(key) || !nameable(f.word)) continue;
    seen.add(key);
    // no suggestions for another language (English only for now) or a number
    const suggest = f.reason === SafetyReason.UnknownWord && !otherLanguage;
    words.push({ word: f.word, suggestions: suggest ? suggestionsFor(text, f.word) : [] });
  }
  const characters = [...new Set(a.findings.flatMap((f) => (f.reason === SafetyReason.Symbol && f.character ? [f.character] : [])))];
  return { words, characters, other_language: otherLanguage };
}

/**
 * Close words for `word` that the check accepts alone and that, put in its place, bring no safety
 * finding the text did not already have (a suggestion never leads into a refusal).
 */
function suggestionsFor(text: string, word: string): string[] {
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'u');
  const before = new Set(assessCustomPose(text).reasons.filter(isSafetyReason));
  return closeWords(word, SUGGESTIONS_PER_WORD, (candidate) => {
    if (!assessCustomPose(candidate).ok) return false;
    const replaced = assessCustomPose(text.replace(pattern, candidate));
    return replaced.reasons.filter(isSafetyReason).every((r) => before.has(r));
  });
}

const quoted = (words: readonly string[]) => words.map((w) => `"${w}"`).join(', ');

/** The sentence a person reads for a text that was not understood: what, and how to say it. */
export function notUnderstoodMessage(reason: SafetyReason, details: CustomPoseNotUnderstood): string {
  if (details.other_language) return CUSTOM_POSE_SAFETY_MESSAGES[SafetyReason.Language];
  const parts: string[] = [];
  const words = details.words.map((w) => w.word);
  if (words.length === 1) parts.push(`The word ${quoted(words)} wasn't understood.`);
  else if (words.length > 1) parts.push(`These words weren't understood: ${quoted(words)}.`);
  if (details.characters.length > 0) parts.push(`Please leave out ${quoted(details.characters)}.`);
  parts.push(reason === SafetyReason.Number ? CUSTOM_POSE_SAFETY_MESSAGES[SafetyReason.Number] : EVERYDAY_ENGLISH);
  return parts.join(' ');
}

/** The help as a person types (POST /api/generations/custom-pose/check): what was not understood, without judging safety. */
export interface CustomPoseUnderstanding {
  /** every word, number and character was understood (a word the block lists know is never named, so it does not count here) */
  understood: boolean;
  /** the sentence a start would answer for it, when not understood */
  message: string | null;
  not_understood: CustomPoseNotUnderstood;
}

/**
 * What the check did not understand in a text, for the help as a person types: its unknown words
 * (with close words it knows), numbers it cannot read, stray characters and another language.
 * Safety is not judged here (nothing is recorded either); a start judges it.
 */
export function understandCustomPose(text: string): CustomPoseUnderstanding {
  const a = assessCustomPose(text);
  const findings = a.findings.filter((f) => NOT_UNDERSTOOD_REASONS.has(f.reason));
  const details = describeNotUnderstood(text, { ...a, findings });
  const understood = details.words.length === 0 && details.characters.length === 0 && !details.other_language;
  if (understood) return { understood, message: null, not_understood: details };
  const named = new Set(details.words.map((w) => w.word));
  const reason = details.other_language
    ? SafetyReason.Language
    : (findings.find((f) => f.word !== undefined && named.has(f.word))?.reason ?? SafetyReason.Symbol);
  return { understood, message: notUnderstoodMessage(reason, details), not_understood: details };
}

/**
 * Whether a user's custom pose may be sent to a provider (docs/product.md "Safety"): only everyday
 * English words; no nudity, sexual content, minors, other real people, violence, self-harm,
 * slurs or instructions to the AI; numbers only where the check can read them; not empty; at most
 * 300 characters.
 */
export function checkCustomPose(text: string): CustomPoseCheck {
  const { reasons, outcome } = assessCustomPose(text);
  return outcome === 'accepted' ? { ok: true } : { ok: false, reason: reasons.find(isSafetyReason) ?? reasons[0], outcome };
}

/** The error for a text the check does not accept: refused (VALIDATION_ERROR), not understood (CUSTOM_POSE_NOT_UNDERSTOOD) or invalid. */
export function customPoseError(text: string, a: CustomPoseAssessment = assessCustomPose(text)): AppError | null {
  if (a.outcome === 'accepted') return null;
  if (a.outcome === 'not_understood') return new CustomPoseNotUnderstoodError(a.reasons[0], describeNotUnderstood(text, a));
  return new CustomPoseRefusedError(a.reasons.find(isSafetyReason) ?? a.reasons[0]);
}

/** Throws customPoseError's error unless the check accepts the text. */
export function assertSafeCustomPose(text: string): void {
  const error = customPoseError(text);
  if (error) throw error;
}
