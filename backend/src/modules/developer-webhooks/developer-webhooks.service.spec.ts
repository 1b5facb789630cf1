import { newTestService } from '../../../test/helpers/new-test-service';
import { APP_CONFIG } from '../../config/config.module';
import { testConfig } from '../../config/test-config';
import { JobName, MessageQueueService } from '../../queue';
import { UserMailService } from '../users/user-mail.service';
import { WebhookDeliveryState } from './developer-webhook.entities';
import { type ClaimedDelivery, DeveloperWebhooksRepository } from './developer-webhooks.repository';
import {
  DeveloperWebhooksService,
  WEBHOOK_DISABLE_AFTER,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_RETRY_DELAYS_MS,
} from './developer-webhooks.service';
import { sendDelivery, verifySignature } from './webhook-sender';

jest.mock('./webhook-sender', () => ({ ...jest.requireActual('./webhook-sender'), sendDelivery: jest.fn() }));
const send = sendDelivery as jest.MockedFunction<typeof sendDelivery>;

const SECRET = 'whsec_unit-test-secret';

describe('DeveloperWebhooksService.deliver: one attempt, then the next or the end', () => {
  const setup = () => {
    const { sut, mock } = newTestService(DeveloperWebhooksService, { provide: APP_CONFIG, useValue: testConfig() });
    const repo = mock(DeveloperWebhooksRepository);
    const queue = mock(MessageQueueService);
    const mail = mock(UserMailService);
    const sealed = (sut as unknown as { box: { seal(s: string): string } }).box.seal(SECRET);
    const claimed = (over: Partial<ClaimedDelivery> = {}): ClaimedDelivery => ({
      id: 'd1',
      endpointId: 'e1',
      userId: 'u1',
      eventType: 'generation.completed',
      body: '{"id":"ev1","type":"generation.completed"}',
      attempts: 1,
      url: 'http://127.0.0.1:9/hook?secret=their-own',
      secretSealed: sealed,
      endpointDisabled: false,
      ...over,
    });
    repo.endpointFailed.mockResolvedValue(false);
    repo.endpointSucceeded.mockResolvedValue(false);
    return { sut, repo, queue, mail, claimed };
  };
  beforeEach(() => send.mockReset());

  it('signs the body with the endpoint secret, and records a success (the failure streak ends)', async () => {
    const { sut, repo, queue, claimed } = setup();
    repo.claimAttempt.mockResolvedValue(claimed());
    send.mockResolvedValue({ ok: true, status: 200, durationMs: 12, error: null });
    await sut.deliver({ deliveryId: 'd1', attempt: 1 });
    const sent = send.mock.calls[0][0];
    expect(sent.body).toBe(claimed().body);
    expect(verifySignature(SECRET, sent.body, sent.headers['Fitting-Room-Signature'])).toBe(true);
    expect(sent.headers).toMatchObject({
      'Fitting-Room-Event': 'generation.completed',
      'Fitting-Room-Delivery': 'd1',
      'Content-Type': 'application/json',
    });
    expect(repo.recordAttempt).toHaveBeenCalledWith('d1', expect.objectContaining({ status: 200 }), {
      state: WebhookDeliveryState.Succeeded,
      nextAttemptAt: null,
    });
    expect(repo.endpointSucceeded).toHaveBeenCalledWith('e1');
    expect(queue.add).not.toHaveBeenCalled();
  });

  it('after a failure, schedules the next attempt with the backoff and counts the failure', async () => {
    const { sut, repo, queue, claimed } = setup();
    repo.claimAttempt.mockResolvedValue(claimed({ attempts: 3 }));
    send.mockResolvedValue({ ok: false, status: 500, durationMs: 5, error: 'answered 500' });
    const before = Date.now();
    await sut.deliver({ deliveryId: 'd1', attempt: 3 });
    const [, , next] = repo.recordAttempt.mock.calls[0];
    expect(next.state).toBe(WebhookDeliveryState.Pending);
    expect(next.nextAttemptAt!.getTime() - before).toBeGreaterThanOrEqual(WEBHOOK_RETRY_DELAYS_MS[2]);
    expect(queue.add).toHaveBeenCalledWith(
      JobName.DeveloperWebhookDeliver,
      { deliveryId: 'd1', attempt: 4 },
      expect.objectContaining({ delayMs: WEBHOOK_RETRY_DELAYS_MS[2], jobId: 'webhook-d1-4' }),
    );
    expect(repo.endpointFailed).toHaveBeenCalledWith('e1', WEBHOOK_DISABLE_AFTER.failures, WEBHOOK_DISABLE_AFTER.hours);
  });

  it('retries for about a day, ten attempts in all, then gives up', async () => {
    const total = WEBHOOK_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
    expect(WEBHOOK_MAX_ATTEMPTS).toBe(10);
    expect(total / 3_600_000).toBeGreaterThan(23);
    expect(total / 3_600_000).toBeLessThanOrEqual(24);
    const { sut, repo, queue, claimed } = setup();
    repo.claimAttempt.mockResolvedValue(claimed({ attempts: WEBHOOK_MAX_ATTEMPTS }));
    send.mockResolvedValue({ ok: false, status: null, durationMs: 10_000, error: 'no answer within 10 s' });
    await sut.deliver({ deliveryId: 'd1', attempt: WEBHOOK_MAX_ATTEMPTS });
    expect(repo.recordAttempt.mock.calls[0][2]).toEqual({ state: WebhookDeliveryState.Failed, nextAttemptAt: null });
    expect(queue.add).not.toHaveBeenCalled();
  });

  it('switches a failing endpoint off once, and mails its owner naming it without its query string', async () => {
    const { sut, repo, mail, claimed } = setup();
    repo.claimAttempt.mockResolvedValue(claimed());
    repo.endpointFailed.mockResolvedValue(true);
    send.mockResolvedValue({ ok: false, status: 502, durationMs: 5, error: 'answered 502' });
    await sut.deliver({ deliveryId: 'd1', attempt: 1 });
    expect(mail.send).toHaveBeenCalledTimes(1);
    const sent = mail.send.mock.calls[0][0] as { kind: string; userId: string; title: string; lines: string[] };
    expect(sent).toMatchObject({ kind: 'account-notice', userId: 'u1', title: 'A webhook endpoint was switched off' });
    expect(sent.lines.join(' ')).toContain('http://127.0.0.1:9/hook');
    expect(sent.lines.join(' ')).not.toContain('their-own');
  });

  it('sends a test event once (no retry), without counting its failure against the endpoint', async () => {
    const { sut, repo, queue, claimed } = setup();
    repo.claimAttempt.mockResolvedValue(claimed({ eventType: 'webhook.test', endpointDisabled: true }));
    send.mockResolvedValue({ ok: false, status: 404, durationMs: 3, error: 'answered 404' });
    await sut.deliver({ deliveryId: 'd1', attempt: 1 });
    expect(send).toHaveBeenCalledTimes(1); // a switched-off endpoint gets its test event
    expect(repo.recordAttempt.mock.calls[0][2]).toEqual({ state: WebhookDeliveryState.Failed, nextAttemptAt: null });
    expect(queue.add).not.toHaveBeenCalled();
    expect(repo.endpointFailed).not.toHaveBeenCalled();
  });

  it('sends nothing to a switched-off endpoint but a test event, and nothing twice for one attempt', async () => {
    const { sut, repo, claimed } = setup();
    repo.claimAttempt.mockResolvedValue(claimed({ endpointDisabled: true }));
    await sut.deliver({ deliveryId: 'd1', attempt: 2 });
    expect(send).not.toHaveBeenCalled();
    expect(repo.recordAttempt.mock.calls[0][2]).toEqual({ state: WebhookDeliveryState.Failed, nextAttemptAt: null });
    repo.claimAttempt.mockResolvedValue(undefined); // a duplicated job: the attempt was claimed already
    repo.recordAttempt.mockClear();
    await sut.deliver({ deliveryId: 'd1', attempt: 2 });
    expect(send).not.toHaveBeenCalled();
    expect(repo.recordAttempt).not.toHaveBeenCalled();
  });
});
