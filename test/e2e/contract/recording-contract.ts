import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUSY_MAX_GAP_MS } from '../../../src/browser/recording/frame-poller';
import { pollUntil } from '../../../src/shared/time';
import type { Driver } from '../harness/drivers';
import { FixtureServer, html, page } from '../harness/fixture-server';
import { colourName, probeVideo, sampleColours } from '../harness/video-probe';

export interface SavedRecording {
  path: string;
  frames: number;
  duration_seconds: number;
  width: number;
  height: number;
}

/** What each recording-contract run needs from its driver besides the protocol. */
export interface RecordingDriverHooks {
  /** Payloads of the session's RecordingSavedEvents, oldest first, from its bus history. */
  savedRecordings(driver: Driver): Promise<SavedRecording[]>;
  /** The error events the session reported, to name a failure instead of a bare timeout. */
  errors(driver: Driver): Promise<unknown[]>;
  /** Checks where the file landed (Node: under the output folder; the extension: the profile's downloads). */
  expectLocation(path: string): void;
  /** Opens a second controlled tab and makes it the focused one, as a client would. */
  openAndFocus(driver: Driver, url: string): Promise<string>;
  /** The session's CDP connection's `idleMs`: how long none of its own calls has been in flight. */
  idleMs(driver: Driver): Promise<number>;
}

const WIDTH = 640;
const HEIGHT = 360;
/** Long enough that a recorder that timed frames by arrival count (not by clock) would be far off. */
const IDLE_SECONDS = 3;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Video recording over both transports: the focused tab is recorded to WebM as it happens, an idle
 * stretch keeps its wall-clock length, the recording follows a tab switch and a page changing in place
 * at no more than the configured frame rate, and the file is written
 * when recording is turned off and when the session stops. Every check reads the real file with
 * ffprobe/ffmpeg.
 */
