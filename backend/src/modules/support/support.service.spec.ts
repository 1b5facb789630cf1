import { Logger } from '@nestjs/common';
import { newTestService } from '../../../test/helpers/new-test-service';
import { NotFoundError, ValidationError } from '../../common/errors';
import { APP_CONFIG } from '../../config/config.module';
import { JobName, MessageQueueService, type JobContext } from '../../queue';
import { STORAGE } from '../../storage';
import { AuditAction, AuditService } from '../audit/audit.service';
import { GenerationsRepository } from '../generations/generations.repository';
import { Mailer } from '../mail';
import { NotificationsService } from '../notifications/notifications.service';
import { NotificationType } from '../notifications/system-notification.entity';
import { ReportedImageMatcher } from './reported-image.matcher';
import { SupportRepository, type ReplyToMail } from './support.repository';
import { REPLY_MAIL_JOB_OPTIONS, SupportService } from './support.service';
import type { AppConfig } from '../../config/app-config';
import type { SupportInquiryEntity, SupportMessageEntity } from './support.entities';
import type { EntityManager } from 'typeorm';

const TICKET = '0b7d4f3e-1c2a-4e5b-9f60-7a8b9c0d1e2f';
const GENERATION = '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b';
const ADMIN = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const MESSAGE = '1f2e3d4c-5b6a-4978-8a6b-5c4d3e2f1a0b';
const HOUR = 3_600_000;
const manager = {} as EntityManager;

// the service logs every inquiry and mail; the tests read outcomes, not logs
beforeAll(() => Logger.overrideLogger(false));
afterAll(() => Logger.overrideLogger(['log', 'error', 'warn']));

function ticket(over: Partial<SupportInquiryEntity> = {}): SupportInquiryEntity {
  return {
    id: TICKET,
    number: 1042,
    status: 'open',
    priority: 'normal',
    kind: 'question',
    subject: 'My picture',
    message: 'Hello',
    name: 'Ada',
    email: 'ada@example.com',
    userId: null,
    generationId: null,
    imageMatch: null,
    imageCandidates: null,
    reportedImageKey: null,
    reportedImageDeletedAt: null,
    createdAt: new Date(Date.now() - HOUR),
    updatedAt: new Date(),
    resolvedAt: null,
    generationRemovedAt: null,
    generationRemovedBy: null,
    ...over,
  };
}

function setup() {
  const config = { contact: { supportEmail: 'support@example.com', businessEmail: 'business@example.com' } } as AppConfig;
  const storage = {
    put: jest.fn(async (_key: string, _body: Buffer, _options: { contentType: string }) => undefined),
    delete: jest.fn(async (_key: string) => undefined),
    signedUrl: jest.fn(async (key: string) => `/api/files/${key}?sig=x`),
  };
  const built = newTestService(SupportService, { provide: APP_CONFIG, useValue: config }, { provide: STORAGE, useValue: storage });
  built.mock(GenerationsRepository).resultsForReview.mockResolvedValue([]);
  const repo = built.mock(SupportRepository);
  // what the service stores comes back as the ticket, with its dates (TICKET for the id the service drew)
  repo.createInquiry.mockImplementation(async (values) => ticket({ ...values, id: TICKET, createdAt: new Date('2026-01-02T03:04:05Z') }));
  repo.transaction.mockImplementation((work) => work(manager) as never);
  repo.insertMessage.mockImplementation(async (_m, values) => ({ id: MESSAGE, ...values }) as SupportMessageEntity);
  repo.findMessage.mockResolvedValue({ id: MESSAGE, created_at: new Date('2026-01-02T03:04:05Z') } as never);
  repo.messagesOf.mockResolvedValue([]);
  built.mock(MessageQueueService).add.mockResolvedValue(undefined as never);
  // brand is a getter of the real Mailer, which the automock leaves out
  Object.assign(built.mock(Mailer), {
    brand: { appName: 'Fitting Room', appUrl: 'https://fitting.example', supportEmail: 'support@example.com' },
  });
  return { ...built, repo, storage };
}

const form = { name: 'Ada', email: 'ada@example.com', subject: 'My picture', message: 'Please remove it' };

