import { Logger } from '@nestjs/common';
import { isExpectedRefusal } from '../logging/expected-refusal';
import { AppError, GenerationError, ServiceUnavailableError, ValidationError } from './app-error';
import { AppExceptionFilter, OutageLog } from './app-exception.filter';
import { ErrorCode } from './error-catalogue';
import type { ArgumentsHost } from '@nestjs/common';

describe('OutageLog: one warning per kind of outage and window', () => {
  it('logs the first failure, holds back the alike ones in the window, then reports how many it held', () => {
    let now = 0;
    const log = new OutageLog(5_000, () => now);
    expect(log.take('ECONNREFUSED')).toEqual({ suppressed: 0 });
    for (let i = 0; i < 40; i += 1) {
      now += 100;
      expect(log.take('ECONNREFUSED')).toBeNull();
    }
    now = 5_000;
    expect(log.take('ECONNREFUSED')).toEqual({ suppressed: 40 });
  });

  it('a different kind of failure is logged at once', () => {
    const log = new OutageLog(5_000, () => 0);
    expect(log.take('ECONNREFUSED')).not.toBeNull();
    expect(log.take('57P01')).not.toBeNull();
    expect(log.take('ECONNREFUSED')).toBeNull();
  });
});

describe('AppExceptionFilter: what a refusal and a failure leave in the log', () => {
  let lines: { level: string; fields: Record<string, unknown>; message: unknown }[];
  beforeEach(() => {
    lines = [];
    for (const level of ['log', 'warn', 'error'] as const) {
      jest
        .spyOn(Logger.prototype, level)
        .mockImplementation(
          (...args: unknown[]) => void lines.push({ level, fields: args[0] as Record<string, unknown>, message: args[1] }),
        );
    }
  });
  afterEach(() => jest.restoreAllMocks());

  /** Runs the filter on one request; answers the response it wrote to. */
  function answer(filter: AppExceptionFilter, error: unknown, url = '/api/webhooks/stripe') {
    const res = {
      headersSent: false,
      statusCode: 200,
      setHeader: jest.fn(),
      status(code: number) {
        this.statusCode = code;
        return this;
      },
      json: jest.fn(),
    };
    const req = { method: 'POST', originalUrl: `${url}?secret=1` };
    const host = { getType: () => 'http', switchToHttp: () => ({ getResponse: () => res, getRequest: () => req }) };
    filter.catch(error, host as unknown as ArgumentsHost);
    return res;
  }
  const comingSoon = () => new AppError(ErrorCode.SERVICE_UNAVAILABLE, 'Stripe integration coming soon!', 501);

  it('logs an expected 501 or 503 at info, without a stack, once per route and window, and marks it a refusal', () => {
    const filter = new AppExceptionFilter();
    const answers = Array.from({ length: 50 }, () => answer(filter, comingSoon()));
    expect(answers.every((res) => res.statusCode === 501 && isExpectedRefusal(res as never))).toBe(true);
    expect(lines).toEqual([
      {
        level: 'log',
        fields: { status: 501, code: 'SERVICE_UNAVAILABLE', method: 'POST', url: '/api/webhooks/stripe', held_back: 0 },
        message: 'request refused on purpose',
      },
    ]);
    answer(filter, new ServiceUnavailableError('We are processing many photos right now.', 2), '/api/uploads');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({ level: 'log', fields: { status: 503, url: '/api/uploads' } });
    expect(JSON.stringify(lines)).not.toMatch(/stack|at /);
  });

  it('leaves a 4xx refusal to the request log, marked as a refusal', () => {
    const res = answer(new AppExceptionFilter(), new ValidationError('Please upload image files only'));
    expect(res.statusCode).toBe(400);
    expect(isExpectedRefusal(res as never)).toBe(true);
    expect(lines).toEqual([]);
  });

  it('logs a real failure at error with its stack, and does not mark it', () => {
    const filter = new AppExceptionFilter();
    for (const error of [new Error('boom'), new GenerationError('Generation failed')]) {
      const res = answer(filter, error);
      expect(res.statusCode).toBe(500);
      expect(isExpectedRefusal(res as never)).toBe(false);
    }
    expect(lines.map((l) => [l.level, l.message])).toEqual([
      ['error', 'request failed'],
      ['error', 'request failed'],
    ]);
    expect((lines[0].fields.err as { stack?: string }).stack).toContain('boom');
  });
});
