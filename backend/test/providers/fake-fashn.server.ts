import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { fakeResultMp4 } from '../fakes/fake-ai-provider';
import { FakeOverride, FakeReply, FakeVendorServer, ReceivedRequest } from './fake-vendor-server';

// `Math` as a module constant: under Jest (a vm context) each lookup of a global in a hot loop
// costs about 30 times the arithmetic (docs/performance.md, "Tests and globals"); in Node it changes nothing.
const Math = globalThis.Math;

export type { FakeOverride, ReceivedRequest } from './fake-vendor-server';

export type FakePredictionOutcome = { end: 'completed' } | { end: 'failed'; name: string; message: string } | { end: 'canceled' };

export interface FakePredictionPlan {
  /** answers starting, in_queue, then processing, this many polls in all, before the outcome */
  pollsBeforeDone: number;
  outcome: FakePredictionOutcome;
}

interface FakePrediction {
  id: string;
  modelName: string;
  plan: FakePredictionPlan;
  polls: number;
  webhookUrl?: string;
  /** `inputs.moderation_level` as sent */
  moderationLevel?: string;
  /** `inputs.return_base64` as sent: the output comes back as a data URI and is never on the CDN */
  returnBase64: boolean;
  /** `inputs.output_format` (png by default) */
  outputFormat: 'png' | 'jpeg';
  /** the size of the picture the try-on returns */
  outputSize: { width: number; height: number };
  /** the base64 output, drawn once */
  base64Output?: Promise<string>;
}

/** The required image inputs of each model. */
const MODEL_INPUTS: Record<string, string[]> = {
  'tryon-v1.6': ['model_image', 'garment_image'],
  'tryon-max': ['model_image', 'product_image'],
  'image-to-video': ['image'],
};
/** The models with `moderation_level` (https://docs.fashn.ai/api-reference/tryon-v1-6); image-to-video has none. */
const MODERATED = new Set(['tryon-v1.6', 'tryon-max']);
const MODERATION_LEVELS = ['conservative', 'permissive', 'none'];
/**
 * "Resize images to fit within the maximum resolution supported by the endpoint: 1K endpoints (e.g.
 * Try-On v1.6) max 2000px on the longest edge" (https://docs.fashn.ai/guides/image-preprocessing-best-practices).
 * FASHN advises it; the fake holds us to it.
 */
const MAX_LONG_SIDE = 2000;
/** Image inputs are links or base64 with its prefix: JPEG, PNG or WebP (the Content-Type must match the image). */
const FORMATS = new Set(['jpeg', 'png', 'webp']);
/**
 * The try-on models' outputs (return_base64, output_format: TryOnRequest.Inputs of the official SDK,
 * fashn-AI/fashn-typescript-sdk src/resources/predictions.ts; https://docs.fashn.ai/api-overview/data-retention-privacy):
 * `return_base64: true` answers the output as `data:image/<output_format>;base64,...` in the status
 * payload (and the webhook's), and "outputs are never stored" (the CDN has none of them); otherwise the
 * output is a CDN link (kept 72 h). `output_format` is png (the default) or jpeg. Image to video has
 * neither input (its output is an MP4 link). Sizes: try-on v1.6 works at 864x1296
 * (https://docs.fashn.ai/api-reference/tryon-v1-6); Try-On Max at its `resolution` tier, 1k, 2k or 4k
 * (~1, 4 and 16 megapixels, https://help.fashn.ai/using-fashn/guides/parameter-deep-dives/resolution),
 * framed by `aspect_ratio`.
 */
const TRYON_OUTPUT_INPUTS = new Set(['tryon-v1.6', 'tryon-max']);
const TIER_PIXELS: Record<string, number> = { '1k': 1024 * 1024, '2k': 2048 * 2048, '4k': 4096 * 4096 };

