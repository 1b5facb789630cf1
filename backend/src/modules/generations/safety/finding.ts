import type { SafetyReason } from './custom-pose-terms.data';

/** Why a custom pose is refused or not understood: a reason class, and the rule that found it (for logs and moderators, never for the user). */
export interface Finding {
  reason: SafetyReason;
  /** which term, rule, character or word (by position) made the finding */
  rule: string;
  /** the word as typed, for a word or number that was not understood (shown to the person only when no block list knows it) */
  word?: string;
  /** the character, for a character that was not understood */
  character?: string;
}
