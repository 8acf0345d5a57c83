import type { CdpSession } from '../../cdp/session';

export interface ScreenshotRequest {
  fullPage: boolean;
  clip: { x: number; y: number; width: number; height: number } | null;
  format: 'png' | 'jpeg' | 'webp';
  quality: number | null;
}

export interface ScreenshotResult {
  data: string;
  width: number;
  height: number;
}

/**
 * Page.captureScreenshot of a page (never a child session: "only top-level targets"). A full page is the
 * content size captured beyond the viewport; a clip is in CSS px of the page.
 */
export async function captureScreenshot(session: CdpSession, request: ScreenshotRequest): Promise<ScreenshotResult> {
  let clip = request.clip === null ? undefined : { ...request.clip, scale: 1 };
  let width: number;
  let height: number;
  const metrics = await session.send('Page.getLayoutMetrics');
  if (request.fullPage) {
    const content = metrics.cssContentSize;
    clip = { x: 0, y: 0, width: Math.ceil(content.width), height: Math.ceil(content.height), scale: 1 };
  }
  if (clip === undefined) {
    width = metrics.cssVisualViewport.clientWidth;
    height = metrics.cssVisualViewport.clientHeight;
  } else {
    width = clip.width;
    height = clip.height;
  }
  const { data } = await session.send('Page.captureScreenshot', {
    format: request.format,
    ...(request.quality === null || request.format === 'png' ? {} : { quality: request.quality }),
    ...(clip === undefined ? {} : { clip }),
    captureBeyondViewport: request.fullPage,
    optimizeForSpeed: true,
  });
  return { data, width: Math.round(width), height: Math.round(height) };
}
