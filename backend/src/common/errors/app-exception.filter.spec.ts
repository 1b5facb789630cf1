import { OutageLog } from './app-exception.filter';

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
