import type { SafetyReason } from './custom-pose-terms.data';

/** Why a custom pose is refused: a reason class, and the rule that found it (for logs and moderators, never for the user). */
export interface Finding {
  reason: SafetyReason;
  /** which term, rule, character or word (by position) made the finding */
  rule: string;
}
