import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { artworkEntries } from '../modules/catalog/artwork/artwork-registry';
import { renderPreviewImage } from '../modules/generations/rendering/preview-render';
import { processResult } from '../modules/generations/rendering/result-processing';
import { compareSignature, readSignature, reportProbe, type ResultSignature } from '../modules/generations/rendering/result-signature';
import { decideMatch, MATCH_RULE, type ScoredResult } from '../modules/support/reported-image.matcher';
import { COPY_TRANSFORMS, personPhoto, seeded, type CopyTransform } from './takedown-corpus';

/**
 * `npm run bench:takedown [-- --results 1200 --copies 40 --width 1024 --cache <dir>]`
 *
 * How "Report an image" decides, measured where it is hardest: `results` preview results of ONE
 * template and scene (bikini-yellow, beach-standing), each from a different synthetic photo, made by
 * the real preview renderer and stored through the real result processing (half of them with the
 * free tier's watermark grid). Half the photos are independent; the other half come in look-alike
 * families of four (same place, same framing, a different person and outfit). Then, for each way a
 * picture is re-shared (crop 10% and 20%, turned 3 and 5 degrees, letterboxed, a phone screenshot,
 * recompressed at JPEG quality 50-95), `copies` copies of results are matched against all of them,
 * as the matcher does (reported-image.matcher.ts: every signature compared, then decideMatch):
 *
 * - right, automatic: the copy named its own result without asking;
 * - right, among the candidates: it did not, but its result is listed for the admin;
 * - wrong, automatic: it named another result (must be 0);
 * - wrong, automatic, own result gone: the same copy once its own result is deleted (must be 0);
 * - wrong, one look-alike left: a family's copy once its own result and all of its family but the
 *   photo most like it are gone, the look-alike then alone of its kind (must be 0).
 *
 * Then the time of one report (the copy's probe, comparing it with every result, the decision).
 * The results are rendered at `width` pixels wide (1024: a quarter of the stored 2953x4096 in
 * pixels, the same layout; the signature is taken at 320 pixels either way) to keep the run to
 * minutes. `--cache <dir>` keeps the rendered results between runs. Exits 1 on a wrong automatic
 * match.
 */
