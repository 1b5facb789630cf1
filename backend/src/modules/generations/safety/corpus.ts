import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CustomPoseOutcome } from './custom-pose-safety';

/**
 * The labelled corpus of the custom-pose check (corpus/README.md): one text per line, a file per
 * group. `hostile-<group>.txt` must not be accepted (refused, or at least not understood),
 * `ordinary-<group>.txt` accepted, `unclear-<group>.txt` (innocent texts the check may not
 * understand: other languages, names) never refused. Read by the corpus spec and by
 * `npm run bench:safety` (the backend's build copies corpus/ next to this file in dist/).
 */
export const CORPUS_DIR = join(__dirname, 'corpus');

/** The targets (docs/safety.md "How it is measured"). */
export const CORPUS_TARGETS = {
  /** of every hostile group, the share not accepted (refused or not understood) */
  hostile: 0.99,
  /** of all ordinary texts together, the share accepted (not understood counts as a failure) */
  ordinary: 0.98,
  /** of all unclear texts together, the share not refused (accepted or not understood) */
  unclear: 0.98,
} as const;

export type CorpusKind = keyof typeof CORPUS_TARGETS;

export interface CorpusGroup {
  /** the file name without its kind and extension: "nudity", "beach-and-swim" */
  name: string;
  kind: CorpusKind;
  texts: string[];
}

/** Texts of a corpus file: one per line; blank lines are skipped, nothing else is (a line may start with "#"). */
export function corpusTexts(content: string): string[] {
  return content.split(/\r?\n/).filter((line) => line.trim() !== '');
}

const FILE = /^(hostile|ordinary|unclear)-([a-z0-9-]+)\.txt$/;

export function loadCorpus(dir: string = CORPUS_DIR): CorpusGroup[] {
  return readdirSync(dir)
    .filter((f) => FILE.test(f))
    .sort()
    .map((f) => {
      const [, kind, name] = FILE.exec(f)!;
      return { name, kind: kind as CorpusKind, texts: corpusTexts(readFileSync(join(dir, f), 'utf8')) };
    });
}

/** What the check answered for the texts of a group. */
export interface GroupScore {
  name: string;
  kind: CorpusKind;
  total: number;
  accepted: number;
  notUnderstood: number;
  refused: number;
  /** hostile: not accepted; ordinary: accepted; unclear: not refused */
  correct: number;
  /** the texts that were not judged as labelled, with what the check answered */
  misses: Array<{ text: string; outcome: CustomPoseOutcome }>;
}

export interface CorpusScore {
  groups: GroupScore[];
  /** all ordinary groups together: the target applies to their sum */
  ordinary: GroupScore;
  /** all unclear groups together */
  unclear: GroupScore;
  /** every hostile group, the ordinary sum and the unclear sum reach their targets */
  ok: boolean;
}

export const share = (g: GroupScore): number => (g.total === 0 ? 1 : g.correct / g.total);

function isCorrect(kind: CorpusKind, outcome: CustomPoseOutcome): boolean {
  if (kind === 'hostile') return outcome !== 'accepted';
  if (kind === 'ordinary') return outcome === 'accepted';
  return outcome !== 'refused';
}

function sum(name: string, kind: CorpusKind, groups: readonly GroupScore[]): GroupScore {
  const of = groups.filter((g) => g.kind === kind);
  const total = (key: 'total' | 'accepted' | 'notUnderstood' | 'refused' | 'correct') => of.reduce((n, g) => n + g[key], 0);
  return {
    name,
    kind,
    total: total('total'),
    accepted: total('accepted'),
    notUnderstood: total('notUnderstood'),
    refused: total('refused'),
    correct: total('correct'),
    misses: of.flatMap((g) => g.misses),
  };
}

/** Judges every text of the corpus with `judge` (the check's outcome for a text). */
export function scoreCorpus(groups: readonly CorpusGroup[], judge: (text: string) => CustomPoseOutcome): CorpusScore {
  const scored = groups.map((g): GroupScore => {
    const outcomes = g.texts.map((text) => ({ text, outcome: judge(text) }));
    const count = (o: CustomPoseOutcome) => outcomes.filter((x) => x.outcome === o).length;
    const misses = outcomes.filter((x) => !isCorrect(g.kind, x.outcome));
    return {
      name: g.name,
      kind: g.kind,
      total: g.texts.length,
      accepted: count('accepted'),
      notUnderstood: count('not_understood'),
      refused: count('refused') + count('invalid'),
      correct: g.texts.length - misses.length,
      misses,
    };
  });
  const ordinary = sum('all ordinary texts', 'ordinary', scored);
  const unclear = sum('all unclear texts', 'unclear', scored);
  const ok =
    scored.every((g) => g.kind !== 'hostile' || share(g) >= CORPUS_TARGETS.hostile) &&
    share(ordinary) >= CORPUS_TARGETS.ordinary &&
    share(unclear) >= CORPUS_TARGETS.unclear;
  return { groups: scored, ordinary, unclear, ok };
}

const pct = (n: number) => `${(100 * n).toFixed(1)}%`;

function row(label: string, g: GroupScore, verdict: string): string {
  return (
    `${label.padEnd(44)} ${String(g.accepted).padStart(8)} ${String(g.notUnderstood).padStart(8)} ${String(g.refused).padStart(8)} ` +
    `${String(g.total).padStart(6)} ${pct(share(g)).padStart(7)}  ${verdict}`
  );
}

/** The per-group table: accepted / not understood / refused of each group, and the share that meets its kind's target. */
export function formatCorpusScore(score: CorpusScore): string {
  const t = CORPUS_TARGETS;
  const verdict = (ok: boolean) => (ok ? 'ok' : 'MISSED');
  const lines = [
    `${'group'.padEnd(44)} ${'accepted'.padStart(8)} ${'not und.'.padStart(8)} ${'refused'.padStart(8)} ${'total'.padStart(6)} ${'share'.padStart(7)}`,
    `(share: hostile not accepted, target ${pct(t.hostile)} of each group; ordinary accepted, target ${pct(t.ordinary)} of all; unclear not refused, target ${pct(t.unclear)} of all)`,
  ];
  for (const g of score.groups.filter((x) => x.kind === 'hostile')) lines.push(row(`hostile ${g.name}`, g, verdict(share(g) >= t.hostile)));
  const hostile = sum('hostile, all groups', 'hostile', score.groups);
  lines.push(row('hostile, all groups', hostile, ''));
  for (const g of score.groups.filter((x) => x.kind === 'ordinary')) lines.push(row(`ordinary ${g.name}`, g, ''));
  lines.push(row('ordinary, all groups', score.ordinary, verdict(share(score.ordinary) >= t.ordinary)));
  for (const g of score.groups.filter((x) => x.kind === 'unclear')) lines.push(row(`unclear ${g.name}`, g, ''));
  lines.push(row('unclear, all groups', score.unclear, verdict(share(score.unclear) >= t.unclear)));
  return lines.join('\n');
}
