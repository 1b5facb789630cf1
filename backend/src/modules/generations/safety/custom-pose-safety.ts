import { ValidationError } from '../../../common/errors';
import { blockListFindings } from './block-list';
import { contextFindings } from './context-rules';
import { REASON_PRIORITY, SafetyReason } from './custom-pose-terms.data';
import { readWords } from './vocabulary-check';
import { splitWords } from './words';
import type { Finding } from './finding';

export { SafetyReason } from './custom-pose-terms.data';
export type { Finding } from './finding';

/** Longest custom pose, in characters (after trimming). */
export const CUSTOM_POSE_MAX_LENGTH = 300;

/** The example every "use everyday words" message gives. */
const EXAMPLE = 'walking on the beach at sunset';
const EVERYDAY_ENGLISH = `Describe the pose in everyday English words, for example: ${EXAMPLE}`;

/**
 * What the user reads for each refusal: one sentence per reason class (the API's VALIDATION_ERROR
 * message). No message ever repeats the user's words (a slur is never echoed back).
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
    "This pose description can't be used: describe the pose in plain words, without instructions to the AI, links, code, symbols or emoji.",
  [SafetyReason.Number]: `Describe the pose in everyday English words without numbers, for example: ${EXAMPLE}`,
  [SafetyReason.Language]: EVERYDAY_ENGLISH,
  [SafetyReason.UnknownWord]: EVERYDAY_ENGLISH,
} as const satisfies Record<SafetyReason, string>;

export type CustomPoseCheck = { ok: true } | { ok: false; reason: SafetyReason };

/** Everything the check found in a text (for the safety:check script, logs and moderators). */
export interface CustomPoseAssessment {
  ok: boolean;
  /** the reason classes found, the most serious first, each once; empty when ok */
  reasons: SafetyReason[];
  /** every finding, the most serious first; a finding may name an unknown word (not for the user) */
  findings: Finding[];
}

/** The VALIDATION_ERROR of a refused custom pose; `reason` is for logs (the message is what the user reads). */
export class CustomPoseRefusedError extends ValidationError {
  constructor(readonly reason: SafetyReason) {
    super(CUSTOM_POSE_SAFETY_MESSAGES[reason]);
  }
}

function visibleLength(text: string): number {
  return [...text.replace(/\p{Cf}/gu, '').trim()].length;
}

const rank = (f: Finding) => REASON_PRIORITY.indexOf(f.reason);

/**
 * The check, in two layers (docs/safety.md):
 * 1. the closed vocabulary: every character and word must be understood (words.ts,
 *    vocabulary-check.ts), and context rules judge the words that are harmful in some company
 *    (context-rules.ts);
 * 2. the block lists and the `obscenity` dataset on the normalised text (block-list.ts).
 * A text is allowed only when neither layer finds anything.
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
      ...split.problems.map((p) => ({ reason: p.kind === 'script' ? SafetyReason.Language : SafetyReason.Injection, rule: p.rule })),
      ...read.findings,
      ...contextFindings(read.words),
      ...blockListFindings(text),
    ];
  }
  findings.sort((a, b) => rank(a) - rank(b));
  return { ok: findings.length === 0, reasons: [...new Set(findings.map((f) => f.reason))], findings };
}

/**
 * The most serious reason a custom pose cannot be used, with the rule that found it (for tests
 * and logs: it may name the word, so it is never shown to the user), or null when it can be used.
 */
export function explainCustomPose(text: string): Finding | null {
  return assessCustomPose(text).findings[0] ?? null;
}

/**
 * Whether a user's custom pose may be sent to a provider (docs/product.md "Safety"): only everyday
 * English words; no nudity, sexual content, minors, other real people, violence, self-harm,
 * slurs, instructions to the AI or numbers; not empty; at most 300 characters.
 */
export function checkCustomPose(text: string): CustomPoseCheck {
  const { reasons } = assessCustomPose(text);
  return reasons.length === 0 ? { ok: true } : { ok: false, reason: reasons[0] };
}

/** Throws CustomPoseRefusedError (VALIDATION_ERROR, 400, the reason's message) unless checkCustomPose allows the text. */
export function assertSafeCustomPose(text: string): void {
  const result = checkCustomPose(text);
  if (!result.ok) throw new CustomPoseRefusedError(result.reason);
}
