import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFfmpegVideoPort } from './ffmpeg-video';

const root = mkdtempSync(join(tmpdir(), 'tabpilot-ffmpeg-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function jpeg(colour: string, size: string): string {
  return execFileSync('ffmpeg', [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    `color=${colour}:s=${size}`,
    '-frames:v',
    '1',
    '-f',
    'image2',
    '-c:v',
    'mjpeg',
    '-',
  ]).toString('base64');
}

function probe(path: string): { width: number; height: number; frames: number; duration: number } {
  const json = JSON.parse(
    execFileSync('ffprobe', [
      '-v',
      'error',
      '-count_frames',
      '-show_entries',
      'stream=width,height,nb_read_frames:format=duration',
      '-of',
      'json',
      path,
    ]).toString(),
  ) as { streams: Array<{ width: number; height: number; nb_read_frames: string }>; format: { duration: string } };
  const stream = json.streams[0];
  return {
    width: stream?.width ?? 0,
    height: stream?.height ?? 0,
    frames: Number(stream?.nb_read_frames),
    duration: Number(json.format.duration),
  };
}

describe('the ffmpeg video port', () => {
  it('writes WebM with the frames’ own durations, letterboxing frames of another size', async () => {
    const port = createFfmpegVideoPort(() => root);
    const sink = await port.open({ dir: 'videos', fileName: 'a.webm', width: 320, height: 180 });
    await sink.add({ data: jpeg('red', '320x180'), timestamp: 0, duration: 2.5 });
    // Another tab with another viewport: letterboxed into the video's size.
    await sink.add({ data: jpeg('blue', '200x200'), timestamp: 2.5, duration: 1.0 });
    await sink.add({ data: jpeg('blue', '200x200'), timestamp: 3.5, duration: 0.04 });
    const path = await sink.finish();
    expect(path).toBe(join(root, 'videos', 'a.webm'));
    const probed = probe(path);
    expect({ width: probed.width, height: probed.height }).toEqual({ width: 320, height: 180 });
    expect(probed.frames).toBeGreaterThanOrEqual(3);
    expect(probed.duration).toBeGreaterThan(3.45);
    expect(probed.duration).toBeLessThan(3.7);
  });

  it('refuses a record_video_dir that cannot be a folder, naming the field', async () => {
    writeFileSync(join(root, 'not-a-folder'), 'x');
    const port = createFfmpegVideoPort(() => root);
    await expect(port.open({ dir: 'not-a-folder', fileName: 'b.webm', width: 320, height: 180 })).rejects.toMatchObject(
      {
        code: 'INVALID_PARAMS',
        field: 'record_video_dir',
      },
    );
  });

  it('says plainly, as recording starts, when ffmpeg is missing', async () => {
    const port = createFfmpegVideoPort(() => root, join(root, 'no-such-ffmpeg'));
    await expect(port.open({ dir: 'videos', fileName: 'c.webm', width: 320, height: 180 })).rejects.toMatchObject({
      code: 'UNSUPPORTED',
      message: expect.stringContaining('needs ffmpeg'),
    });
  });
});