describe('SupportService: the contact form', () => {
  it('refuses a generation id or an image on anything but a report of an image, storing nothing', async () => {
    const { sut, repo } = setup();
    await expect(sut.create({ ...form, kind: 'question', generation_id: GENERATION })).rejects.toThrow(
      new ValidationError('A generation id can only be sent with a report of an image (kind abuse_report)'),
    );
    await expect(sut.create({ ...form, kind: 'billing', image_url: `https://fitting.example/generations/${GENERATION}` })).rejects.toThrow(
      new ValidationError('An image or a link can only be sent with a report of an image (kind abuse_report)'),
    );
    await expect(sut.create({ ...form }, undefined, Buffer.from('jpeg'))).rejects.toThrow(/can only be sent with a report of an image/);
    expect(repo.createInquiry).not.toHaveBeenCalled();
  });

  it('stores a report of an image at priority high with the generation its link names, notifies (critical) and queues the receipt', async () => {
    const { sut, mock, repo } = setup();
    mock(ReportedImageMatcher).match.mockResolvedValue({ generationId: GENERATION, method: 'link', candidates: [] });
    const created = await sut.create(
      { ...form, kind: 'abuse_report', image_url: `https://fitting.example/generations/${GENERATION}` },
      'user-1',
    );

    expect(created).toEqual({
      id: TICKET,
      number: 1042,
      status: 'open',
      kind: 'abuse_report',
      priority: 'high',
      created_at: '2026-01-02T03:04:05.000Z',
    });
    expect(repo.createInquiry).toHaveBeenCalledWith(
      expect.objectContaining({ generationId: GENERATION, imageMatch: 'link', userId: 'user-1' }),
    );
    expect(mock(NotificationsService).notify).toHaveBeenCalledWith({
      type: NotificationType.AbuseReport,
      severity: 'critical',
      title: 'An image was reported',
      message: `Abuse report "My picture" about generation ${GENERATION} (found from the link sent). Ticket ${TICKET} (priority high): review it and remove the image if it must go.`,
      dedupeKey: `support:${TICKET}`,
    });
    expect(mock(MessageQueueService).add).toHaveBeenCalledWith(
      JobName.SupportReceiptMail,
      { inquiryId: TICKET },
      { ...REPLY_MAIL_JOB_OPTIONS, jobId: `support-receipt-${TICKET}` },
    );
  });

  it('a report naming its generation by id skips the matcher; a copy that matches nothing is said so', async () => {
    const { sut, mock, repo } = setup();
    await sut.create({ ...form, kind: 'abuse_report', generation_id: GENERATION });
    expect(mock(ReportedImageMatcher).match).not.toHaveBeenCalled();
    expect(repo.createInquiry).toHaveBeenLastCalledWith(expect.objectContaining({ generationId: GENERATION, imageMatch: 'id' }));

    mock(ReportedImageMatcher).match.mockResolvedValue({ generationId: null, method: 'none', candidates: [] });
    await sut.create({ ...form, kind: 'abuse_report' }, undefined, Buffer.from('jpeg'));
    expect(mock(NotificationsService).notify).toHaveBeenLastCalledWith(
      expect.objectContaining({ message: expect.stringContaining('"My picture" (the image sent matches no stored result). Ticket') }),
    );
  });

  it('a question or a billing inquiry is normal priority, an info notification promising 24-48 hours, and a receipt mail', async () => {
    const { sut, mock } = setup();
    expect((await sut.create({ ...form })).priority).toBe('normal');
    expect(mock(NotificationsService).notify).toHaveBeenLastCalledWith({
      type: NotificationType.SupportInquiry,
      severity: 'info',
      title: 'New support inquiry',
      message: `"My picture" (ticket ${TICKET}). Answer within 24-48 hours.`,
      dedupeKey: `support:${TICKET}`,
    });
    await sut.create({ ...form, kind: 'billing' });
    expect(mock(NotificationsService).notify).toHaveBeenLastCalledWith(expect.objectContaining({ title: 'New billing inquiry' }));
    expect(mock(MessageQueueService).add).toHaveBeenCalledTimes(2);
    expect(mock(MessageQueueService).add).toHaveBeenCalledWith(JobName.SupportReceiptMail, { inquiryId: TICKET }, expect.anything());
  });

  it('keeps the message when the notification or the receipt cannot be raised', async () => {
    const { sut, mock } = setup();
    mock(NotificationsService).notify.mockRejectedValue(new Error('database down'));
    mock(MessageQueueService).add.mockRejectedValue(new Error('redis down'));
    await expect(sut.create({ ...form, kind: 'abuse_report', generation_id: GENERATION })).resolves.toMatchObject({
      id: TICKET,
      priority: 'high',
    });
  });
});

