import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserStateSummary } from '../src/protocol/events/state.events';
import { pollUntil } from '../src/shared/time';
import { ExtensionDriver, NodeDriver, type Driver } from '../test/e2e/harness/drivers';
import type { PageServer } from './page-server';
import { median, percentile, round } from './stats';

export interface VideoRow {
  transport: string;
  /** A page at rest between steps, or one repainting every frame (the screencast's worst case). */
  page: string;
  /** record_video_framerate: the cap on frames kept a second. */
  fps_cap: number;
  /**
   * The mean pause between steps (an agent's model thinking), outside the step's timing; 0: back to
   * back. Each pause is drawn between half and one and a half times it (seeded), so a step's start
   * falls at any point of the recorder's frame interval, as a model's answer does.
   */
  think_ms: number;
  off_median_ms: number;
  on_median_ms: number;
  /** Median of the per-round ratios on / off (rounds alternate, so load drifts hit both). */
  ratio: number;
  off_p90_ms: number;
  on_p90_ms: number;
  /** Frames kept per second of video: while commands run back to back the recorder yields to them. */
  frames_per_second: number;
  /** Writing the file after recording stops (Node: ffmpeg's encode; the extension: finalize and download). */
  write_ms_per_recorded_second: number;
  kb_per_recorded_second: number;
}

interface Saved {
  path: string;
  frames: number;
  duration_seconds: number;
}

/** A page that repaints every frame: the screencast sends all it can, the worst case for recording. */
const ANIMATE = `(() => {
  const box = document.createElement('div');
  box.id = 'bench-spinner';
  box.style.cssText = 'position:fixed;right:40px;top:40px;width:120px;height:120px;background:linear-gradient(90deg,#f00,#00f)';
  box.animate([{ transform: 'rotate(0deg)' }, { transform: 'rotate(360deg)' }], { duration: 1000, iterations: Infinity });
  document.body.append(box);
  return true;
})()`;

async function savedRecordings(driver: Driver): Promise<Saved[]> {
  if (driver instanceof NodeDriver) {
    return driver.session.bus
      .history()
      .filter((view) => view.type === 'RecordingSavedEvent')
      .map((view) => view.payload as Saved);
  }
  return (driver as ExtensionDriver).inWorker<Saved[]>(
    `globalThis.tabpilot.session.bus.history().filter((view) => view.type === 'RecordingSavedEvent').map((view) => view.payload)`,
  );
}

async function errorsOf(driver: Driver): Promise<unknown[]> {
  if (driver instanceof NodeDriver) {
    return driver.session.bus
      .history()
      .filter((view) => view.type === 'BrowserErrorEvent')
      .map((view) => view.payload);
  }
  return (driver as ExtensionDriver).inWorker<unknown[]>(
    `globalThis.tabpilot.session.bus.history().filter((view) => view.type === 'BrowserErrorEvent').map((view) => view.payload)`,
  );
}

/** mulberry32: the same pauses in every run, so runs compare. */
function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface VideoOptions {
  rounds: number;
  steps: number;
  transports: string[];
  framerates: number[];
  thinkMs: number[];
}

/**
 * A click-and-state loop (the agent's step: act, then look) with and without recording, side by side
 * over both transports, on a page at rest between steps and on one that repaints every frame, with the
 * steps back to back and with a pause between them as an agent's model makes. Rounds alternate a block
 * without recording and a block with it; each recording is written (and waited for) between blocks,
 * outside the timing. The extension keeps its encoder document for 30 s after a recording, so only the
 * warm-up round starts one.
 */
export async function benchVideo(pages: PageServer, options: VideoOptions): Promise<VideoRow[]> {
  const rows: VideoRow[] = [];
  for (const transport of options.transports) {
    for (const thinkMs of options.thinkMs) {
      for (const animated of [false, true]) {
        for (const fps of options.framerates) {
          rows.push(await benchOne(pages, transport, fps, animated, thinkMs, options));
        }
      }
    }
  }
  return rows;
}

