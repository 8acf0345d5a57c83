import { spawn } from 'node:child_process';

/** What ffprobe says about a video file: the tool a person would open it with, not our own reader. */
export interface ProbedVideo {
  codec: string;
  width: number;
  height: number;
  frames: number;
  duration: number;
}

function run(command: string, args: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`${command} exit ${code}: ${err}`)),
    );
  });
}

export async function probeVideo(path: string): Promise<ProbedVideo> {
  const json = JSON.parse(
    (
      await run('ffprobe', [
        '-v',
        'error',
        '-select_streams',
        'v:0',
        '-count_frames',
        '-show_entries',
        'stream=codec_name,width,height,nb_read_frames:format=duration,format_name',
        '-of',
        'json',
        path,
      ])
    ).toString(),
  ) as {
    streams: Array<{ codec_name: string; width: number; height: number; nb_read_frames: string }>;
    format: { duration: string; format_name: string };
  };
  const stream = json.streams[0];
  if (stream === undefined) {
    throw new Error(`${path} has no video stream`);
  }
  return {
    codec: stream.codec_name,
    width: stream.width,
    height: stream.height,
    frames: Number(stream.nb_read_frames),
    duration: Number(json.format.duration),
  };
}

/**
 * The video as ffmpeg plays it, sampled `perSecond` times a second, each sample the average colour of
 * the whole picture: enough to tell which page was on screen when.
 */
export async function sampleColours(path: string, perSecond: number): Promise<Array<[number, number, number]>> {
  const raw = await run('ffmpeg', [
    '-v',
    'error',
    '-i',
    path,
    '-vf',
    `fps=${perSecond},scale=1:1:flags=area`,
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgb24',
    '-',
  ]);
  const out: Array<[number, number, number]> = [];
  for (let i = 0; i + 2 < raw.length; i += 3) {
    out.push([raw[i] ?? 0, raw[i + 1] ?? 0, raw[i + 2] ?? 0]);
  }
  return out;
}

/** 'red', 'blue' or 'other', for the two solid test pages. */
export function colourName([r, g, b]: [number, number, number]): 'red' | 'blue' | 'other' {
  if (r > 180 && g < 80 && b < 80) {
    return 'red';
  }
  if (b > 180 && r < 80 && g < 80) {
    return 'blue';
  }
  return 'other';
}
