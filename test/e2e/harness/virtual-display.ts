import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pollUntil } from '../../../src/shared/time';
import { decodeXwd, type RgbaImage } from './image';

export const SCREEN_WIDTH = 1280;
export const SCREEN_HEIGHT = 800;

function installed(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** A display number no other X server holds. */
function freeDisplay(): number {
  for (let display = 90 + (process.pid % 50); display < 400; display++) {
    if (!existsSync(`/tmp/.X${display}-lock`) && !existsSync(`/tmp/.X11-unix/X${display}`)) {
      return display;
    }
  }
  throw new Error('no free X display number between :90 and :400');
}

/**
 * An Xvfb screen for the headed tests (what only a visible browser shows: the debugging infobar and its
 * Cancel, keyboard shortcuts, windows with background tabs). The screen is kept in an XWD file
 * (-fbdir), so a test can look at the browser's own UI, and xdotool drives the real pointer and keys.
 */
export class VirtualDisplay {
  readonly display: string;
  readonly #process: ChildProcess;
  readonly #fbDir: string;

  private constructor(display: string, child: ChildProcess, fbDir: string) {
    this.display = display;
    this.#process = child;
    this.#fbDir = fbDir;
  }

  /** Fails (never skips) when Xvfb or xdotool is missing: .ci/run installs them. */
  static async start(): Promise<VirtualDisplay> {
    const missing = ['Xvfb', 'xdotool'].filter((command) => !installed(command));
    if (missing.length > 0) {
      throw new Error(
        `The headed tests need ${missing.join(' and ')} (Debian packages xvfb and xdotool): apt-get install -y xvfb xdotool. .ci/run installs them.`,
      );
    }
    const number = freeDisplay();
    const fbDir = mkdtempSync(join(tmpdir(), 'tabpilot-xvfb-'));
    const child = spawn(
      'Xvfb',
      [`:${number}`, '-screen', '0', `${SCREEN_WIDTH}x${SCREEN_HEIGHT}x24`, '-fbdir', fbDir, '-nolisten', 'tcp'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    let exited = false;
    child.once('exit', () => {
      exited = true;
    });
    await pollUntil(
      () => {
        if (exited) {
          throw new Error(`Xvfb :${number} exited at start: ${stderr.trim()}`);
        }
        return existsSync(`/tmp/.X11-unix/X${number}`) ? Promise.resolve(true) : Promise.resolve(undefined);
      },
      { timeoutMs: 10_000, intervalMs: 50, onTimeout: () => new Error(`Xvfb :${number} did not start: ${stderr}`) },
    );
    return new VirtualDisplay(`:${number}`, child, fbDir);
  }

  /** What the screen shows now. */
  screen(): RgbaImage {
    return decodeXwd(readFileSync(join(this.#fbDir, 'Xvfb_screen0')));
  }

  /** Runs xdotool on this display. */
  xdotool(...args: string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      execFile('xdotool', args, { env: { ...process.env, DISPLAY: this.display } }, (error, stdout, stderr) => {
        if (error !== null) {
          reject(new Error(`xdotool ${args.join(' ')} failed: ${stderr || error.message}`));
        } else {
          resolve(stdout.trim());
        }
      });
    });
  }

  /** A real left click at screen coordinates. */
  async click(x: number, y: number): Promise<void> {
    await this.xdotool('mousemove', '--sync', String(Math.round(x)), String(Math.round(y)), 'click', '1');
  }

  /** Gives the browser window keyboard focus and presses a key combination (e.g. alt+shift+s). */
  async pressInWindow(windowClass: string, keys: string): Promise<void> {
    const [windowId] = (await this.xdotool('search', '--onlyvisible', '--class', windowClass)).split('\n');
    if (windowId === undefined || windowId === '') {
      throw new Error(`no visible ${windowClass} window on ${this.display}`);
    }
    await this.xdotool('windowactivate', '--sync', windowId).catch(() =>
      // Without a window manager there is nothing to activate through; focus it directly.
      this.xdotool('windowfocus', '--sync', windowId),
    );
    await this.xdotool('key', '--clearmodifiers', keys);
  }

  async stop(): Promise<void> {
    if (this.#process.exitCode === null) {
      const exited = new Promise<void>((resolve) => this.#process.once('exit', () => resolve()));
      this.#process.kill('SIGTERM');
      await exited;
    }
    rmSync(this.#fbDir, { recursive: true, force: true });
  }
}

/** Pixels of the saturated blue Chrome paints its primary buttons with (the infobar's Cancel). */
export function isPrimaryButtonBlue(r: number, g: number, b: number): boolean {
  return b > 170 && r < 80 && g > 60 && g < 140;
}

/**
 * The bounding box of the primary-blue pixels inside a band of the screen (the infobar row), if there
 * is a button-sized patch of them.
 */
export function findPrimaryButton(
  image: RgbaImage,
  band: { top: number; bottom: number },
): { x: number; y: number; width: number; height: number } | undefined {
  let [left, right, top, bottom, count] = [Infinity, -Infinity, Infinity, -Infinity, 0];
  for (let y = Math.max(0, band.top); y < Math.min(image.height, band.bottom); y++) {
    for (let x = 0; x < image.width; x++) {
      const offset = (y * image.width + x) * 4;
      if (isPrimaryButtonBlue(image.data[offset] ?? 0, image.data[offset + 1] ?? 0, image.data[offset + 2] ?? 0)) {
        left = Math.min(left, x);
        right = Math.max(right, x);
        top = Math.min(top, y);
        bottom = Math.max(bottom, y);
        count++;
      }
    }
  }
  const width = right - left + 1;
  const height = bottom - top + 1;
  // A button is a solid patch a few dozen pixels each way; stray pixels (icons, text) are not.
  if (count < 300 || width > 300 || height > 60 || count < width * height * 0.5) {
    return undefined;
  }
  return { x: left, y: top, width, height };
}