describe('SupportService: the workflow of a ticket', () => {
  it('refuses an update that changes nothing or names no ticket, and answers 404 for a ticket that does not exist', async () => {
    const { sut, repo } = setup();
    await expect(sut.update(ADMIN, 'admin', TICKET, {})).rejects.toThrow(
      new ValidationError('Nothing to change: send status and/or priority'),
    );
    await expect(sut.update(ADMIN, 'admin', 'ticket-1', { status: 'in_progress' })).rejects.toThrow(new ValidationError('Invalid id'));
    expect(repo.transaction).not.toHaveBeenCalled();
    repo.lockInquiry.mockResolvedValue(null);
    await expect(sut.update(ADMIN, 'admin', TICKET, { status: 'in_progress' })).rejects.toThrow(NotFoundError);
    expect(repo.updateInquiry).not.toHaveBeenCalled();
  });

  it('refuses a move the workflow does not allow, saying where the ticket can go, and changes nothing', async () => {
    const { sut, repo, mock } = setup();
    repo.lockInquiry.mockResolvedValue(ticket({ status: 'open' }));
    await expect(sut.update(ADMIN, 'admin', TICKET, { status: 'resolved', priority: 'urgent' })).rejects.toThrow(
      new ValidationError('Cannot move a ticket from open to resolved: from open it can only move to in_progress'),
    );
    repo.lockInquiry.mockResolvedValue(ticket({ status: 'closed' }));
    await expect(sut.update(ADMIN, 'admin', TICKET, { status: 'in_progress' })).rejects.toThrow(
      new ValidationError('Cannot move a ticket from closed to in_progress: a closed ticket cannot change status'),
    );
    expect(repo.updateInquiry).not.toHaveBeenCalled();
    expect(mock(AuditService).record).not.toHaveBeenCalled();
  });

  it('resolving stamps resolved_at and audits the move in the same transaction', async () => {
    const { sut, repo, mock } = setup();
    repo.lockInquiry.mockResolvedValue(ticket({ status: 'in_progress', userId: 'user-1' }));
    repo.findInquiry.mockResolvedValue(ticket({ status: 'resolved' }));
    await sut.update(ADMIN, 'admin', TICKET, { status: 'resolved' });
    expect(repo.updateInquiry).toHaveBeenCalledWith(TICKET, { status: 'resolved', resolvedAt: expect.any(Date) }, manager);
    expect(mock(AuditService).record).toHaveBeenCalledWith(
      {
        actorId: ADMIN,
        action: AuditAction.SupportStatusChange,
        targetType: 'support_inquiry',
        targetId: TICKET,
        targetUserId: 'user-1',
        before: { status: 'in_progress' },
        after: { status: 'resolved' },
      },
      manager,
    );
  });

  it('reopening a resolved ticket clears resolved_at; the same status and priority again change and audit nothing', async () => {
    const { sut, repo, mock } = setup();
    repo.lockInquiry.mockResolvedValue(ticket({ status: 'resolved', resolvedAt: new Date() }));
    repo.findInquiry.mockResolvedValue(ticket());
    await sut.update(ADMIN, 'admin', TICKET, { status: 'in_progress' });
    expect(repo.updateInquiry).toHaveBeenCalledWith(TICKET, { status: 'in_progress', resolvedAt: null }, manager);

    repo.updateInquiry.mockClear();
    mock(AuditService).record.mockClear();
    repo.lockInquiry.mockResolvedValue(ticket({ status: 'open', priority: 'high' }));
    await sut.update(ADMIN, 'admin', TICKET, { status: 'open', priority: 'high' });
    expect(repo.updateInquiry).not.toHaveBeenCalled();
    expect(mock(AuditService).record).not.toHaveBeenCalled();
  });

  it('tells the SLA of each ticket in the list: open tickets age against 24-48 h, resolved ones have none', async () => {
    const { sut, repo } = setup();
    repo.listInquiries.mockResolvedValue({
      rows: [
        ticket({ createdAt: new Date(Date.now() - 30 * HOUR) }),
        ticket({ status: 'resolved', createdAt: new Date(Date.now() - 90 * HOUR) }),
      ],
      total: 2,
    });
    const { rows, total } = await sut.list(sut.parse({}));
    expect(total).toBe(2);
    expect(rows.map((r) => [r.age_hours, r.sla])).toEqual([
      [30, 'due_soon'],
      [90, null],
    ]);
  });

  it('refuses a list filter outside the known values before asking the database', async () => {
    const { sut, repo } = setup();
    await expect(sut.list(sut.parse({ filter: JSON.stringify({ status: 'pending' }) }))).rejects.toThrow(
      new ValidationError('Invalid status: expected one of open, in_progress, resolved, closed'),
    );
    await expect(sut.list(sut.parse({ filter: JSON.stringify({ user_id: 'someone' }) }))).rejects.toThrow(
      new ValidationError('Invalid id'),
    );
    expect(repo.listInquiries).not.toHaveBeenCalled();
  });
});

