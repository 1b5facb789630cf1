import { performance } from 'node:perf_hooks';
import { assessCustomPose } from '../modules/generations/safety';
import { formatCorpusScore, loadCorpus, scoreCorpus } from '../modules/generations/safety/corpus';

/**
 * `npm run bench:safety [-- --repetitions 20]`: the custom-pose check on its labelled corpus
 * (src/modules/generations/safety/corpus/, copied to dist by the build): accepted / not understood
 * / refused for each group (hostile groups must not be accepted, ordinary texts accepted, unclear
 * ones never refused: corpus.ts CORPUS_TARGETS) and the time per text (mean and p99 over every
 * text, repeated). Exits 1 when a corpus target is missed or the mean time is 1 ms or more.
 */
const MAX_MEAN_MS = 1;

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function main(): void {
  const repetitions = arg('repetitions', 20);
  const groups = loadCorpus();
  const texts = groups.flatMap((g) => g.texts);
  const score = scoreCorpus(groups, (t) => assessCustomPose(t).outcome);

  // warm up (the first call compiles the rules), then time every text `repetitions` times
  for (const t of texts) assessCustomPose(t);
  const times: number[] = [];
  for (let r = 0; r < repetitions; r++) {
    for (const t of texts) {
      const start = performance.now();
      assessCustomPose(t);
      times.push(performance.now() - start);
    }
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((s, t) => s + t, 0) / times.length;

  process.stdout.write(
    `bench:safety  ${texts.length} texts in ${groups.length} groups\n\n${formatCorpusScore(score)}\n\n` +
      `time per text over ${times.length} checks (${repetitions} repetitions): mean ${mean.toFixed(3)} ms, ` +
      `p50 ${percentile(times, 50).toFixed(3)} ms, p99 ${percentile(times, 99).toFixed(3)} ms, max ${times[times.length - 1].toFixed(3)} ms ` +
      `(target: mean under ${MAX_MEAN_MS} ms)\n`,
  );
  for (const g of score.groups.filter((x) => x.misses.length > 0))
    process.stdout.write(
      `  misjudged ${g.kind} ${g.name}: ${g.misses.map((m) => `${JSON.stringify(m.text)} (${m.outcome})`).join(', ')}\n`,
    );
  if (!score.ok || mean >= MAX_MEAN_MS) {
    process.stdout.write('TARGET MISSED\n');
    process.exitCode = 1;
  }
}

main();