function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i > 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} must be a positive number`);
  return v;
}

function textArg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

const pct = (part: number, whole: number) => `${part}/${whole} (${((100 * part) / Math.max(1, whole)).toFixed(1)}%)`;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const ms = (v: number) => `${v.toFixed(0)} ms`;

interface Outcome {
  rightAuto: number;
  rightCandidate: number;
  asked: number;
  wrongAuto: number;
  wrongAutoGone: number;
  askedGone: number;
  /** a look-alike family's copy, its own result and all its family gone but the most alike: wrong automatic matches, and cases */
  wrongAutoAlone: number;
  alone: number;
  /** per copy: the smallest gap between its own result's disagreement and any other result's (share of the grid) */
  gaps: number[];
  /** per copy: the smallest disagreement of a result that is not its own (share of the grid) */
  closest: number[];
  /** per copy: its own result's disagreement */
  own: number[];
}

async function main(): Promise<void> {
  const results = Math.floor(arg('results', 1200));
  const copies = Math.floor(arg('copies', 40));
  const width = Math.floor(arg('width', 1024));
  const height = Math.round((width * 4096) / 2953);
  const cache = textArg('cache');
  if (cache) fs.mkdirSync(cache, { recursive: true });
  const artwork = new Map(artworkEntries().map((e) => [e.id, e]));
  const outfitSvg = artwork.get('bikini-yellow')!.render();
  const sceneSvg = artwork.get('beach-standing')!.render();
  const half = Math.floor(results / 2);

  // which results are copied: spread over the independent photos and over the families
  const queried = new Set<number>();
  for (let q = 0; q < copies; q++) {
    const independent = q % 2 === 0;
    const span = independent ? half : results - half;
    queried.add((independent ? 0 : half) + Math.floor(((q >> 1) * 7919) % span));
  }

  process.stdout.write(
    `bench:takedown  ${results} results of one template and scene, ${width}x${height}; ${copies} copies per way of re-sharing\n`,
  );
  const signatures: ResultSignature[] = [];
  const bodies = new Map<number, Buffer>();
  let signatureBytes = 0;
  const makeStart = performance.now();
  for (let i = 0; i < results; i++) {
    const file = cache && path.join(cache, `result-${width}-${i}.jpg`);
    let body: Buffer;
    let signature: Buffer;
    if (file && fs.existsSync(file) && fs.existsSync(`${file}.sig`)) {
      body = fs.readFileSync(file);
      signature = fs.readFileSync(`${file}.sig`);
    } else {
      const photo = i < half ? await personPhoto(i) : await personPhoto(i, Math.floor((i - half) / 4));
      const picture = await renderPreviewImage({
        photo,
        outfitSvg,
        sceneSvg,
        caption: ['Yellow Triangle Bikini', 'Beach (standing)'],
        width,
        height,
      });
      const stored = await processResult(picture, {
        type: 'image',
        watermark: i % 2 === 0,
        appName: 'Fitting Room',
        origin: 'preview',
        generationId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      });
      body = stored.body;
      signature = stored.signature;
      if (file) {
        fs.writeFileSync(file, body);
        fs.writeFileSync(`${file}.sig`, signature);
      }
    }
    signatureBytes += signature.length;
    signatures.push(readSignature(signature)!);
    if (queried.has(i)) bodies.set(i, body);
    if ((i + 1) % 100 === 0) process.stdout.write(`  ${i + 1} results made (${((performance.now() - makeStart) / 1000).toFixed(0)} s)\n`);
  }
  process.stdout.write(
    `made ${results} results in ${((performance.now() - makeStart) / 1000).toFixed(0)} s; signature ${(signatureBytes / results / 1024).toFixed(2)} kB a result on average\n\n`,
  );

  const ids = signatures.map((_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
  const indexOf = new Map(ids.map((id, i) => [id, i]));
  const outcomes = new Map<CopyTransform, Outcome>();
  const probeTimes: number[] = [];
  const compareTimes: number[] = [];
  const reportTimes: number[] = [];
  for (const name of Object.keys(COPY_TRANSFORMS) as CopyTransform[]) {
    const o: Outcome = {
      rightAuto: 0,
      rightCandidate: 0,
      asked: 0,
      wrongAuto: 0,
      wrongAutoGone: 0,
      askedGone: 0,
      wrongAutoAlone: 0,
      alone: 0,
      gaps: [],
      closest: [],
      own: [],
    };
    outcomes.set(name, o);
    for (const index of queried) {
      const copy = await COPY_TRANSFORMS[name](bodies.get(index)!, seeded(index * 31 + name.length));
      const start = performance.now();
      const probe = await reportProbe(copy);
      const probed = performance.now();
      const scored: ScoredResult[] = [];
      for (let i = 0; i < signatures.length; i++) {
        const match = compareSignature(probe, signatures[i]);
        if (match.agreement > 0) scored.push({ generationId: ids[i], ...match });
      }
      const compared = performance.now();
      const { best, candidates } = decideMatch(scored);
      reportTimes.push(performance.now() - start);
      probeTimes.push(probed - start);
      compareTimes.push(((compared - probed) * 1000) / signatures.length);

      const own = ids[index];
      if (best?.generationId === own) o.rightAuto++;
      else if (best) o.wrongAuto++;
      else {
        o.asked++;
        if (candidates.some((c) => c.generationId === own)) o.rightCandidate++;
      }
      const gone = decideMatch(scored.filter((s) => s.generationId !== own));
      if (gone.best) o.wrongAutoGone++;
      else o.askedGone++;
      if (index >= half) {
        // the hardest: of the copy's look-alike family, only the photo most like its own is left
        const family = (i: number) => (i >= half ? Math.floor((i - half) / 4) : -1);
        const siblings = scored
          .filter((s) => s.generationId !== own && family(indexOf.get(s.generationId)!) === family(index))
          .sort((a, b) => b.agreement - a.agreement);
        if (siblings.length) {
          o.alone++;
          const left = scored.filter((s) => family(indexOf.get(s.generationId)!) !== family(index) || s === siblings[0]);
          if (decideMatch(left).best) o.wrongAutoAlone++;
        }
      }
      const mine = scored.find((s) => s.generationId === own);
      const rivals = scored
        .filter((s) => s.generationId !== own && (s.inliers >= MATCH_RULE.minInliers || s.aligned === 'frame'))
        .map((s) => 1 - s.agreement);
      if (mine) o.own.push(1 - mine.agreement);
      if (rivals.length) o.closest.push(Math.min(...rivals));
      if (mine && rivals.length) o.gaps.push(Math.min(...rivals) - (1 - mine.agreement));
    }
  }

  const rows = [...outcomes].map(([name, o]) => {
    const n = queried.size;
    const gaps = o.gaps.sort((a, b) => a - b);
    const share = (v: number) => (v * 100).toFixed(1);
    return [
      name,
      pct(o.rightAuto, n),
      pct(o.rightAuto + o.rightCandidate, n),
      String(o.wrongAuto),
      String(o.wrongAutoGone),
      `${o.wrongAutoAlone} of ${o.alone}`,
      o.own.length ? share(Math.max(...o.own)) : '-',
      o.closest.length ? share(Math.min(...o.closest)) : '-',
      gaps.length ? `${share(gaps[0])} / ${share(percentile(gaps, 50))}` : '-',
    ];
  });
  const head = [
    'copy',
    'right, automatic',
    'right, automatic or listed',
    'wrong, automatic',
    'wrong, own result gone',
    'wrong, one look-alike left',
    'own result: most % disagreeing',
    'any other: least % disagreeing',
    'gap min / median (%)',
  ];
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const line = (cells: string[]) => cells.map((cell, c) => cell.padEnd(widths[c])).join('  ');
  process.stdout.write(`${line(head)}\n${rows.map(line).join('\n')}\n`);
  process.stdout.write(
    `rule: named without asking at most ${MATCH_RULE.autoMaxDisagreement * 100}% of its grid disagreeing, every other result at least ` +
      `${MATCH_RULE.margin * 100}% more; a candidate at least ${MATCH_RULE.minAgreement * 100}% agreeing\n\n`,
  );

  const totalCopies = queried.size * outcomes.size;
  const wrong = [...outcomes.values()].reduce((s, o) => s + o.wrongAuto + o.wrongAutoGone + o.wrongAutoAlone, 0);
  const decisions = [...outcomes.values()].reduce((s, o) => s + 2 * queried.size + o.alone, 0);
  const comparisons = totalCopies * results;
  probeTimes.sort((a, b) => a - b);
  compareTimes.sort((a, b) => a - b);
  reportTimes.sort((a, b) => a - b);
  process.stdout.write(
    `wrong automatic matches: ${wrong} in ${decisions} decisions over ${results} results (${comparisons.toLocaleString('en')} comparisons)\n` +
      `time of one report (${results} results): p50 ${ms(percentile(reportTimes, 50))}, p95 ${ms(percentile(reportTimes, 95))}; ` +
      `the copy's probe p50 ${ms(percentile(probeTimes, 50))}; comparing with 1,000 results p50 ${ms(percentile(compareTimes, 50))}, p95 ${ms(percentile(compareTimes, 95))}\n`,
  );
  if (wrong > 0) {
    process.stdout.write('TARGET MISSED: a copy named a result that is not its own\n');
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
