import { assessCustomPose, customPoseError, SafetyReason } from '../generations/safety';

/**
 * Words no catalogue text may contain (docs/product.md: no nudity, nothing school-themed or
 * suggesting a minor). The catalogue's tests hold every name, description, prompt text and hint
 * to it; it is a guard on our own copy, not a filter for what users type.
 */
export const FORBIDDEN_WORDS =
  /topless|nud(e|ity)|naked|\bbare\b|breast|nipple|sheer|see-through|transparent|school|student|teen|girl|child|\bkids?\b|\bminors?\b|underage|\byoung\b|\blittle\b|\bbaby\b|\bdoll\b|lolita|petite|daughter|adolescent|junior/i;

/**
 * What is wrong with a catalogue prompt text (null when nothing): the same check as a custom pose,
 * since the text goes into the AI prompt (docs/safety.md). The catalogue's own texts all pass it
 * (catalogue-texts.spec.ts); an admin's edit that it does not understand is told which words, with
 * close words it knows, like a shopper.
 */
export function catalogPromptProblem(text: string): { empty: boolean; message: string } | null {
  const assessment = assessCustomPose(text);
  const error = customPoseError(text, assessment);
  return error ? { empty: assessment.reasons[0] === SafetyReason.Empty, message: error.message } : null;
}
