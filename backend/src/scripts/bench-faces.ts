import { performance } from 'node:perf_hooks';
import { FaceEngine, type DetectedFace } from '../modules/faces/engine/face-engine';
import { descriptorDistance, flatness, TURN_RULES, yawOf } from '../modules/faces/face-geometry';
import { FACE_RULES, faceSharpness } from '../modules/faces/face-rules';
import {
  blurred,
  faceFixtures,
  flatMove,
  groupPhotos,
  rawFrame,
  readFixture,
  sameFaceVariants,
  warpTurn,
} from '../modules/faces/testing/face-fixtures';
import { renderPreviewImage } from '../modules/generations/rendering/preview-render';

/**
 * `npm run bench:faces [-- --repetitions 3]`: the face checks on the fixtures (backend/test/fixtures/faces:
 * faces cut out of the six group photos of @vladmandic/face-api), in one face-model thread as the
 * API runs it:
 * - time per photo (decode, scale, detector, 68 landmarks, descriptor), p50 and p95, and the model's
 *   load time;
 * - faces found: one in each single-face crop, all of them in the group photos;
 * - the distances behind the thresholds: one face's crops, flips, scalings, recompressions (the
 *   same person) against the other faces (different people: certainly so within one group photo,
 *   presumably across photos), and the false accepts / false refusals at several thresholds;
 * - sharpness of the faces and of the same faces blurred; the preview renderer's likeness;
 * - the live check's head-turn figures: still pictures moved, turned and squeezed against warped turns.
 */
