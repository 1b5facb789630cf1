import { execFile, spawn } from 'node:child_process';
import { constants as fsConstants } from 'node:fs';
import { access, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import sharp from 'sharp';

/**
 * The ffmpeg a process runs, and where it came from. Results downloaded from AI vendors go through
 * it, so it should be the system's, kept up to date by its package manager: FFMPEG_PATH when set,
 * else `ffmpeg` on PATH (Debian's `ffmpeg` package in the image and on CI). The build bundled by
 * the npm package @ffmpeg-installer/ffmpeg (a static build of December 2018) is only the fallback
 * that keeps `npm install && npm start` working on a machine with Node alone.
 */
export interface FfmpegBinary {
  /** absolute path of the binary */
  path: string;
  /** the version word of `ffmpeg -version`: `5.1.9-0+deb12u1`, `N-47683-g0e8eb07980-static` */
  version: string;
  /** the last year of its copyright line, which dates a build whose version is a git snapshot */
  year?: number;
  source: 'FFMPEG_PATH' | 'PATH' | 'bundled';
}

/** What `ffmpeg -version` says of a binary, or why it does not run. */
export async function ffmpegVersion(binary: string): Promise<{ version: string; year?: number } | { error: string }> {
  return new Promise((resolve) => {
    execFile(binary, ['-version'], { timeout: 15_000, encoding: 'utf8' }, (error, stdout) => {
      const version = /^ffmpeg version (\S+)/.exec(stdout ?? '')?.[1];
      if (error || !version) {
        resolve({ error: error ? error.message.split('\n')[0] : 'not ffmpeg: `-version` did not print "ffmpeg version"' });
        return;
      }
      const year = /Copyright \(c\) \d{4}-(\d{4})/.exec(stdout)?.[1];
      resolve({ version, year: year ? Number(year) : undefined });
    });
  });
}

async function isExecutableFile(file: string): Promise<boolean> {
  try {
    await access(file, fsConstants.X_OK);
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** The bundled static build's path, if the npm package is installed for this platform. */
function bundledFfmpeg(): string | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- an optional package: absent from the image, and on platforms it has no build for
    return (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
  } catch {
    return undefined;
  }
}

/**
 * Finds the ffmpeg to run: `configuredPath` (FFMPEG_PATH) when given, which must run (else this
 * throws, naming it); otherwise the first `ffmpeg` on `searchPath` (PATH) that runs; otherwise the
 * bundled build. Throws when there is none.
 */
export async function findFfmpeg(
  options: { configuredPath?: string; searchPath?: string; bundled?: () => string | undefined } = {},
): Promise<FfmpegBinary> {
  if (options.configuredPath) {
    const found = await ffmpegVersion(options.configuredPath);
    if ('error' in found) throw new Error(`FFMPEG_PATH=${options.configuredPath} does not run ffmpeg: ${found.error}`);
    return { path: options.configuredPath, ...found, source: 'FFMPEG_PATH' };
  }
  for (const dir of (options.searchPath ?? process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.resolve(dir, 'ffmpeg');
    if (!(await isExecutableFile(candidate))) continue;
    const found = await ffmpegVersion(candidate);
    if (!('error' in found)) return { path: candidate, ...found, source: 'PATH' };
  }
  const bundled = (options.bundled ?? bundledFfmpeg)();
  if (bundled) {
    const found = await ffmpegVersion(bundled);
    if (!('error' in found)) return { path: bundled, ...found, source: 'bundled' };
  }
  throw new Error('No ffmpeg found: install it (Debian: apt-get install ffmpeg; macOS: brew install ffmpeg) or set FFMPEG_PATH');
}

/** One line for the log: which ffmpeg this process runs, and from where. */
export function describeFfmpeg(ffmpeg: FfmpegBinary): string {
  const built = ffmpeg.year ? `, built ${ffmpeg.year}` : '';
  if (ffmpeg.source === 'bundled') {
    return (
      `ffmpeg: none on PATH, using the build bundled with @ffmpeg-installer/ffmpeg (${ffmpeg.version}${built}), ` +
      `which processes files downloaded from AI vendors with a decoder years out of date: install ffmpeg ` +
      `(apt-get install ffmpeg, brew install ffmpeg) or set FFMPEG_PATH`
    );
  }
  return `ffmpeg ${ffmpeg.version}${built} (${ffmpeg.path}${ffmpeg.source === 'FFMPEG_PATH' ? ', FFMPEG_PATH' : ''})`;
}

let selected: { key: string; ffmpeg: Promise<FfmpegBinary> } | undefined;

/**
 * Chooses the ffmpeg of this process (findFfmpeg) and keeps it for every later run. Called at start
 * with FFMPEG_PATH (FfmpegCheck); a process that never called it (a script, a test's fake vendor)
 * looks on PATH at its first run. Asked again with the same FFMPEG_PATH and PATH (another app
 * started in the same process, as tests do), it answers without running `ffmpeg -version` again.
 */
export function selectFfmpeg(options: { configuredPath?: string } = {}): Promise<FfmpegBinary> {
  const key = `${options.configuredPath ?? ''}\0${process.env.PATH ?? ''}`;
  if (selected?.key === key) return selected.ffmpeg;
  const ffmpeg = findFfmpeg(options);
  ffmpeg.catch(() => undefined); // a rejection is reported to whoever awaits it, not as unhandled
  selected = { key, ffmpeg };
  return ffmpeg;
}

/** The ffmpeg chosen for this process. */
export function currentFfmpeg(): Promise<FfmpegBinary> {
  return selected?.ffmpeg ?? selectFfmpeg();
}

/** Runs ffmpeg with `args`; rejects with the tail of its stderr when it fails or exceeds `timeoutMs`. */
export async function runFfmpeg(args: string[], timeoutMs = 120_000): Promise<void> {
  const binary = (await currentFfmpeg()).path;
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`ffmpeg failed (${signal ?? `exit ${code}`}): ${stderr.trim().split('\n').slice(-3).join(' | ')}`));
    });
  });
}