describe('SupportService: replies and notes', () => {
  it('records a staff reply as queued, audits it and queues its mail', async () => {
    const { sut, repo, mock } = setup();
    repo.lockInquiry.mockResolvedValue(ticket({ userId: 'user-1' }));
    await sut.addMessage(ADMIN, TICKET, { kind: 'reply', body: 'We removed it.' });
    expect(repo.insertMessage).toHaveBeenCalledWith(manager, {
      inquiryId: TICKET,
      kind: 'reply',
      body: 'We removed it.',
      authorId: ADMIN,
      delivered: 'queued',
    });
    expect(mock(AuditService).record).toHaveBeenCalledWith(
      expect.objectContaining({
        action: AuditAction.SupportReply,
        targetUserId: 'user-1',
        after: { message_id: MESSAGE, kind: 'reply', length: 14 },
      }),
      manager,
    );
    expect(mock(MessageQueueService).add).toHaveBeenCalledWith(
      JobName.SupportReplyMail,
      { messageId: MESSAGE },
      { attempts: 6, backoffMs: 30_000, jobId: `support-reply-${MESSAGE}` },
    );
  });

  it('never mails a note', async () => {
    const { sut, repo, mock } = setup();
    repo.lockInquiry.mockResolvedValue(ticket());
    await sut.addMessage(ADMIN, TICKET, { kind: 'note', body: 'Checked the logs.' });
    expect(repo.insertMessage).toHaveBeenCalledWith(manager, expect.objectContaining({ kind: 'note', delivered: null }));
    expect(mock(AuditService).record).toHaveBeenCalledWith(expect.objectContaining({ action: AuditAction.SupportNote }), manager);
    expect(mock(MessageQueueService).add).not.toHaveBeenCalled();
  });

  it('a reply that cannot be queued is marked failed rather than left queued forever', async () => {
    const { sut, repo, mock } = setup();
    repo.lockInquiry.mockResolvedValue(ticket());
    mock(MessageQueueService).add.mockRejectedValue(new Error('redis down'));
    await sut.addMessage(ADMIN, TICKET, { kind: 'reply', body: 'Hello' });
    expect(repo.setDelivered).toHaveBeenCalledWith(MESSAGE, 'failed', 'could not be queued for mailing');
  });

  it('a reply to a ticket that does not exist is a 404 and stores nothing', async () => {
    const { sut, repo } = setup();
    repo.lockInquiry.mockResolvedValue(null);
    await expect(sut.addMessage(ADMIN, TICKET, { kind: 'reply', body: 'Hello' })).rejects.toThrow(NotFoundError);
    expect(repo.insertMessage).not.toHaveBeenCalled();
  });

  it('a reply moves an open ticket to in_progress (waiting for the person), audited; a note moves nothing', async () => {
    const { sut, repo, mock } = setup();
    repo.lockInquiry.mockResolvedValue(ticket({ status: 'open', userId: 'user-1' }));
    await sut.addMessage(ADMIN, TICKET, { kind: 'note', body: 'Looking.' });
    expect(repo.updateInquiry).not.toHaveBeenCalled();
    await sut.addMessage(ADMIN, TICKET, { kind: 'reply', body: 'Here is how.' });
    expect(repo.updateInquiry).toHaveBeenCalledWith(TICKET, { status: 'in_progress' }, manager);
    expect(mock(AuditService).record).toHaveBeenCalledWith(
      expect.objectContaining({ action: AuditAction.SupportStatusChange, after: { status: 'in_progress', by: 'reply' } }),
      manager,
    );
    repo.updateInquiry.mockClear();
    repo.lockInquiry.mockResolvedValue(ticket({ status: 'resolved' }));
    await sut.addMessage(ADMIN, TICKET, { kind: 'reply', body: 'One more thing.' });
    expect(repo.updateInquiry).not.toHaveBeenCalled();
  });

  it("the person's own message re-opens a ticket waiting for them or resolved; a closed one or another's takes none", async () => {
    const { sut, repo } = setup();
    repo.threadFor.mockResolvedValue([]);
    for (const status of ['in_progress', 'resolved'] as const) {
      repo.findOwnInquiry.mockResolvedValue(ticket({ status, userId: 'user-1' }));
      repo.lockInquiry.mockResolvedValue(ticket({ status, userId: 'user-1', resolvedAt: status === 'resolved' ? new Date() : null }));
      repo.findInquiry.mockResolvedValue(ticket({ status: 'open', userId: 'user-1' }));
      repo.updateInquiry.mockClear();
      const mine = await sut.replyAsOwner('user-1', 1042, 'Thanks, but it still fails.');
      expect(repo.insertMessage).toHaveBeenLastCalledWith(manager, {
        inquiryId: TICKET,
        kind: 'customer',
        body: 'Thanks, but it still fails.',
        authorId: 'user-1',
        delivered: null,
      });
      expect(repo.updateInquiry).toHaveBeenCalledWith(TICKET, { status: 'open', resolvedAt: null }, manager);
      expect(mine).toMatchObject({ number: 1042, status: 'open' });
    }
    repo.insertMessage.mockClear();
    repo.findOwnInquiry.mockResolvedValue(ticket({ status: 'closed', userId: 'user-1' }));
    repo.lockInquiry.mockResolvedValue(ticket({ status: 'closed', userId: 'user-1' }));
    await expect(sut.replyAsOwner('user-1', 1042, 'Hello?')).rejects.toMatchObject({ statusCode: 409 });
    repo.findOwnInquiry.mockResolvedValue(null);
    await expect(sut.replyAsOwner('user-2', 1042, 'Hello?')).rejects.toThrow(NotFoundError);
    expect(repo.insertMessage).not.toHaveBeenCalled();
  });
});

