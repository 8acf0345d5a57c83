import type { CdpSession } from '../../cdp/session';
import { pageHidden } from './mouse';

/**
 * A hidden page (a background tab, a minimized window) draws a frame only when asked for one, and a
 * capture's own request can miss the frame it asked for: measured in Chromium 156 on a background tab
 * after a navigation, a plain capture waited until its 15 s timeout, yet answered at once when a second
 * capture came. So a capture of a hidden page that has not answered after this long is nudged by a 1 px
 * one, again each time this passes, up to HIDDEN_NUDGES times.
 */
const HIDDEN_NUDGE_MS = 250;
const HIDDEN_NUDGES = 40;

export interface ScreenshotRequest {
  fullPage: boolean;
  clip: { x: number; y: number; width: number; height: number } | null;
  format: 'png' | 'jpeg' | 'webp';
  quality: number | null;
  /** Scale the image down so neither side has more pixels than this. */
  maxSide?: number | null;
  /** Scale the image down so it has at most this many pixels (width × height). */
  maxPixels?: number | null;
}

export interface ScreenshotResult {
  data: string;
  /** What was captured, in CSS px. */
  width: number;
  height: number;
  /** The image's own size in pixels: the CSS size times the device pixel ratio and the scale. */
  imageWidth: number;
  imageHeight: number;
}

/**
 * Page.captureScreenshot of a page (never a child session: "only top-level targets"). A full page is the
 * content size captured beyond the viewport; a clip is in CSS px of the page. With a size bound the
 * browser scales the image itself (the clip's scale), so nothing is decoded or resampled here.
 */
export async function captureScreenshot(session: CdpSession, request: ScreenshotRequest): Promise<ScreenshotResult> {
  const metrics = await session.send('Page.getLayoutMetrics');
  const viewport = metrics.cssVisualViewport;
  let area: { x: number; y: number; width: number; height: number } | undefined =
    request.clip === null ? undefined : { ...request.clip };
  if (request.fullPage) {
    const content = metrics.cssContentSize;
    area = { x: 0, y: 0, width: Math.ceil(content.width), height: Math.ceil(content.height) };
  }
  const width = area?.width ?? viewport.clientWidth;
  const height = area?.height ?? viewport.clientHeight;
  // The deprecated visualViewport is in device pixels: its ratio to the CSS one is the pixel ratio.
  const ratio = viewport.clientWidth > 0 ? metrics.visualViewport.clientWidth / viewport.clientWidth : 1;
  const scale = boundedScale(width * ratio, height * ratio, request.maxSide ?? null, request.maxPixels ?? null);
  if (area === undefined && scale < 1) {
    // Only a clip carries a scale: the viewport as a clip at its place in the page.
    area = { x: viewport.pageX, y: viewport.pageY, width: viewport.clientWidth, height: viewport.clientHeight };
  }
  const capture = session.send('Page.captureScreenshot', {
    format: request.format,
    ...(request.quality === null || request.format === 'png' ? {} : { quality: request.quality }),
    ...(area === undefined ? {} : { clip: { ...area, scale } }),
    captureBeyondViewport: request.fullPage,
    optimizeForSpeed: true,
  });
  // A page that cannot say (its document replaced by a navigation meanwhile) is taken as visible: the
  // capture's own answer then decides.
  const hidden = await pageHidden(session).catch(() => false);
  if (hidden) {
    await nudgeUntilAnswered(session, capture);
  }
  const { data } = await capture;
  return {
    data,
    width: Math.round(width),
    height: Math.round(height),
    imageWidth: Math.round(width * ratio * scale),
    imageHeight: Math.round(height * ratio * scale),
  };
}

/** Asks a hidden page for frames until `capture` answers (or fails): see HIDDEN_NUDGE_MS. */
async function nudgeUntilAnswered(session: CdpSession, capture: Promise<unknown>): Promise<void> {
  let answered = false;
  const settled = capture.then(
    () => (answered = true),
    () => (answered = true),
  );
  for (let nudge = 0; nudge < HIDDEN_NUDGES; nudge++) {
    await Promise.race([settled, new Promise((resolve) => setTimeout(resolve, HIDDEN_NUDGE_MS))]);
    if (answered) {
      return;
    }
    // Only the frame it makes is wanted: its own picture is dropped, and when it fails (the tab closed)
    // the capture it nudges fails with the reason.
    nudgeFrame(session).catch(() => undefined);
  }
}

/**
 * Makes a hidden page draw a frame beside a capture under way: a capture of the viewport as it is, as
 * small as a picture of it gets. Not a 1 px clip (renderFrame): a clip is drawn by emulating a viewport
 * of its size, and the capture under way could answer with that 1 × 1 frame (seen on a loaded machine).
 */
function nudgeFrame(session: CdpSession): Promise<unknown> {
  return session.send('Page.captureScreenshot', { format: 'jpeg', quality: 1, optimizeForSpeed: true });
}

/** The largest scale (at most 1) that keeps a width × height image within both bounds. */
export function boundedScale(width: number, height: number, maxSide: number | null, maxPixels: number | null): number {
  let scale = 1;
  if (maxSide !== null && Math.max(width, height) > maxSide) {
    scale = Math.min(scale, maxSide / Math.max(width, height));
  }
  if (maxPixels !== null && width * height > maxPixels) {
    scale = Math.min(scale, Math.sqrt(maxPixels / (width * height)));
  }
  if (scale >= 1) {
    return 1;
  }
  // The browser rounds each side of the scaled image to a whole pixel, and both sides rounded up can
  // take the product past the bound (measured: 60,024 px for a 60,000 bound): step down until it fits.
  scale = Math.floor(scale * 10_000) / 10_000;
  const fits = (candidate: number): boolean => {
    const [w, h] = [Math.round(width * candidate), Math.round(height * candidate)];
    return (maxSide === null || Math.max(w, h) <= maxSide) && (maxPixels === null || w * h <= maxPixels);
  };
  while (scale > 0.0001 && !fits(scale)) {
    scale -= 0.0001;
  }
  return Math.round(scale * 10_000) / 10_000;
}