export function defineRecordingContract(name: string, start: () => Promise<Driver>, hooks: RecordingDriverHooks): void {
  describe(`recording contract over ${name}`, () => {
    let driver: Driver;
    const server = new FixtureServer();
    const solid = (colour: string): string =>
      page(colour, '', `<style>html,body{margin:0;height:100%;background:${colour}}</style>`);
    server.route('/red', (_req, res) => html(res, solid('#ff0000')));
    server.route('/blue', (_req, res) => html(res, solid('#0000ff')));

    beforeAll(async () => {
      await server.start();
      driver = await start();
    });

    afterAll(async () => {
      await driver?.close();
      await server.stop();
    });

    /**
     * The recording saved after `before` was read. Told apart by its path (each file is named by its start
     * time), not by a count: the bus keeps only its last events, and a burst of commands pushes older
     * ones out.
     */
    async function nextSaved(before: readonly SavedRecording[]): Promise<SavedRecording> {
      const seen = new Set(before.map((saved) => saved.path));
      try {
        return await pollUntil(
          async () => (await hooks.savedRecordings(driver)).find((saved) => !seen.has(saved.path)),
          { timeoutMs: 30_000, intervalMs: 200, onTimeout: () => new Error('no RecordingSavedEvent') },
        );
      } catch (error) {
        throw new Error(`${String(error)}; errors reported: ${JSON.stringify(await hooks.errors(driver))}`);
      }
    }

    /** Opens the red page in a new tab and makes it the focused one. */
    async function focusedRedTab(): Promise<string> {
      const tab = await driver.openTab(server.url('/red'));
      await driver.ok('switch', { tab_id: tab });
      return tab;
    }

    /** The page turns blue in place: no focus change, no navigation; only frames taken after show it. */
    async function turnBlue(tab: string): Promise<void> {
      await driver.evaluateInTab(
        tab,
        `document.documentElement.style.background = document.body.style.background = '#0000ff'`,
      );
    }

    it('records an idle page for its wall-clock length, follows a tab switch, and writes WebM when turned off', async () => {
      const first = await focusedRedTab();
      const before = await hooks.savedRecordings(driver);
      const startedAt = Date.now();
      await driver.setConfig({ record_video_dir: 'videos', record_video_size: { width: WIDTH, height: HEIGHT } });
      // The red page paints nothing after its first frame: the recorder gets (almost) no screencast frames.
      await sleep(IDLE_SECONDS * 1000);
      const second = await hooks.openAndFocus(driver, server.url('/blue'));
      expect(second).not.toBe(first);
      await sleep(1500);
      await driver.setConfig({ record_video_dir: null });
      const stoppedAt = Date.now();
      const saved = await nextSaved(before);
      const wall = (stoppedAt - startedAt) / 1000;

      hooks.expectLocation(saved.path);
      expect(existsSync(saved.path)).toBe(true);
      const probed = await probeVideo(saved.path);
      expect(probed.codec).toBe('vp8');
      expect({ width: probed.width, height: probed.height }).toEqual({ width: WIDTH, height: HEIGHT });
      expect(probed.frames).toBeGreaterThan(0);
      // Video time runs from when recording started (after the config took effect) to when it was turned
      // off: within the wall-clock span, and short of it only by the start-up of the recorder.
      expect(probed.duration).toBeLessThanOrEqual(wall + 0.25);
      expect(probed.duration).toBeGreaterThan(wall - 1.5);
      expect(Math.abs(probed.duration - saved.duration_seconds)).toBeLessThan(0.25);

      // Sampled 4 times a second: red through the idle stretch, then blue once focus moved.
      const colours = (await sampleColours(saved.path, 4)).map(colourName);
      expect(colours[0]).toBe('red');
      expect(colours.at(-1)).toBe('blue');
      const firstBlue = colours.indexOf('blue');
      expect(colours.slice(0, firstBlue).every((colour) => colour === 'red')).toBe(true);
      expect(colours.slice(firstBlue).every((colour) => colour === 'blue')).toBe(true);
      expect(firstBlue / 4).toBeGreaterThan(IDLE_SECONDS - 1.5);
    });

    it('films a page that changes in place, keeping at most record_video_framerate frames a second', async () => {
      const tab = await focusedRedTab();
      const before = await hooks.savedRecordings(driver);
      const framerate = 4;
      await driver.setConfig({
        record_video_dir: 'videos',
        record_video_size: { width: WIDTH, height: HEIGHT },
        record_video_framerate: framerate,
      });
      await sleep(1500);
      await turnBlue(tab);
      await sleep(1500);
      await driver.setConfig({ record_video_dir: null, record_video_framerate: 5 });
      const saved = await nextSaved(before);

      const probed = await probeVideo(saved.path);
      // One frame per interval from time 0, the closing copy of the last frame, and (Node) the concat
      // script's repeat of it: no more.
      expect(saved.frames).toBeLessThanOrEqual(framerate * saved.duration_seconds + 2);
      expect(probed.frames).toBeLessThanOrEqual(framerate * probed.duration + 3);
      const colours = (await sampleColours(saved.path, 4)).map(colourName);
      expect(colours[0]).toBe('red');
      expect(colours.at(-1)).toBe('blue');
      const firstBlue = colours.indexOf('blue');
      expect(colours.slice(0, firstBlue).every((colour) => colour === 'red')).toBe(true);
      expect(colours.slice(firstBlue).every((colour) => colour === 'blue')).toBe(true);
    });

    it('counts an idle session as idle while it records, so frames come at the full rate between commands', async () => {
      await focusedRedTab();
      await driver.ok('state', {});
      await driver.setConfig({ record_video_dir: 'videos', record_video_size: { width: WIDTH, height: HEIGHT } });
      await sleep(1000);
      // Calls that stay pending (the indicator's wait for Stop, the recorder's own frames) are background
      // calls; were one counted, the recorder would take frames as if commands never stopped.
      expect(await hooks.idleMs(driver)).toBeGreaterThan(800);
      await driver.setConfig({ record_video_dir: null });
    });

    it('keeps filming while commands run back to back: a change made mid-burst is in the video within BUSY_MAX_GAP_MS', async () => {
      const tab = await focusedRedTab();
      const before = await hooks.savedRecordings(driver);
      const startedAt = Date.now();
      await driver.setConfig({ record_video_dir: 'videos', record_video_size: { width: WIDTH, height: HEIGHT } });
      const burst = async (ms: number): Promise<void> => {
        const until = Date.now() + ms;
        while (Date.now() < until) {
          await driver.ok('state', {});
        }
      };
      await sleep(500);
      await burst(1000);
      await turnBlue(tab);
      // Seconds from just before recording started: the video's clock starts a little later.
      const blueAt = (Date.now() - startedAt) / 1000;
      // The recorder yields to these commands, but not for longer than BUSY_MAX_GAP_MS; recording ends
      // with the burst, so only a frame taken during it can show the blue page.
      await burst(BUSY_MAX_GAP_MS + 1000);
      await driver.setConfig({ record_video_dir: null });
      const saved = await nextSaved(before);

      const colours = (await sampleColours(saved.path, 10)).map(colourName);
      const firstBlue = colours.indexOf('blue');
      expect(colours[0]).toBe('red');
      expect(firstBlue, colours.join(' ')).toBeGreaterThan(0);
      expect(firstBlue / 10).toBeLessThanOrEqual(blueAt + BUSY_MAX_GAP_MS / 1000 + 0.5);
      expect(colours.slice(firstBlue).every((colour) => colour === 'blue')).toBe(true);
    });

    it('writes the recording when the session stops', async () => {
      await driver.openTab(server.url('/red'));
      const before = await hooks.savedRecordings(driver);
      await driver.setConfig({ record_video_dir: 'videos', record_video_size: null });
      await sleep(1000);
      await driver.ok('stop');
      const saved = await nextSaved(before);
      const probed = await probeVideo(saved.path);
      expect(probed.frames).toBeGreaterThan(0);
      expect(probed.duration).toBeGreaterThan(0.3);
      // No size configured: the focused tab's viewport, even-sided.
      expect(probed.width % 2).toBe(0);
      expect(probed.width).toBeGreaterThan(300);
    });
  });
}
