import { markExpectedRefusal } from './expected-refusal';
import { isLoggedPath, requestLogLevel, withoutError } from './logging.module';
import type { IncomingMessage, ServerResponse } from 'node:http';

const req = {} as IncomingMessage;
const answered = (statusCode: number, refusal = false) => {
  const res = { statusCode } as ServerResponse;
  if (refusal) markExpectedRefusal(res);
  return res;
};

describe('the request log', () => {
  it('writes a refusal made on purpose as a warning, a failure as an error, the rest as info', () => {
    expect(requestLogLevel(req, answered(200))).toBe('info');
    expect(requestLogLevel(req, answered(401))).toBe('warn');
    expect(requestLogLevel(req, answered(401, true))).toBe('warn');
    expect(requestLogLevel(req, answered(501, true))).toBe('warn');
    expect(requestLogLevel(req, answered(503, true))).toBe('warn');
    expect(requestLogLevel(req, answered(503))).toBe('error');
    expect(requestLogLevel(req, answered(500))).toBe('error');
    expect(requestLogLevel(req, answered(200), new Error('socket hang up'))).toBe('error');
  });

  it('drops the Error pino-http makes up for a 5xx (its stack says nothing), keeping the rest of the line', () => {
    const line = { res: { statusCode: 501 }, err: new Error('failed with status code 501'), responseTime: 3 };
    expect(withoutError(line)).toEqual({ res: { statusCode: 501 }, responseTime: 3 });
  });

  it('leaves out the health probes', () => {
    expect(isLoggedPath('/api/me')).toBe(true);
    expect(isLoggedPath('/api/health/ready')).toBe(false);
  });
});