/**
 * A local stand-in for the FASHN API, speaking its protocol: POST /v1/run?webhook_url=... (Bearer
 * key; { model_name, inputs } checked against the documented required inputs) answers { id, error:
 * null }; GET /v1/status/{id} walks starting -> in_queue -> processing -> the planned end
 * ({ id, status, output: [url], error: { name, message } | null }); unknown ids answer 404 NotFound.
 * `deliverWebhook(id)` does what FASHN does on completion: POSTs the final status payload to the
 * webhook_url given at /run time. Errors use the vendor's body: { error, message }.
 *
 * Inputs as documented: `moderation_level` of the try-on models must be conservative, permissive
 * or none (400 BadRequest otherwise), and with `requireModerationLevel` (on by default: our rule,
 * stricter than FASHN's default) it must be there. Input images are loaded at /v1/run (links
 * fetched, data URIs with their `data:image/<type>;base64,` prefix decoded); as at FASHN, a problem
 * with one fails the prediction at runtime: ImageLoadError (cannot be loaded, not JPEG, PNG or WebP),
 * InputValidationError (longer side over 2000 px).
 *
 * Outputs (TRYON_OUTPUT_INPUTS above): a try-on with `return_base64: true` is answered inline, a
 * picture of the model's output size in `output_format`, and is never on the CDN; others are CDN links.
 */
export class FakeFashnServer extends FakeVendorServer {
  readonly apiKey = 'fa-fake-fashn-key-abcdef0123456789';
  /** where a webhook URL given to the fake really is (a test app listens on another port than its APP_URL) */
  resolveUrl: (url: string) => string = (url) => url;
  nextPlan: FakePredictionPlan = { pollsBeforeDone: 3, outcome: { end: 'completed' } };
  readonly runOverrides: FakeOverride[] = [];
  readonly statusOverrides: FakeOverride[] = [];
  readonly predictions = new Map<string, FakePrediction>();
  /** refuse a try-on without `moderation_level` (FASHN would apply its default) */
  requireModerationLevel = true;

  override reset(): void {
    super.reset();
    this.nextPlan = { pollsBeforeDone: 3, outcome: { end: 'completed' } };
    this.runOverrides.length = 0;
    this.statusOverrides.length = 0;
    this.resolveUrl = (url) => url;
  }

  lastRun(): ReceivedRequest | undefined {
    return [...this.received].reverse().find((r) => r.method === 'POST' && r.path === '/v1/run');
  }

  /** The final payload of a prediction, as /v1/status and the webhook carry it. */
  finalPayload(id: string): Promise<Record<string, unknown>> {
    const p = this.predictions.get(id);
    if (!p) throw new Error(`no prediction ${id}`);
    return this.terminal(p);
  }

