import type { CdpSession } from '../../cdp/session';
import { errorMessageOf } from '../../shared/errors';
import { downloadsItself } from '../downloads/download-link';
import { DownloadWatch, type ClickDownload } from '../downloads/download-watch';
import type { RoutineContext } from './element';
import type { LinkClick } from './in-page-api';
import { callInFrame } from './in-page-call';
import { pressStrokes } from './keyboard';
import type { BrowserPlatform, KeyStroke } from './keys';

/**
 * Presses key strokes in order. Enter on a focused link that downloads by itself (a `download`
 * attribute, a blob: or data: URL) starts its download only once the server answers, maybe after the
 * press's outcome settled: so the press waits for it as a click on such a link does (bounded), unless the
 * page prevented the click Enter fired, and answers it (the outcome names it too). The strokes before the
 * first Enter go first, so the link is the one focused when Enter is pressed ("Tab Tab Enter").
 */
export async function pressKeys(
  ctx: RoutineContext,
  page: CdpSession,
  targetId: string,
  strokes: readonly KeyStroke[],
  platform: BrowserPlatform,
): Promise<ClickDownload | null> {
  const enter = strokes.findIndex((stroke) => stroke.kind === 'chord' && stroke.key.key === 'Enter');
  if (enter < 0 || ctx.downloads === undefined) {
    await pressStrokes(page, strokes, platform);
    return null;
  }
  await pressStrokes(page, strokes.slice(0, enter), platform);
  const link = await callInFrame(page, 'focusedLink');
  if (link === null || !downloadsItself('a', link) || !(await callInFrame(page, 'armLinkClick'))) {
    await pressStrokes(page, strokes.slice(enter), platform);
    return null;
  }
  const watch = new DownloadWatch(ctx.targets, ctx.downloads, targetId, {
    expected: true,
    renderers: [page],
    log: ctx.log,
  });
  try {
    await pressStrokes(page, strokes.slice(enter, enter + 1), platform);
  } catch (error) {
    watch.dispose();
    throw error;
  }
  const click = await linkClick(ctx, page);
  const download = await watch.outcome(ctx.signal, { answered: [page], prevented: !click.clicked || click.prevented });
  await pressStrokes(page, strokes.slice(enter + 1), platform);
  return download;
}

/** How the page took the click Enter fired at the link; as followed when the page cannot say. */
async function linkClick(ctx: RoutineContext, page: CdpSession): Promise<LinkClick> {
  try {
    return await callInFrame(page, 'linkClick');
  } catch (error) {
    // The document went away (the link navigated after all): the download watch tells what it started.
    ctx.log.debug('could not read how the page took a link’s click', { error: errorMessageOf(error) });
    return { clicked: true, prevented: false };
  }
}