async function benchOne(
  pages: PageServer,
  transport: string,
  fps: number,
  animated: boolean,
  thinkMs: number,
  options: { rounds: number; steps: number },
): Promise<VideoRow> {
  {
    const outputDir = mkdtempSync(join(tmpdir(), 'tabpilot-bench-video-'));
    const driver: Driver =
      transport === 'node'
        ? await NodeDriver.start({ config: { output_dir: outputDir, viewport: { width: 1280, height: 720 } } })
        : await ExtensionDriver.start();
    try {
      const tab = await driver.openTab(pages.url('form'));
      await driver.ok('switch', { tab_id: tab });
      if (animated) {
        await driver.evaluateInTab(tab, ANIMATE);
      }
      const state = await driver.ok<BrowserStateSummary>('state', {});
      const button = state.elements.find((entry) => entry.name === 'Bench click target');
      if (button === undefined) {
        throw new Error('the bench button is not in the state');
      }
      const nextPause = seededRandom(0x7ab);
      const step = async (): Promise<number> => {
        if (thinkMs > 0) {
          await new Promise((resolve) => setTimeout(resolve, thinkMs * (0.5 + nextPause())));
        }
        const started = performance.now();
        await driver.ok('click', { index: button.index });
        await driver.ok('state', {});
        return performance.now() - started;
      };
      // Warm both paths (the extension's offscreen document, ffmpeg's first start) before timing.
      const off: number[] = [];
      const on: number[] = [];
      const ratios: number[] = [];
      let frames = 0;
      let seconds = 0;
      let writeMs = 0;
      let bytes = 0;
      for (let round = -1; round < options.rounds; round++) {
        const offBlock: number[] = [];
        for (let i = 0; i < options.steps; i++) {
          offBlock.push(await step());
        }
        // History keeps the last events only (a block of steps pushes older ones out), so the new
        // recording is told apart by its path (each file is named by its start time), not by a count.
        const seen = new Set((await savedRecordings(driver)).map((entry) => entry.path));
        await driver.setConfig({ record_video_dir: 'videos', record_video_framerate: fps });
        const onBlock: number[] = [];
        for (let i = 0; i < options.steps; i++) {
          onBlock.push(await step());
        }
        const stopped = performance.now();
        await driver.setConfig({ record_video_dir: null });
        const saved = await pollUntil(
          async () => (await savedRecordings(driver)).find((entry) => !seen.has(entry.path)),
          {
            timeoutMs: 60_000,
            intervalMs: 50,
            onTimeout: () => new Error('the recording was never written'),
          },
        ).catch(async (error: unknown) => {
          throw new Error(`${transport} at ${fps} fps: ${String(error)}: ${JSON.stringify(await errorsOf(driver))}`);
        });
        if (round < 0) {
          continue;
        }
        writeMs += performance.now() - stopped;
        off.push(...offBlock);
        on.push(...onBlock);
        ratios.push(median(onBlock) / median(offBlock));
        frames += saved.frames;
        seconds += saved.duration_seconds;
        bytes += statSync(saved.path).size;
        if (transport === 'extension') {
          rmSync(saved.path, { force: true });
        }
      }
      return {
        transport,
        page: animated ? 'repainting' : 'at rest',
        fps_cap: fps,
        think_ms: thinkMs,
        off_median_ms: round(median(off), 1),
        on_median_ms: round(median(on), 1),
        ratio: round(median(ratios), 3),
        off_p90_ms: round(percentile(off, 90), 1),
        on_p90_ms: round(percentile(on, 90), 1),
        frames_per_second: round(frames / seconds, 1),
        write_ms_per_recorded_second: round(writeMs / seconds, 0),
        kb_per_recorded_second: round(bytes / 1024 / seconds, 0),
      };
    } finally {
      await driver.close();
      rmSync(outputDir, { recursive: true, force: true });
    }
  }
}