  /** POSTs the final payload to the prediction's webhook_url (or `body` instead); answers the receiver's HTTP status. */
  async deliverWebhook(id: string, options: { body?: string; url?: string } = {}): Promise<number> {
    const p = this.predictions.get(id);
    if (!p?.webhookUrl) throw new Error(`prediction ${id} has no webhook_url`);
    const res = await fetch(this.resolveUrl(options.url ?? p.webhookUrl), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: options.body ?? JSON.stringify(await this.terminal(p)),
    });
    await res.arrayBuffer();
    return res.status;
  }

  protected async route(req: ReceivedRequest, { send, useOverride }: FakeReply): Promise<void> {
    const { path, query, body } = req;
    const error = (status: number, name: string, message: string) => send(status, { error: name, message });

    // the CDN that output URLs point at: public, no key (FASHN's outputs are 576x864 PNGs for tryon-v1.6)
    const cdn = /^\/cdn\/([^/]+)\/output_0\.(png|mp4)$/.exec(path);
    if (req.method === 'GET' && cdn) {
      const p = this.predictions.get(decodeURIComponent(cdn[1]));
      // a base64 output is never on the CDN
      if (!p || p.plan.outcome.end !== 'completed' || p.returnBase64) return send(404, { error: 'NotFound', message: 'Not Found' });
      if (cdn[2] === 'mp4')
        return send(200, undefined, { 'Content-Type': 'video/mp4' }, (await fakeResultMp4()).toString('latin1'), 0, 'latin1');
      return send(200, undefined, { 'Content-Type': 'image/png' }, (await outputPng()).toString('latin1'), 0, 'latin1');
    }

    if (req.headers.authorization !== `Bearer ${this.apiKey}`) return error(401, 'UnauthorizedAccess', 'Unauthorized: Invalid token');

    if (req.method === 'POST' && path === '/v1/run') {
      const override = this.runOverrides.shift();
      if (override) return useOverride(override);
      const b = body as { model_name?: unknown; inputs?: Record<string, unknown> } | undefined;
      const required = typeof b?.model_name === 'string' ? MODEL_INPUTS[b.model_name] : undefined;
      if (!required) return error(400, 'BadRequest', 'Invalid or missing model_name');
      if (!b!.inputs || required.some((k) => typeof b!.inputs![k] !== 'string')) {
        return error(400, 'BadRequest', `inputs must include ${required.join(', ')}`);
      }
      const modelName = b!.model_name as string;
      const moderation = b!.inputs.moderation_level;
      if (MODERATED.has(modelName)) {
        if (moderation !== undefined && !MODERATION_LEVELS.includes(moderation as string)) {
          return error(400, 'BadRequest', `inputs.moderation_level must be one of ${MODERATION_LEVELS.join(', ')}`);
        }
        if (moderation === undefined && this.requireModerationLevel) {
          return error(400, 'BadRequest', 'inputs.moderation_level is missing (this fake requires it to be explicit)');
        }
      }
      const inputs = b!.inputs;
      if (TRYON_OUTPUT_INPUTS.has(modelName)) {
        if (inputs.return_base64 !== undefined && typeof inputs.return_base64 !== 'boolean') {
          return error(400, 'BadRequest', 'inputs.return_base64 must be a boolean');
        }
        if (inputs.output_format !== undefined && inputs.output_format !== 'png' && inputs.output_format !== 'jpeg') {
          return error(400, 'BadRequest', 'inputs.output_format must be png or jpeg');
        }
      }
      const webhookUrl = query.get('webhook_url') ?? undefined;
      const id = `${randomUUID()}-u1`;
      const imageProblem = await this.inputProblem(required.map((k) => [k, b!.inputs![k] as string]));
      const plan: FakePredictionPlan = imageProblem
        ? { pollsBeforeDone: this.nextPlan.pollsBeforeDone, outcome: imageProblem }
        : this.nextPlan;
      this.predictions.set(id, {
        id,
        modelName,
        plan,
        polls: 0,
        webhookUrl,
        moderationLevel: typeof moderation === 'string' ? moderation : undefined,
        returnBase64: inputs.return_base64 === true,
        outputFormat: inputs.output_format === 'jpeg' ? 'jpeg' : 'png',
        outputSize: outputSize(modelName, inputs),
      });
      return send(200, { id, error: null });
    }

    const statusMatch = /^\/v1\/status\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && statusMatch) {
      const override = this.statusOverrides.shift();
      if (override) return useOverride(override);
      const p = this.predictions.get(decodeURIComponent(statusMatch[1]));
      if (!p) return error(404, 'NotFound', 'Prediction not found or no longer tracked');
      p.polls += 1;
      if (p.polls <= p.plan.pollsBeforeDone) {
        const status = p.polls === 1 ? 'starting' : p.polls === 2 ? 'in_queue' : 'processing';
        return send(200, { id: p.id, status, output: null, error: null });
      }
      return send(200, await this.terminal(p));
    }
    return error(404, 'NotFound', 'Not Found');
  }

  /** Loads the input images; the runtime error FASHN would report for the first one it cannot use. */
  private async inputProblem(fields: Array<[string, string]>): Promise<FakePredictionOutcome | undefined> {
    if (!this.checkImages) return undefined;
    for (const [field, ref] of fields) {
      const label = field.replace(/_/g, ' ');
      if (!/^(https?:|data:)/i.test(ref)) {
        return {
          end: 'failed',
          name: 'ImageLoadError',
          message: `Error loading ${label}: base64 images must include the data:image/<format>;base64, prefix`,
        };
      }
      const loaded = await this.loadImage(field, ref);
      if (!loaded.ok) return { end: 'failed', name: 'ImageLoadError', message: `Error loading ${label}: ${loaded.failure}` };
      const { format, width, height } = loaded.image;
      if (!FORMATS.has(format))
        return { end: 'failed', name: 'ImageLoadError', message: `Error loading ${label}: unsupported format ${format}` };
      if (Math.max(width, height) > MAX_LONG_SIDE) {
        return {
          end: 'failed',
          name: 'InputValidationError',
          message: `The ${label} is ${width}x${height}: at most ${MAX_LONG_SIDE} px on the longest edge`,
        };
      }
    }
    return undefined;
  }

  private async terminal(p: FakePrediction): Promise<Record<string, unknown>> {
    const o = p.plan.outcome;
    if (o.end === 'completed') {
      if (p.returnBase64) {
        p.base64Output ??= drawOutput(p.outputSize, p.outputFormat).then(
          (b) => `data:image/${p.outputFormat};base64,${b.toString('base64')}`,
        );
        return { id: p.id, status: 'completed', output: [await p.base64Output], error: null };
      }
      const ext = p.modelName === 'image-to-video' ? 'mp4' : 'png';
      return { id: p.id, status: 'completed', output: [`${this.baseUrl}/cdn/${p.id}/output_0.${ext}`], error: null };
    }
    if (o.end === 'failed') return { id: p.id, status: 'failed', output: null, error: { name: o.name, message: o.message } };
    return { id: p.id, status: 'canceled', output: null, error: null };
  }
}

