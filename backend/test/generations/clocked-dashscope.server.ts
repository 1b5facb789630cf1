import { randomUUID } from 'node:crypto';
import { FakeDashScopeServer, type ReceivedRequest } from '../providers/fake-dashscope.server';
import type { FakeReply } from '../providers/fake-vendor-server';

/** How a task spends its time, from its creation on the vendor's clock. */
export interface TaskTiming {
  /** PENDING (waiting in the vendor's queue) this long */
  queuedMs: number;
  /** then RUNNING until this long after its creation, then SUCCEEDED; Infinity: never finishes */
  doneMs: number;
}

/**
 * Model Studio's asynchronous task API (FakeDashScopeServer: the same endpoints, checks and bodies)
 * where a task takes time rather than a number of queries, on a clock that moves only when the test
 * moves it. A generation's minutes then pass in moments: the test moves this clock and the
 * generation's stored deadline by the same amount at once (see generation-budgets.int-spec.ts).
 *
 * What the vendor documents, and this fake keeps:
 * - A task is PENDING while queued, then RUNNING, then SUCCEEDED (or FAILED, CANCELED; UNKNOWN once
 *   expired): https://www.alibabacloud.com/help/en/model-studio/manage-asynchronous-tasks
 *   (task_status), https://www.alibabacloud.com/help/en/model-studio/image-to-video-api-reference
 *   ("Image-to-video tasks ... typically 1 to 5 minutes"; how long also "depends on the number of
 *   tasks in the queue").
 * - Only a PENDING task can be cancelled; otherwise 400 UnsupportedOperation, and the task goes on:
 *   "Cancel queued tasks" (manage-asynchronous-tasks), and the official SDK's `cancel` ("Cancel
 *   PENDING task", dashscope/dashscope-sdk-python dashscope/client/base_api.py). A cancelled task
 *   then answers CANCELED.
 */
export class ClockedDashScopeServer extends FakeDashScopeServer {
  /** the vendor's clock, in ms: it moves only by `advance` */
  private clockMs = 0;
  /** the timing of the next task created */
  nextTiming: TaskTiming = { queuedMs: 1000, doneMs: 60_000 };
  /** real ms the vendor takes to answer a task creation; the task exists all the same, answered or not */
  creationDelayMs = 0;
  /** the tasks created since the last reset, with their timing */
  readonly timings = new Map<string, TaskTiming & { createdAt: number }>();
  /** when each status query of a task came, in ms of the vendor's clock after the task's creation */
  readonly queryTimes = new Map<string, number[]>();
  /** the task ids the vendor agreed to cancel (PENDING ones) */
  readonly cancelled: string[] = [];
  /** the task ids it refused to cancel (already running) */
  readonly cancelRefused: string[] = [];

  constructor() {
    super();
    // a query the clock says is finished goes to the base fake, which answers SUCCEEDED with the result
    this.nextPlan = { pollsBeforeDone: 0, outcome: { end: 'SUCCEEDED' } };
  }

  now(): number {
    return this.clockMs;
  }

  /** Moves the vendor's clock forward (the test moves the generation's deadline back as much). */
  advance(ms: number): void {
    this.clockMs += ms;
  }

  override reset(): void {
    super.reset();
    this.nextPlan = { pollsBeforeDone: 0, outcome: { end: 'SUCCEEDED' } };
    this.creationDelayMs = 0;
    this.timings.clear();
    this.queryTimes.clear();
    this.cancelled.length = 0;
    this.cancelRefused.length = 0;
  }

  /** The status queries of a task, in order. */
  queriesOf(taskId: string): ReceivedRequest[] {
    return this.received.filter((r) => r.method === 'GET' && r.path === `/api/v1/tasks/${taskId}`);
  }

  /** The task creations received. */
  creations(): ReceivedRequest[] {
    return this.received.filter((r) => r.method === 'POST' && r.path.startsWith('/api/v1/services/'));
  }

  protected override async route(req: ReceivedRequest, reply: FakeReply): Promise<void> {
    const task = /^\/api\/v1\/tasks\/([^/]+)(\/cancel)?$/.exec(req.path);
    const timing = task ? this.timings.get(decodeURIComponent(task[1])) : undefined;
    if (!task || !timing || req.headers.authorization !== `Bearer ${this.apiKey}`) {
      const before = new Set(this.tasks.keys());
      if (this.creationDelayMs && req.method === 'POST') await new Promise((r) => setTimeout(r, this.creationDelayMs).unref());
      const timing = { ...this.nextTiming, createdAt: this.now() };
      await super.route(req, reply); // answers nothing when the caller has gone
      for (const id of this.tasks.keys()) if (!before.has(id)) this.timings.set(id, timing);
      return;
    }
    const id = decodeURIComponent(task[1]);
    const elapsed = this.now() - timing.createdAt;
    if (req.method === 'GET' && !task[2]) this.queryTimes.set(id, [...(this.queryTimes.get(id) ?? []), elapsed]);
    const cancelled = this.tasks.get(id)?.canceled ?? false;
    if (task[2] && req.method === 'POST') {
      if (!cancelled && elapsed >= timing.queuedMs) {
        this.cancelRefused.push(id);
        return reply.send(400, {
          request_id: randomUUID(),
          code: 'UnsupportedOperation',
          message: 'Failed to cancel the task, please confirm if the task is in PENDING status.',
        });
      }
      await super.route(req, reply);
      if (this.tasks.get(id)?.canceled && !this.cancelled.includes(id)) this.cancelled.push(id);
      return;
    }
    if (req.method === 'GET' && !task[2] && !cancelled && elapsed < timing.doneMs && this.statusOverrides.length === 0) {
      const status = elapsed < timing.queuedMs ? 'PENDING' : 'RUNNING';
      return reply.send(200, {
        request_id: randomUUID(),
        output: { task_id: id, task_status: status, submit_time: '2025-01-01 00:00:00.000' },
      });
    }
    return super.route(req, reply);
  }
}
