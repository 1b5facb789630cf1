import { assessCustomPose } from './custom-pose-safety';
import type { SafetyReason } from './custom-pose-terms.data';

/**
 * The line format of `npm run safety:check` (src/scripts/safety-check.ts): one JSON object per
 * text, `{"text": ..., "allowed": true|false, "reasons": [...]}`, the reasons being the refusal
 * classes, the most serious first (empty when allowed).
 */
export interface SafetyCheckLine {
  text: string;
  allowed: boolean;
  reasons: SafetyReason[];
}

export function checkLine(text: string): SafetyCheckLine {
  const { ok, reasons } = assessCustomPose(text);
  return { text, allowed: ok, reasons };
}

/** The texts of an input: one per line (a "\r" before the "\n" is dropped), blank lines skipped. */
export function inputLines(input: string): string[] {
  return input.split(/\r?\n/).filter((line) => line.trim() !== '');
}

/** One JSON line per text of the input, each ending in "\n". */
export function checkInput(input: string): string {
  return inputLines(input)
    .map((text) => `${JSON.stringify(checkLine(text))}\n`)
    .join('');
}

/** The input of the script: the path after `--file`, or "-" (standard input) when there is none. */
export function inputPath(argv: readonly string[]): string {
  const i = argv.indexOf('--file');
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : '-';
}
