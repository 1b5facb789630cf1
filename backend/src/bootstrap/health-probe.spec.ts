import { probeKindOf } from './health-probe';

describe('probeKindOf (the image HEALTHCHECK tells the API from a worker)', () => {
  const pid1 = (cmdline: string) => () => cmdline;

  it('follows an explicit kind', () => {
    expect(probeKindOf('ready', pid1('/usr/bin/tini\0--\0node\0backend/dist/worker.js\0'))).toBe('ready');
    expect(probeKindOf('worker', pid1(''))).toBe('worker');
    expect(() => probeKindOf('lively', pid1(''))).toThrow('unknown health check "lively": live, ready or worker');
  });

  it("without one, reads the container's command from PID 1 (tini)", () => {
    expect(probeKindOf(undefined, pid1('/usr/bin/tini\0--\0node\0backend/dist/worker.js\0'))).toBe('worker');
    expect(probeKindOf(undefined, pid1('/usr/bin/tini\0--\0node\0backend/dist/main.js\0'))).toBe('live');
    expect(probeKindOf(undefined, pid1('/usr/bin/tini\0--\0node\0backend/dist/networker.js\0'))).toBe('live');
    expect(
      probeKindOf(undefined, () => {
        throw new Error('ENOENT');
      }),
    ).toBe('live');
  });
});