describe('SupportService: mailing a reply', () => {
  const reply: ReplyToMail = {
    delivered: 'queued',
    kind: 'reply',
    body: 'We removed it.',
    subject: 'My picture',
    name: 'Ada',
    email: 'ada@example.com',
  };
  const ctx = (attempt: number): JobContext => ({ jobId: '1', attempt, maxAttempts: 6, name: JobName.SupportReplyMail });

  it('mails the reply to the requester and records sent through SMTP, logged through the outbox', async () => {
    const { sut, repo, mock } = setup();
    repo.replyToMail.mockResolvedValue(reply);
    mock(Mailer).deliver.mockResolvedValueOnce({ via: 'smtp' }).mockResolvedValueOnce({ via: 'outbox', file: 'x.eml' });
    await sut.handleReplyMail({ messageId: MESSAGE }, ctx(1));
    expect(mock(Mailer).deliver).toHaveBeenCalledWith(
      expect.objectContaining({
        to: 'ada@example.com',
        template: 'support-reply',
        replyTo: 'support@example.com',
        content: expect.objectContaining({ subject: 'Re: My picture' }),
      }),
    );
    expect(repo.setDelivered).toHaveBeenLastCalledWith(MESSAGE, 'sent', null);
    await sut.handleReplyMail({ messageId: MESSAGE }, ctx(1));
    expect(repo.setDelivered).toHaveBeenLastCalledWith(MESSAGE, 'logged', null);
  });

  it('does not mail twice, nor a note, nor a message that is gone', async () => {
    const { sut, repo, mock } = setup();
    const done = [
      { ...reply, delivered: 'sent' as const },
      { ...reply, delivered: 'logged' as const },
    ];
    for (const row of [...done, { ...reply, kind: 'note', delivered: null }, undefined]) {
      repo.replyToMail.mockResolvedValueOnce(row);
      await sut.handleReplyMail({ messageId: MESSAGE }, ctx(1));
    }
    expect(mock(Mailer).deliver).not.toHaveBeenCalled();
    expect(repo.setDelivered).not.toHaveBeenCalled();
  });

  it('a requester who deleted their account gets nothing: the reply is failed with the reason', async () => {
    const { sut, repo, mock } = setup();
    repo.replyToMail.mockResolvedValue({ ...reply, email: '' });
    await sut.handleReplyMail({ messageId: MESSAGE }, ctx(1));
    expect(mock(Mailer).deliver).not.toHaveBeenCalled();
    expect(repo.setDelivered).toHaveBeenCalledWith(MESSAGE, 'failed', 'the requester deleted their account');
  });

  it('a failed delivery stays queued with its error for the retry, and is failed on the last attempt', async () => {
    const { sut, repo, mock } = setup();
    repo.replyToMail.mockResolvedValue(reply);
    mock(Mailer).deliver.mockRejectedValue(new Error('connect ECONNREFUSED'));
    await expect(sut.handleReplyMail({ messageId: MESSAGE }, ctx(2))).rejects.toThrow('connect ECONNREFUSED');
    expect(repo.setDelivered).toHaveBeenLastCalledWith(MESSAGE, 'queued', 'connect ECONNREFUSED');
    await expect(sut.handleReplyMail({ messageId: MESSAGE }, ctx(6))).rejects.toThrow('connect ECONNREFUSED');
    expect(repo.setDelivered).toHaveBeenLastCalledWith(MESSAGE, 'failed', 'connect ECONNREFUSED');
  });

  it('the receipt of a report says whether its image was found, and is skipped for a ticket without an address', async () => {
    const { sut, repo, mock } = setup();
    repo.findInquiry
      .mockResolvedValueOnce(ticket({ kind: 'abuse_report', generationId: null }))
      .mockResolvedValueOnce(ticket({ email: '' }));
    await sut.handleReceiptMail({ inquiryId: TICKET });
    await sut.handleReceiptMail({ inquiryId: TICKET });
    expect(mock(Mailer).deliver).toHaveBeenCalledTimes(1);
    const [mail] = mock(Mailer).deliver.mock.calls[0];
    expect(mail).toMatchObject({ to: 'ada@example.com', template: 'report-receipt', replyTo: 'support@example.com' });
    expect(JSON.stringify(mail.content)).toContain('We could not match what you sent to an image we store yet');
  });
});

