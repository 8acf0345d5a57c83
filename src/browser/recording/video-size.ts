import type { CdpSession } from '../../cdp/session';

const FALLBACK = { width: 1280, height: 720 };

/** VP8 in yuv420p needs even sides. */
function even(value: number): number {
  return Math.max(16, Math.floor(value / 2) * 2);
}

/** The configured size, else the focused tab's viewport (CSS px), else 1280x720. */
export async function videoSize(
  configured: { width: number; height: number } | null,
  focused: CdpSession | undefined,
): Promise<{ width: number; height: number }> {
  if (configured !== null) {
    return { width: even(configured.width), height: even(configured.height) };
  }
  if (focused === undefined) {
    return FALLBACK;
  }
  const metrics = await focused.send('Page.getLayoutMetrics');
  const { clientWidth, clientHeight } = metrics.cssVisualViewport;
  if (clientWidth <= 0 || clientHeight <= 0) {
    return FALLBACK;
  }
  return { width: even(clientWidth), height: even(clientHeight) };
}
