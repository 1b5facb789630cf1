import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Logger } from '@nestjs/common';
import { newTestService } from '../../../../test/helpers/new-test-service';
import { APP_CONFIG } from '../../../config/config.module';
import { testConfig } from '../../../config/test-config';
import { MessageQueueService } from '../../../queue';
import { describeFfmpeg, ffmpegVersion, findFfmpeg, runFfmpeg, selectFfmpeg } from './ffmpeg';
import { FfmpegCheck } from './ffmpeg-check';

// Real binaries throughout: Debian's ffmpeg on PATH (.ci/run installs it), the npm package's static
// build, and shell scripts standing in for a broken install.

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundled build's own path, to compare with
const BUNDLED = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
const dirs: string[] = [];
const SYSTEM_PATH = process.env.PATH;

/** A folder holding an executable `ffmpeg` script with `body`: a broken or fake install. */
function folderWithFakeFfmpeg(body: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'fr-ffmpeg-'));
  dirs.push(dir);
  writeFileSync(path.join(dir, 'ffmpeg'), `#!/bin/sh\n${body}\n`);
  chmodSync(path.join(dir, 'ffmpeg'), 0o755);
  return dir;
}

afterEach(() => {
  process.env.PATH = SYSTEM_PATH;
  jest.restoreAllMocks();
});
afterAll(async () => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  await selectFfmpeg(); // this file's module state back to the system's
});

describe('which ffmpeg runs', () => {
  it('is the system ffmpeg on PATH, a current release, not the bundled 2018 build', async () => {
    const ffmpeg = await findFfmpeg();
    expect(ffmpeg.source).toBe('PATH');
    expect(ffmpeg.path).not.toBe(BUNDLED);
    expect(ffmpeg.version).toMatch(/^\d+\.\d+/); // a release (Debian 12: 5.1.x), not a git snapshot
    expect(ffmpeg.year).toBeGreaterThanOrEqual(2022);
    expect(describeFfmpeg(ffmpeg)).toBe(`ffmpeg ${ffmpeg.version}, built ${ffmpeg.year} (${ffmpeg.path})`);
  });

  it('is FFMPEG_PATH when set, before PATH', async () => {
    const ffmpeg = await findFfmpeg({ configuredPath: BUNDLED });
    expect(ffmpeg).toMatchObject({ path: BUNDLED, source: 'FFMPEG_PATH' });
    expect(ffmpeg.version).toBe(((await ffmpegVersion(BUNDLED)) as { version: string }).version);
  });

  it('refuses an FFMPEG_PATH that does not run ffmpeg, naming it', async () => {
    await expect(findFfmpeg({ configuredPath: '/nonexistent/ffmpeg' })).rejects.toThrow(
      /^FFMPEG_PATH=\/nonexistent\/ffmpeg does not run ffmpeg: .*ENOENT/,
    );
    const notFfmpeg = path.join(folderWithFakeFfmpeg('echo "usage: something else"'), 'ffmpeg');
    await expect(findFfmpeg({ configuredPath: notFfmpeg })).rejects.toThrow(`FFMPEG_PATH=${notFfmpeg} does not run ffmpeg: not ffmpeg`);
  });

  it('skips an ffmpeg on PATH that does not run, and falls back to the bundled build, which it dates', async () => {
    const broken = folderWithFakeFfmpeg('exit 127');
    const ffmpeg = await findFfmpeg({ searchPath: [broken, '/nonexistent/bin'].join(path.delimiter) });
    expect(ffmpeg).toMatchObject({ path: BUNDLED, source: 'bundled', year: 2018 });
    expect(describeFfmpeg(ffmpeg)).toContain(`using the build bundled with @ffmpeg-installer/ffmpeg (${ffmpeg.version}, built 2018)`);
    expect(describeFfmpeg(ffmpeg)).toContain('install ffmpeg (apt-get install ffmpeg, brew install ffmpeg) or set FFMPEG_PATH');
  });

  it('says what to install when there is no ffmpeg at all', async () => {
    await expect(findFfmpeg({ searchPath: '/nonexistent/bin', bundled: () => undefined })).rejects.toThrow(
      'No ffmpeg found: install it (Debian: apt-get install ffmpeg; macOS: brew install ffmpeg) or set FFMPEG_PATH',
    );
  });

  it('runs the ffmpeg chosen at start for every later command', async () => {
    // a stand-in that answers -version as ffmpeg does and writes down the arguments of the work
    const dir = folderWithFakeFfmpeg(
      'if [ "$1" = "-version" ]; then echo "ffmpeg version 9.9-fake Copyright (c) 2000-2026 the FFmpeg developers"; exit 0; fi\n' +
        'echo "$@" > "$(dirname "$0")/args"',
    );
    expect(await selectFfmpeg({ configuredPath: path.join(dir, 'ffmpeg') })).toMatchObject({ version: '9.9-fake', year: 2026 });
    await runFfmpeg(['-i', 'in.mp4', 'out.mp4']);
    expect(readFileSync(path.join(dir, 'args'), 'utf8')).toBe('-hide_banner -loglevel error -nostdin -y -i in.mp4 out.mp4\n');
    // back to the system's, whose failures say why
    await selectFfmpeg();
    await expect(runFfmpeg(['-i', '/nonexistent/in.mp4', '/nonexistent/out.mp4'])).rejects.toThrow(
      /^ffmpeg failed \(exit 1\): .*nonexistent/,
    );
  });
});

