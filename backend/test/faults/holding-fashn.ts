import { FakeFashnServer } from '../providers/fake-fashn.server';
import type { FakeReply, ReceivedRequest } from '../providers/fake-vendor-server';

/** The three moments of a generation at the vendor: starting it, asking its status, fetching its result. */
export type VendorPhase = 'submit' | 'poll' | 'finalise';

interface Hold {
  hit: boolean;
  hitAt?: number;
  release: () => void;
  released: Promise<void>;
}

const USER_IN_URL = /users\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\//i;

/**
 * The fake FASHN, able to hold one request of one person at one phase until released: the test
 * knows the worker is in the middle of exactly that call (the request has arrived, the answer has
 * not) and kills it there. It learns whose a prediction is from the person's photo URL in /v1/run
 * (so the stacks send links, PROVIDER_INPUTS=url, not inline images).
 * After release the request is handled as usual (a held /v1/run still creates its prediction, as a
 * vendor that received it would), and answered if the caller is still there.
 */
export class HoldingFashn extends FakeFashnServer {
  /** about outages, not formats: the input images are not loaded (the stacks send links: PROVIDER_INPUTS=url) */
  override checkImages = false;
  private readonly owners = new Map<string, string>();
  private readonly holds = new Map<string, Hold>();
  /** time of every request: [phase, user, ms] */
  readonly timeline: Array<{ phase: VendorPhase; user?: string; at: number; status?: number }> = [];

  /** Holds the first request of `userId` at `phase`. */
  hold(phase: VendorPhase, userId: string): void {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    this.holds.set(`${phase}:${userId}`, { hit: false, release, released });
  }

  isHeld(phase: VendorPhase, userId: string): boolean {
    return !!this.holds.get(`${phase}:${userId}`)?.hit;
  }

  releaseAll(): void {
    for (const h of this.holds.values()) h.release();
  }

  /** /v1/run requests of a person (each one a job started at the vendor) */
  runsOf(userId: string): number {
    return this.timeline.filter((t) => t.phase === 'submit' && t.user === userId).length;
  }

  protected override async route(req: ReceivedRequest, reply: FakeReply): Promise<void> {
    const { phase, user, carriesResult } = this.classify(req);
    if (phase) this.timeline.push({ phase, user, at: Date.now() });
    const holdPhase: VendorPhase | undefined = carriesResult ? 'finalise' : phase;
    const hold = holdPhase && user ? this.holds.get(`${holdPhase}:${user}`) : undefined;
    if (hold && !hold.hit) {
      hold.hit = true;
      hold.hitAt = Date.now();
      await hold.released;
    }
    if (phase !== 'submit' || !user) return super.route(req, reply);
    // the prediction this /v1/run creates is the id its answer carries (sent even when the caller has gone)
    await super.route(req, {
      ...reply,
      send: (status, payload, ...rest) => {
        const id = (payload as { id?: unknown } | undefined)?.id;
        if (typeof id === 'string') this.owners.set(id, user);
        return reply.send(status, payload, ...rest);
      },
    });
  }

  private classify(req: ReceivedRequest): { phase?: VendorPhase; user?: string; carriesResult?: boolean } {
    if (req.method === 'POST' && req.path === '/v1/run')
      return { phase: 'submit', user: USER_IN_URL.exec(JSON.stringify(req.body ?? ''))?.[1] };
    const status = /^\/v1\/status\/([^/]+)$/.exec(req.path);
    if (req.method === 'GET' && status) {
      const id = decodeURIComponent(status[1]);
      // a try-on's result comes inside its final status answer (return_base64): fetching the result is that check
      const p = this.predictions.get(id);
      const carriesResult = p !== undefined && p.returnBase64 && p.polls >= p.plan.pollsBeforeDone;
      return { phase: 'poll', user: this.owners.get(id), carriesResult };
    }
    const cdn = /^\/cdn\/([^/]+)\//.exec(req.path);
    if (req.method === 'GET' && cdn) return { phase: 'finalise', user: this.owners.get(decodeURIComponent(cdn[1])) };
    return {};
  }
}