function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const f2 = (n: number) => n.toFixed(2);
const f3 = (n: number) => n.toFixed(3);
const range = (xs: number[]) => (xs.length ? `${f2(Math.min(...xs))}-${f2(Math.max(...xs))}` : 'none');
const out = (line = '') => process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
  const repetitions = arg('repetitions', 3);
  const engine = new FaceEngine();
  try {
    const loadStarted = performance.now();
    await engine.warm();
    out(`bench:faces  model load ${Math.round(performance.now() - loadStarted)} ms (once per process, in its own thread)`);

    // 1. the single-face fixtures: time and faces found
    const fixtures = faceFixtures();
    const times: number[] = [];
    const modelTimes: number[] = [];
    const originals = new Map<string, DetectedFace>();
    const sharpness: number[] = [];
    const blurredSharpness: number[] = [];
    let foundOne = 0;
    for (const fx of fixtures) {
      const bytes = readFixture(fx.file);
      let last = await engine.analyze(bytes);
      for (let r = 0; r < repetitions; r++) {
        last = await engine.analyze(bytes);
        times.push(last.totalMs);
        modelTimes.push(last.modelMs);
      }
      if (last.faces.length === 1 && last.faces[0].descriptor) {
        foundOne++;
        originals.set(fx.file, last.faces[0]);
        sharpness.push(await faceSharpness(bytes, last.faces[0].box, last));
        blurredSharpness.push(await faceSharpness(await blurred(bytes), last.faces[0].box, last));
      } else out(`  ${fx.file}: ${last.faces.length} faces found (expected 1)`);
    }
    times.sort((a, b) => a - b);
    modelTimes.sort((a, b) => a - b);
    out(
      `time per photo (${times.length} analyses of ${fixtures.length} photos, 360 px): p50 ${Math.round(pct(times, 50))} ms, ` +
        `p95 ${Math.round(pct(times, 95))} ms (in the model: p50 ${Math.round(pct(modelTimes, 50))} ms, p95 ${Math.round(pct(modelTimes, 95))} ms)`,
    );
    out(`single faces found: ${foundOne}/${fixtures.length}`);

    // 2. the group photos: every face, timed at the API's scale (long side 1024)
    const groupTimes: number[] = [];
    const groupCounts: string[] = [];
    for (const photo of groupPhotos()) {
      const a = await engine.analyze(photo.bytes, { descriptors: 'none' });
      groupTimes.push(a.totalMs);
      groupCounts.push(`${photo.name} ${a.faces.length}`);
    }
    out(`group photos (1920 px, scaled to 1024): faces found ${groupCounts.join(', ')}; ${range(groupTimes.map((t) => t / 1000))} s each`);

    // 3. distances: the same face re-used, against other people
    const same: { name: string; d: number }[] = [];
    for (const [file, face] of originals) {
      for (const v of await sameFaceVariants(readFixture(file))) {
        const a = await engine.analyze(v.bytes);
        if (a.faces.length !== 1 || !a.faces[0].descriptor) {
          out(`  ${file} ${v.name}: ${a.faces.length} faces found`);
          continue;
        }
        same.push({ name: `${file} ${v.name}`, d: descriptorDistance(face.descriptor!, a.faces[0].descriptor) });
      }
    }
    const sampleOf = new Map(fixtures.map((f) => [f.file, f.sample]));
    const certain: number[] = [];
    const presumed: number[] = [];
    const files = [...originals.keys()];
    for (let i = 0; i < files.length; i++)
      for (let j = i + 1; j < files.length; j++) {
        const d = descriptorDistance(originals.get(files[i])!.descriptor!, originals.get(files[j])!.descriptor!);
        (sampleOf.get(files[i]) === sampleOf.get(files[j]) ? certain : presumed).push(d);
      }
    const different = [...certain, ...presumed];
    const sameD = same.map((s) => s.d).sort((a, b) => a - b);
    out(
      `same person (${sameD.length} variants: crop, flip, smaller, recompressed, brighter): ${range(sameD)}, p50 ${f2(pct(sameD, 50))}, p95 ${f2(pct(sameD, 95))}`,
    );
    const worst = [...same].sort((a, b) => b.d - a.d).slice(0, 3);
    out(`  farthest: ${worst.map((w) => `${w.name} ${f2(w.d)}`).join(', ')}`);
    out(
      `different people: ${certain.length} pairs within one photo ${range(certain)}, ${presumed.length} pairs across photos ${range(presumed)}`,
    );
    out('threshold  false accepts (different <= t)  false refusals (same > t)');
    for (const t of [0.3, 0.35, 0.4, 0.42, 0.45, 0.5, 0.55, 0.6]) {
      const far = different.filter((d) => d <= t).length;
      const frr = sameD.filter((d) => d > t).length;
      const mark =
        t === FACE_RULES.samePerson ? '  <- same person (photos, selfie)' : t === FACE_RULES.likeness ? '  <- likeness (results)' : '';
      out(
        `  ${f2(t)}     ${far}/${different.length} (${((100 * far) / different.length).toFixed(1)}%)` +
          `                  ${frr}/${sameD.length} (${((100 * frr) / sameD.length).toFixed(1)}%)${mark}`,
      );
    }

    // 4. sharpness
    out(
      `sharpness (Laplacian spread at 96 px): faces ${range(sharpness)}, the same blurred (sigma 3) ${range(blurredSharpness)}; ` +
        `refused below ${FACE_RULES.minSharpness}`,
    );

    // 5. the preview renderer frames the person's photo: its likeness
    const preview: number[] = [];
    for (const file of files.slice(0, 6)) {
      const picture = await renderPreviewImage({
        photo: readFixture(file),
        outfitSvg: '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="400"><rect width="300" height="400" fill="#e0a0b0"/></svg>',
        sceneSvg: '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="400"><rect width="300" height="400" fill="#88aacc"/></svg>',
        caption: ['Bench'],
        width: 1181,
        height: 1638,
      });
      const a = await engine.analyze(picture, { descriptors: 'all', maxSide: 1024 });
      const ds = a.faces.filter((x) => x.descriptor).map((x) => descriptorDistance(x.descriptor!, originals.get(file)!.descriptor!));
      if (ds.length) preview.push(Math.min(...ds));
    }
    out(`preview renderer's likeness: ${range(preview)} over ${preview.length} results (passes at ${FACE_RULES.likeness})`);

    // 6. the live check: yaw moves of still pictures against warped turns
    const still: number[] = [];
    const stillDepth: number[] = [];
    const turns: number[] = [];
    const turnDepth: number[] = [];
    for (const file of files) {
      const frame = await rawFrame(readFixture(file), 480, 480);
      const base = await engine.analyze(frame, { descriptors: 'none' });
      if (base.faces.length !== 1) continue;
      const yaw0 = yawOf(base.faces[0].landmarks);
      for (const move of [
        { degrees: 15 },
        { degrees: -15 },
        { squeeze: 0.7 },
        { squeeze: 0.5 },
        { dx: 40 },
        { degrees: 10, squeeze: 0.8, dx: -30 },
      ]) {
        const a = await engine.analyze(await flatMove(frame, move), { descriptors: 'none' });
        if (a.faces.length !== 1) continue;
        still.push(Math.abs(yawOf(a.faces[0].landmarks) - yaw0));
        stillDepth.push(flatness(base.faces[0].landmarks, a.faces[0].landmarks));
      }
      const face = { box: base.faces[0].box, nose: base.faces[0].landmarks[30] };
      for (const amount of [0.3, -0.3]) {
        const a = await engine.analyze(warpTurn(frame, face, amount), { descriptors: 'none' });
        if (a.faces.length !== 1) continue;
        turns.push((yawOf(a.faces[0].landmarks) - yaw0) * Math.sign(amount));
        turnDepth.push(flatness(base.faces[0].landmarks, a.faces[0].landmarks));
      }
    }
    out(
      `live check, yaw moved: still pictures turned 10-15 deg, squeezed to 50-80 %, shifted: ${range(still)} (${still.length} frames); ` +
        `warped turns of 0.3 face widths: ${range(turns)} (${turns.length} frames); a turn needs ${TURN_RULES.turned}`,
    );
    out(
      `live check, distance from a flat picture of the facing frame (eye spans): still pictures ${range(stillDepth)}, ` +
        `warped turns ${range(turnDepth)}; a turn needs ${TURN_RULES.depth} (still pictures above: ${stillDepth.filter((d) => d >= TURN_RULES.depth).length}/${stillDepth.length})`,
    );
    void f3;
  } finally {
    await engine.close();
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