describe('SupportService: removing a reported image', () => {
  const remove = jest.fn();

  beforeEach(() => remove.mockReset());

  it('only a report that names a generation still stored can remove it', async () => {
    const { sut, repo, mock } = setup();
    repo.findInquiry.mockResolvedValueOnce(ticket({ kind: 'question', generationId: GENERATION }));
    await expect(sut.removeReportedGeneration(ADMIN, 'admin', TICKET, remove)).rejects.toThrow(
      new ValidationError('Only a report of an image can remove a generation'),
    );
    repo.findInquiry.mockResolvedValueOnce(ticket({ kind: 'abuse_report', generationId: null }));
    await expect(sut.removeReportedGeneration(ADMIN, 'admin', TICKET, remove)).rejects.toThrow(
      new ValidationError('This report names no generation: find the image in Generations and remove it there'),
    );
    repo.findInquiry.mockResolvedValueOnce(ticket({ kind: 'abuse_report', generationId: GENERATION }));
    mock(GenerationsRepository).existsById.mockResolvedValue(false);
    await expect(sut.removeReportedGeneration(ADMIN, 'admin', TICKET, remove)).rejects.toThrow(
      new NotFoundError('The reported generation was not found: it may already have been removed'),
    );
    expect(remove).not.toHaveBeenCalled();
  });

  it('removes the generation with the report as the reason and notes on the ticket what went', async () => {
    const { sut, repo, mock } = setup();
    repo.findInquiry.mockResolvedValue(ticket({ kind: 'abuse_report', generationId: GENERATION }));
    mock(GenerationsRepository).existsById.mockResolvedValue(true);
    remove
      .mockResolvedValueOnce({ generations: [GENERATION, 'g2', 'g3'], photos: ['p1'] })
      .mockResolvedValueOnce({ generations: [GENERATION], photos: [] });
    await sut.removeReportedGeneration(ADMIN, 'admin', TICKET, remove);
    expect(remove).toHaveBeenCalledWith(ADMIN, GENERATION, `abuse report ${TICKET}`);
    expect(repo.insertMessage).toHaveBeenLastCalledWith(manager, {
      inquiryId: TICKET,
      kind: 'note',
      body: `Removed the reported generation ${GENERATION}, the photo it was made from and 2 other generations made from it, with their files.`,
      authorId: ADMIN,
      delivered: null,
    });
    await sut.removeReportedGeneration(ADMIN, 'admin', TICKET, remove);
    expect(repo.insertMessage).toHaveBeenLastCalledWith(
      manager,
      expect.objectContaining({ body: `Removed the reported generation ${GENERATION} and its files.` }),
    );
  });
});

