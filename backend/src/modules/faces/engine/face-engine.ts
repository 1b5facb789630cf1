import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import { ServiceUnavailableError } from '../../../common/errors';

/** A point of the image, in pixels of the picture as given (after its EXIF orientation). */
export type Point = [number, number];

export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One face the model found: where, how sure, its 68 landmarks and (when asked) its descriptor. */
export interface DetectedFace {
  box: FaceBox;
  score: number;
  /** the 68-point layout (iBUG 300-W): jaw 0-16, brows 17-26, nose 27-35, eyes 36-47, mouth 48-67 */
  landmarks: Point[];
  /** 128 numbers; two faces of one person are close (euclidean distance), of two people far */
  descriptor?: number[];
}

export interface FaceAnalysis {
  /** the picture's size as given (after orientation); boxes and landmarks are in these pixels */
  width: number;
  height: number;
  faces: DetectedFace[];
  /** time in the model's thread, and in all (decode, scale, wait, model) */
  modelMs: number;
  totalMs: number;
}

export interface AnalyzeOptions {
  /** 'single': a descriptor only when exactly one face is found (a photo's check); 'all'; 'none' */
  descriptors?: 'single' | 'all' | 'none';
  /** the longest side the model is given (the detector works at 512 x 512 whatever it gets) */
  maxSide?: number;
  minConfidence?: number;
}

/** The defaults of a photo's analysis, measured by `npm run bench:faces` (docs/safety.md). */
export const ANALYZE_DEFAULTS = { maxSide: 1024, minConfidence: 0.5 } as const;

interface WorkerAnswer {
  id: number;
  faces?: DetectedFace[];
  error?: string;
  ms?: number;
}

/** Where face-api's weights and the three modules the thread loads are, resolved from this package. */
export function faceModelFiles(): { modelDir: string; modules: { tfjs: string; wasm: string; faceApi: string } } {
  const faceApiRoot = path.dirname(require.resolve('@vladmandic/face-api/package.json'));
  return {
    modelDir: path.join(faceApiRoot, 'model'),
    modules: {
      tfjs: require.resolve('@tensorflow/tfjs'),
      wasm: require.resolve('@tensorflow/tfjs-backend-wasm'),
      faceApi: path.join(faceApiRoot, 'dist', 'face-api.node-wasm.js'),
    },
  };
}

/** The thread's script: beside this file (src in the tests, dist once built). */
function workerScript(): string {
  const here = path.join(__dirname, 'face-worker.cjs');
  if (fs.existsSync(here)) return here;
  throw new Error(`The face model's thread script is missing: ${here}`);
}

/**
 * The face model of this process: one thread (node:worker_threads), started at the first use,
 * where TensorFlow.js (WebAssembly) and face-api's weights load once. Pictures are decoded and
 * scaled down by sharp (libuv's threads), so neither the decode nor the model runs on the event
 * loop. One picture at a time; at most `maxWaiting` wait their turn, beyond that 503 + Retry-After.
 * Nothing leaves the process: no network is used, the weights ship in the npm package.
 */
export class FaceEngine {
  private worker?: Worker;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (a: WorkerAnswer) => void; reject: (e: Error) => void }>();
  private queue: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  constructor(private readonly maxWaiting = 16) {}

  /** Whether the thread is running (tests check that closing stops it). */
  get started(): boolean {
    return this.worker !== undefined;
  }

  /** Loads the models now (at boot, in the background), so the first photo does not wait for them. */
  async warm(): Promise<void> {
    await this.call({ op: 'warm' });
  }

  /** The faces of a picture (JPEG, PNG or WebP bytes, or raw RGB with its size). */
  async analyze(image: Buffer | { rgb: Buffer; width: number; height: number }, options: AnalyzeOptions = {}): Promise<FaceAnalysis> {
    const started = performance.now();
    const maxSide = options.maxSide ?? ANALYZE_DEFAULTS.maxSide;
    const decoded = Buffer.isBuffer(image) ? await decodeScaled(image, maxSide) : { ...image, scale: 1 };
    const answer = await this.call({
      op: 'analyze',
      rgb: new Uint8Array(decoded.rgb.buffer, decoded.rgb.byteOffset, decoded.rgb.byteLength),
      width: decoded.width,
      height: decoded.height,
      minConfidence: options.minConfidence ?? ANALYZE_DEFAULTS.minConfidence,
      descriptors: options.descriptors ?? 'single',
    });
    const k = 1 / decoded.scale;
    const faces = (answer.faces ?? []).map((face) => ({
      ...face,
      box: { x: face.box.x * k, y: face.box.y * k, width: face.box.width * k, height: face.box.height * k },
      landmarks: face.landmarks.map(([x, y]) => [x * k, y * k] as Point),
    }));
    return {
      width: Math.round(decoded.width * k),
      height: Math.round(decoded.height * k),
      faces,
      modelMs: answer.ms ?? 0,
      totalMs: performance.now() - started,
    };
  }

  /** Stops the thread (the app's shutdown); a later call starts it again. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
    for (const [, p] of this.pending) p.reject(new Error('the face model was stopped'));
    this.pending.clear();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const files = faceModelFiles();
    const worker = new Worker(workerScript(), { workerData: files, stdout: true, stderr: true });
    // the models' own printing (TensorFlow.js announces its backend) is not our log
    worker.stdout.resume();
    worker.stderr.resume();
    worker.on('message', (answer: WorkerAnswer) => {
      const p = this.pending.get(answer.id);
      if (!p) return;
      this.pending.delete(answer.id);
      p.resolve(answer);
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const [, p] of this.pending) p.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the face model's thread stopped (exit code ${code})`)));
    worker.unref(); // it never keeps the process alive on its own
    this.worker = worker;
    return worker;
  }

  /** One message at a time through the thread (the models are not re-entrant), in order of arrival. */
  private async call(message: Record<string, unknown>): Promise<WorkerAnswer> {
    if (this.waiting >= this.maxWaiting)
      throw new ServiceUnavailableError('We are checking many photos right now. Please try again in a moment.', 2);
    this.waiting++;
    const turn = this.queue.then(() => this.send(message));
    this.queue = turn.catch(() => undefined);
    try {
      const answer = await turn;
      if (answer.error) throw new Error(`face model: ${answer.error}`);
      return answer;
    } finally {
      this.waiting--;
    }
  }

  private send(message: Record<string, unknown>): Promise<WorkerAnswer> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<WorkerAnswer>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // the pixels travel as a copy (about 1 MB at 640 px)
      worker.postMessage({ ...message, id });
    });
  }
}

/** The picture as raw RGB, its EXIF orientation applied, the long side at most `maxSide`. */
export async function decodeScaled(bytes: Buffer, maxSide: number): Promise<{ rgb: Buffer; width: number; height: number; scale: number }> {
  const image = sharp(bytes, { failOn: 'error', limitInputPixels: 40_000_000 }).rotate();
  const meta = await sharp(bytes).metadata();
  const swap = (meta.orientation ?? 1) >= 5;
  const fullWidth = (swap ? meta.height : meta.width) ?? 1;
  const fullHeight = (swap ? meta.width : meta.height) ?? 1;
  const scale = Math.min(1, maxSide / Math.max(fullWidth, fullHeight));
  const { data, info } = await image
    .resize({ width: Math.max(1, Math.round(fullWidth * scale)), height: Math.max(1, Math.round(fullHeight * scale)), fit: 'fill' })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { rgb: data, width: info.width, height: info.height, scale: info.width / fullWidth };
}
