import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigError } from '../../../browser/config';
import type { TimedFrame, VideoRecorderPort, VideoSink } from '../../../browser/host';
import { TabpilotError } from '../../../shared/errors';

/**
 * Node: frames are kept as the JPEG files the browser sent, each with its duration, and ffmpeg
 * (libvpx VP8) turns them into WebM when the recording ends. Nothing is decoded or encoded while the
 * session runs, so recording costs the commands no CPU beyond writing each frame once; the price is
 * paid at stop (measured by `npm run bench -- --only video`).
 */
export function createFfmpegVideoPort(outputDir: () => string, ffmpeg = 'ffmpeg'): VideoRecorderPort {
  // Asked once per port (a failed look is asked again): starting ffmpeg at every recording would take
  // CPU from the commands running as the recording starts.
  let found: Promise<void> | undefined;
  const ffmpegThere = (): Promise<void> => {
    found ??= run(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-version']).catch((error: unknown) => {
      found = undefined;
      throw error;
    });
    return found;
  };
  return {
    async open({ dir, fileName, width, height }): Promise<VideoSink> {
      const folder = resolve(outputDir(), dir);
      try {
        await mkdir(folder, { recursive: true });
        await access(folder, constants.W_OK);
      } catch (error) {
        throw new ConfigError('record_video_dir', `${folder} is not a writable folder (${String(error)})`);
      }
      // A missing ffmpeg is said when recording starts, not after the session, when the frames are in.
      await ffmpegThere();
      const frames = await mkdtemp(join(tmpdir(), 'tabpilot-video-'));
      return new FfmpegSink(ffmpeg, frames, join(folder, fileName), width, height);
    },
  };
}

class FfmpegSink implements VideoSink {
  readonly #ffmpeg: string;
  readonly #frames: string;
  readonly #path: string;
  readonly #width: number;
  readonly #height: number;
  /** The ffmpeg concat script: each frame's file and how long it stays. */
  readonly #script: string[] = ['ffconcat version 1.0'];
  #count = 0;
  #last: string | undefined;

  constructor(ffmpeg: string, frames: string, path: string, width: number, height: number) {
    this.#ffmpeg = ffmpeg;
    this.#frames = frames;
    this.#path = path;
    this.#width = width;
    this.#height = height;
  }

  async add(frame: TimedFrame): Promise<void> {
    const name = `${String(this.#count++).padStart(7, '0')}.jpg`;
    await writeFile(join(this.#frames, name), Buffer.from(frame.data, 'base64'));
    this.#script.push(`file ${name}`, `duration ${frame.duration.toFixed(6)}`);
    this.#last = name;
  }

  async finish(): Promise<string> {
    if (this.#last === undefined) {
      throw new TabpilotError('INTERNAL', 'No frame to write');
    }
    // The concat demuxer drops the last entry's duration: the last frame is listed once more, so the
    // video ends where the recording did.
    const script = [...this.#script, `file ${this.#last}`].join('\n');
    const list = join(this.#frames, 'frames.ffconcat');
    await writeFile(list, `${script}\n`);
    const partial = `${this.#path}.part`;
    const { width: w, height: h } = { width: this.#width, height: this.#height };
    try {
      await run(this.#ffmpeg, [
        '-hide_banner',
        '-loglevel',
        'error',
        '-y',
        '-f',
        'concat',
        '-safe',
        '0',
        '-i',
        list,
        '-vf',
        `scale=${w}:${h}:force_original_aspect_ratio=decrease,pad=${w}:${h}:(ow-iw)/2:(oh-ih)/2,format=yuv420p`,
        '-fps_mode',
        'vfr',
        '-c:v',
        'libvpx',
        '-deadline',
        'realtime',
        '-cpu-used',
        '8',
        '-b:v',
        '2M',
        '-auto-alt-ref',
        '0',
        '-f',
        'webm',
        partial,
      ]);
      await rename(partial, this.#path);
    } finally {
      await rm(this.#frames, { recursive: true, force: true });
      await rm(partial, { force: true });
    }
    return this.#path;
  }

  async discard(): Promise<void> {
    await rm(this.#frames, { recursive: true, force: true });
  }
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-4000);
    });
    child.once('error', (error) =>
      reject(new TabpilotError('UNSUPPORTED', `Recording needs ffmpeg (${command}): ${error.message}`)),
    );
    child.once('exit', (code, signal) => {
      if (code === 0) {
        resolvePromise();
      } else {
        reject(new TabpilotError('INTERNAL', `ffmpeg failed (${signal ?? `exit ${code}`}): ${stderr.trim()}`));
      }
    });
  });
}