/** The size of a try-on's output: v1.6's working size, or Try-On Max's tier at its aspect ratio. */
function outputSize(modelName: string, inputs: Record<string, unknown>): { width: number; height: number } {
  if (modelName !== 'tryon-max') return { width: 864, height: 1296 };
  const pixels = TIER_PIXELS[String(inputs.resolution)] ?? TIER_PIXELS['1k'];
  const [a, b] = String(inputs.aspect_ratio ?? '3:4')
    .split(':')
    .map(Number);
  const height = Math.round(Math.sqrt((pixels * b) / a));
  return { width: Math.round((height * a) / b), height };
}

/**
 * A result picture as a camera would make it: light gradients and grain, so that it weighs what a
 * photo of that size weighs (a smooth fill would compress to almost nothing).
 */
async function drawOutput(size: { width: number; height: number }, format: 'png' | 'jpeg'): Promise<Buffer> {
  const { width, height } = size;
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0, i = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const grain = ((i * 2654435761) >>> 27) & 15;
      pixels[i++] = 150 + Math.round((x / width) * 60) + grain;
      pixels[i++] = 110 + Math.round((y / height) * 50) + grain;
      pixels[i++] = 90 + grain;
    }
  }
  const image = sharp(pixels, { raw: { width, height, channels: 3 } });
  return format === 'jpeg' ? image.jpeg({ quality: 90 }).toBuffer() : image.png().toBuffer();
}

let png: Promise<Buffer> | undefined;
/** A result picture as the vendor's CDN serves it. */
function outputPng(): Promise<Buffer> {
  png ??= sharp({ create: { width: 576, height: 864, channels: 3, background: '#d9b99b' } })
    .composite([
      {
        input: Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="576" height="864"><ellipse cx="288" cy="300" rx="120" ry="150" fill="#8d5a44"/><rect x="168" y="470" width="240" height="300" fill="#e0c020"/></svg>',
        ),
      },
    ])
    .png()
    .toBuffer();
  return png;
}