describe('FfmpegCheck, at start', () => {
  function check(env: NodeJS.ProcessEnv, consuming = true) {
    const logged: Record<'log' | 'warn' | 'error', string[]> = { log: [], warn: [], error: [] };
    for (const level of ['log', 'warn', 'error'] as const) {
      jest.spyOn(Logger.prototype, level).mockImplementation((...args: unknown[]) => void logged[level].push(String(args[0])));
    }
    const { sut } = newTestService(
      FfmpegCheck,
      { provide: APP_CONFIG, useValue: testConfig({}, env) },
      { provide: MessageQueueService, useValue: { consuming } },
    );
    return { sut, logged };
  }

  it('logs the version of the system ffmpeg it will run', async () => {
    const { sut, logged } = check({});
    await sut.onApplicationBootstrap();
    expect(logged.warn).toEqual([]);
    expect(logged.log).toEqual([expect.stringMatching(/^ffmpeg \d+\.\d+\S*, built \d{4} \(\/\S+\/ffmpeg\)$/)]);
  });

  it('warns once, naming the version, when only the bundled build is there', async () => {
    process.env.PATH = folderWithFakeFfmpeg('exit 127');
    const { sut, logged } = check({});
    await sut.onApplicationBootstrap();
    expect(logged.log).toEqual([]);
    expect(logged.warn).toHaveLength(1);
    expect(logged.warn[0]).toMatch(/^ffmpeg: none on PATH, using the build bundled with @ffmpeg-installer\/ffmpeg \(N-\S+, built 2018\)/);
  });

  it('stops the start when FFMPEG_PATH does not run', async () => {
    const { sut } = check({ FFMPEG_PATH: '/nonexistent/ffmpeg' });
    await expect(sut.onApplicationBootstrap()).rejects.toThrow(/^FFMPEG_PATH=\/nonexistent\/ffmpeg does not run ffmpeg/);
  });

  it('checks nothing in a process that runs no jobs (the API beside workers)', async () => {
    const { sut, logged } = check({ FFMPEG_PATH: '/nonexistent/ffmpeg' }, false);
    await sut.onApplicationBootstrap();
    expect(logged).toEqual({ log: [], warn: [], error: [] });
  });

  it('refuses a relative FFMPEG_PATH in the configuration', () => {
    expect(() => testConfig({}, { FFMPEG_PATH: 'bin/ffmpeg' })).toThrow(
      'FFMPEG_PATH must be the absolute path of an ffmpeg binary, e.g. /usr/bin/ffmpeg',
    );
  });
});
