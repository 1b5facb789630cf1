import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

/** The ffmpeg binary of @ffmpeg-installer/ffmpeg (built with libx264). */
export function ffmpegPath(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use: most processes never encode a video
  return (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
}

/** Runs ffmpeg with `args`; rejects with the tail of its stderr when it fails or exceeds `timeoutMs`. */
export function runFfmpeg(args: string[], timeoutMs = 120_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegPath(), ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', ...args], {
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
 * The MP4 with `overlayPng` drawn in its lower-right corner on every frame, `widthShare` of the
 * video's width (scale2ref sizes it to the video, whatever its resolution), re-encoded as H.264,
 * audio copied, and `metadata` written into the container.
 */
export async function overlayVideo(
  mp4: Buffer,
  overlayPng: Buffer,
  options: { widthShare: number; metadata: Record<string, string> },
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
      `[1:v][0:v]scale2ref=w=main_w*${options.widthShare}:h=ow*ih/iw[b][v];[v][b]overlay=x=main_w-overlay_w-main_w*0.03:y=main_h-overlay_h-main_h*0.03:format=auto,format=yuv420p[out]`,
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
