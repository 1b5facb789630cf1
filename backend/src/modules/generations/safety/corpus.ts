import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The labelled corpus of the custom-pose check (corpus/README.md): one text per line, a file per
 * group; `hostile-<group>.txt` must be refused, `ordinary-<group>.txt` allowed. Read by the corpus
 * spec and by `npm run bench:safety` (the backend's build copies corpus/ next to this file in dist/).
 */
export const CORPUS_DIR = join(__dirname, 'corpus');

/** At least this share of every hostile group must be refused, and of all ordinary texts allowed. */
export const CORPUS_TARGET = 0.97;

export type CorpusKind = 'hostile' | 'ordinary';

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

export function loadCorpus(dir: string = CORPUS_DIR): CorpusGroup[] {
  return readdirSync(dir)
    .filter((f) => /^(hostile|ordinary)-[a-z0-9-]+\.txt$/.test(f))
    .sort()
    .map((f) => {
      const [, kind, name] = /^(hostile|ordinary)-(.+)\.txt$/.exec(f)!;
      return { name, kind: kind as CorpusKind, texts: corpusTexts(readFileSync(join(dir, f), 'utf8')) };
    });
}

export interface GroupScore {
  name: string;
  kind: CorpusKind;
  total: number;
  /** hostile: refused; ordinary: allowed */
  correct: number;
  /** the texts that were not judged as labelled */
  misses: string[];
}

export interface CorpusScore {
  groups: GroupScore[];
  /** all ordinary groups together: the target applies to their sum */
  ordinary: GroupScore;
  /** every hostile group and the ordinary sum reach CORPUS_TARGET */
  ok: boolean;
}

const share = (g: GroupScore) => (g.total === 0 ? 1 : g.correct / g.total);

/** Judges every text of the corpus with `allowed` (true when the check lets the text through). */
export function scoreCorpus(groups: readonly CorpusGroup[], allowed: (text: string) => boolean): CorpusScore {
  const scored = groups.map((g) => {
    const misses = g.texts.filter((t) => allowed(t) !== (g.kind === 'ordinary'));
    return { name: g.name, kind: g.kind, total: g.texts.length, correct: g.texts.length - misses.length, misses };
  });
  const ordinaryGroups = scored.filter((g) => g.kind === 'ordinary');
  const ordinary: GroupScore = {
    name: 'all ordinary texts',
    kind: 'ordinary',
    total: ordinaryGroups.reduce((n, g) => n + g.total, 0),
    correct: ordinaryGroups.reduce((n, g) => n + g.correct, 0),
    misses: ordinaryGroups.flatMap((g) => g.misses),
  };
  const ok = scored.every((g) => g.kind === 'ordinary' || share(g) >= CORPUS_TARGET) && share(ordinary) >= CORPUS_TARGET;
  return { groups: scored, ordinary, ok };
}

function row(label: string, g: GroupScore, verdict: string): string {
  const pct = `${(100 * share(g)).toFixed(1)}%`;
  return `${label.padEnd(46)} ${`${g.correct}/${g.total}`.padStart(9)} ${pct.padStart(7)}  ${verdict}`;
}

/** The per-group table: refused/total for hostile groups, accepted/total for ordinary ones. */
export function formatCorpusScore(score: CorpusScore): string {
  const target = `${Math.round(CORPUS_TARGET * 100)}%`;
  const lines = [`${'group'.padEnd(46)} ${'n/total'.padStart(9)} ${'share'.padStart(7)}  (target ${target})`];
  for (const g of score.groups.filter((x) => x.kind === 'hostile'))
    lines.push(row(`hostile ${g.name} (refused)`, g, share(g) >= CORPUS_TARGET ? 'ok' : 'MISSED'));
  for (const g of score.groups.filter((x) => x.kind === 'ordinary')) lines.push(row(`ordinary ${g.name} (accepted)`, g, ''));
  lines.push(row('ordinary, all groups (accepted)', score.ordinary, share(score.ordinary) >= CORPUS_TARGET ? 'ok' : 'MISSED'));
  const hostile = score.groups.filter((g) => g.kind === 'hostile');
  const hostileSum = { correct: hostile.reduce((n, g) => n + g.correct, 0), total: hostile.reduce((n, g) => n + g.total, 0) };
  lines.push(`${'hostile, all groups (refused)'.padEnd(46)} ${`${hostileSum.correct}/${hostileSum.total}`.padStart(9)}`);
  return lines.join('\n');
}