describe('SupportService: a reported copy and its candidates', () => {
  const OTHER = '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f';
  const candidate = (generation_id: string, score: number) => ({
    generation_id,
    score,
    agreement: score / 100,
    coverage: 1,
    inliers: 40,
    hash_distance: null,
  });

  it('keeps the copy before the ticket, under the ticket id, and deletes it again when the ticket cannot be stored', async () => {
    const { sut, mock, repo, storage } = setup();
    mock(ReportedImageMatcher).match.mockResolvedValue({
      generationId: null,
      method: 'candidates',
      candidates: [candidate(GENERATION, 95), candidate(OTHER, 93)],
      copy: Buffer.from('clean jpeg'),
    });
    await sut.create({ ...form, kind: 'abuse_report' }, undefined, Buffer.from('jpeg'));
    const stored = repo.createInquiry.mock.calls[0][0];
    expect(storage.put).toHaveBeenCalledWith(`support/reported-images/${stored.id}.jpg`, Buffer.from('clean jpeg'), {
      contentType: 'image/jpeg',
    });
    expect(storage.put.mock.invocationCallOrder[0]).toBeLessThan(repo.createInquiry.mock.invocationCallOrder[0]);
    expect(stored).toMatchObject({
      generationId: null,
      imageMatch: 'candidates',
      reportedImageKey: `support/reported-images/${stored.id}.jpg`,
      imageCandidates: [expect.objectContaining({ generation_id: GENERATION }), expect.objectContaining({ generation_id: OTHER })],
    });
    expect(mock(NotificationsService).notify).toHaveBeenLastCalledWith(
      expect.objectContaining({
        message: expect.stringContaining('(the copy sent looks like 2 stored results, none clearly ahead: choose on the ticket)'),
      }),
    );

    repo.createInquiry.mockRejectedValueOnce(new Error('database down'));
    await expect(sut.create({ ...form, kind: 'abuse_report' }, undefined, Buffer.from('jpeg'))).rejects.toThrow('database down');
    const key = storage.put.mock.calls[1][0];
    expect(storage.delete).toHaveBeenCalledWith(key);
  });

  it('keeps a copy sent with a generation id without matching it', async () => {
    const { sut, mock, repo, storage } = setup();
    mock(ReportedImageMatcher).keepable.mockResolvedValue({ generationId: null, method: null, candidates: [], copy: Buffer.from('clean') });
    await sut.create({ ...form, kind: 'abuse_report', generation_id: GENERATION }, undefined, Buffer.from('jpeg'));
    expect(mock(ReportedImageMatcher).match).not.toHaveBeenCalled();
    expect(repo.createInquiry).toHaveBeenCalledWith(
      expect.objectContaining({ generationId: GENERATION, imageMatch: 'id', imageCandidates: null }),
    );
    expect(storage.put).toHaveBeenCalledTimes(1);
  });

  it('shows support the copy but not the results, and admins both', async () => {
    const { sut, repo, mock } = setup();
    repo.findInquiry.mockResolvedValue(
      ticket({
        kind: 'abuse_report',
        generationId: GENERATION,
        imageMatch: 'hash',
        imageCandidates: [candidate(GENERATION, 99), candidate(OTHER, 90)],
        reportedImageKey: 'support/reported-images/x.jpg',
      }),
    );
    mock(GenerationsRepository).resultsForReview.mockResolvedValue([
      { id: GENERATION, userId: 'u1', type: 'image', status: 'completed', resultKey: 'users/u1/results/a.jpg', createdAt: new Date() },
    ]);
    const bySupport = await sut.details(TICKET, 'support');
    expect(bySupport.reported_image_url).toBe('/api/files/support/reported-images/x.jpg?sig=x');
    expect(bySupport.reported_generation).toMatchObject({ generation_id: GENERATION, exists: true, result_url: null });
    expect(bySupport.image_candidates.map((c) => [c.generation_id, c.exists, c.result_url])).toEqual([
      [GENERATION, true, null],
      [OTHER, false, null],
    ]);
    const byAdmin = await sut.details(TICKET, 'admin');
    expect(byAdmin.reported_generation?.result_url).toBe('/api/files/users/u1/results/a.jpg?sig=x');
    expect(byAdmin.image_candidates[0]).toMatchObject({
      score: 99,
      agreement: 0.99,
      result_url: '/api/files/users/u1/results/a.jpg?sig=x',
    });
  });

  it('an admin chooses only among the candidates, or none; not once the named result was removed', async () => {
    const { sut, repo, mock } = setup();
    const asked = ticket({ kind: 'abuse_report', imageMatch: 'candidates', imageCandidates: [candidate(GENERATION, 95)] });
    repo.lockInquiry.mockResolvedValue(asked);
    repo.findInquiry.mockResolvedValue(asked);
    await expect(sut.chooseReportedGeneration(ADMIN, 'admin', TICKET, OTHER)).rejects.toThrow(
      new ValidationError('Choose one of the candidates listed on the ticket, or none of them'),
    );
    expect(repo.setReportedGeneration).not.toHaveBeenCalled();

    await sut.chooseReportedGeneration(ADMIN, 'admin', TICKET, GENERATION.toUpperCase());
    expect(repo.setReportedGeneration).toHaveBeenLastCalledWith(manager, TICKET, GENERATION, 'chosen');
    expect(mock(AuditService).record).toHaveBeenCalledWith(
      expect.objectContaining({
        action: 'support.match.choose',
        before: { generation_id: null, image_match: 'candidates' },
        after: { generation_id: GENERATION, image_match: 'chosen' },
      }),
      manager,
    );
    await sut.chooseReportedGeneration(ADMIN, 'admin', TICKET, null);
    expect(repo.setReportedGeneration).toHaveBeenLastCalledWith(manager, TICKET, null, 'none');
    expect(repo.insertMessage).toHaveBeenLastCalledWith(
      manager,
      expect.objectContaining({ kind: 'note', body: 'The candidate is not the reported image.' }),
    );

    repo.lockInquiry.mockResolvedValue({ ...asked, generationId: GENERATION, generationRemovedAt: new Date('2026-01-02T03:04:05Z') });
    await expect(sut.chooseReportedGeneration(ADMIN, 'admin', TICKET, null)).rejects.toThrow(/already removed/);
    repo.lockInquiry.mockResolvedValue(ticket({ kind: 'question' }));
    await expect(sut.chooseReportedGeneration(ADMIN, 'admin', TICKET, null)).rejects.toThrow(/no candidates/);
  });
});