/** Runs `work` with a private temporary directory, removed afterwards whatever happens. */
export async function withTempDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'fr-media-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A short MP4 (H.264, yuv420p, 720x1000, about 3 s) slowly zooming into a still picture. */
export async function stillToVideo(
  jpeg: Buffer,
  options: { width?: number; height?: number; seconds?: number; fps?: number } = {},
): Promise<Buffer> {
  const width = options.width ?? 720;
  const height = options.height ?? 1000;
  const fps = options.fps ?? 25;
  const frames = Math.round((options.seconds ?? 3) * fps);
  return withTempDir(async (dir) => {
    const input = path.join(dir, 'still.jpg');
    const output = path.join(dir, 'out.mp4');
    await writeFile(input, jpeg);
    await runFfmpeg([
      '-loop',
      '1',
      '-i',
      input,
      '-vf',
      `scale=${width * 2}:${height * 2},zoompan=z='min(zoom+0.0012,1.1)':d=${frames}:x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)':s=${width}x${height}:fps=${fps}`,
      '-frames:v',
      String(frames),
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '23',
      '-pix_fmt',
      'yuv420p',
      '-movflags',
      '+faststart',
      output,
    ]);
    return readFile(output);
  });
}

/** The same MP4 with `metadata` written into its container (no re-encoding). */
export async function tagVideo(mp4: Buffer, metadata: Record<string, string>): Promise<Buffer> {
  return withTempDir(async (dir) => {
    const input = path.join(dir, 'in.mp4');
    const output = path.join(dir, 'out.mp4');
    await writeFile(input, mp4);
    const tags = Object.entries(metadata).flatMap(([k, v]) => ['-metadata', `${k}=${v}`]);
    await runFfmpeg(['-i', input, '-map', '0', '-c', 'copy', ...tags, '-movflags', '+faststart+use_metadata_tags', '-f', 'mp4', output]);
    return readFile(output);
  });
}

/** Reads the container tags of an MP4 (ffmpeg -f ffmetadata), for tests and checks. */
export async function readVideoTags(mp4: Buffer): Promise<Record<string, string>> {
  return withTempDir(async (dir) => {
    const input = path.join(dir, 'in.mp4');
    const output = path.join(dir, 'meta.txt');
    await writeFile(input, mp4);
    await runFfmpeg(['-i', input, '-f', 'ffmetadata', output]);
    const tags: Record<string, string> = {};
    for (const line of (await readFile(output, 'utf8')).split('\n')) {
      const eq = line.indexOf('=');
      if (eq > 0 && !line.startsWith(';')) tags[line.slice(0, eq)] = line.slice(eq + 1);
    }
    return tags;
  });
}

/**
 * The MP4 with `overlayPng` drawn at its own pixel size, its top-left corner at (x, y), on every
 * frame (nothing scales it: the caller renders it for the video's size, see videoSize), re-encoded
 * as H.264, audio copied, and `metadata` written into the container.
 */
export async function overlayVideo(
  mp4: Buffer,
  overlayPng: Buffer,
  options: { x: number; y: number; metadata: Record<string, string> },
): Promise<Buffer> {
  return withTempDir(async (dir) => {
    const input = path.join(dir, 'in.mp4');
    const badge = path.join(dir, 'badge.png');
    const output = path.join(dir, 'out.mp4');
    await writeFile(input, mp4);
    await writeFile(badge, overlayPng);
    const tags = Object.entries(options.metadata).flatMap(([k, v]) => ['-metadata', `${k}=${v}`]);
    await runFfmpeg([
      '-i',
      input,
      '-i',
      badge,
      '-filter_complex',
      `[0:v][1:v]overlay=x=${Math.round(options.x)}:y=${Math.round(options.y)}:format=auto,format=yuv420p[out]`,
      '-map',
      '[out]',
      '-map',
      '0:a?',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '20',
      '-c:a',
      'copy',
      ...tags,
      '-movflags',
      '+faststart+use_metadata_tags',
      '-f',
      'mp4',
      output,
    ]);
    return readFile(output);
  });
}

/**
 * Width and height of a video's frames as ffmpeg decodes them (a phone video with a rotation tag
 * comes out upright, as the overlay filter sees it), read from its first frame.
 */
export async function videoSize(mp4: Buffer): Promise<{ width: number; height: number }> {
  const meta = await sharp(await firstFrame(mp4)).metadata();
  if (!meta.width || !meta.height) throw new Error('ffmpeg decoded a first frame without a size');
  return { width: meta.width, height: meta.height };
}

/** The first frame of an MP4, as a PNG (for its perceptual hash). */
export async function firstFrame(mp4: Buffer): Promise<Buffer> {
  return withTempDir(async (dir) => {
    const input = path.join(dir, 'in.mp4');
    const output = path.join(dir, 'frame.png');
    await writeFile(input, mp4);
    await runFfmpeg(['-i', input, '-frames:v', '1', output]);
    return readFile(output);
  });
}
