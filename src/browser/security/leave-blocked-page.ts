import type { CdpSession } from '../../cdp/session';
import type { SessionManager, TargetRecord } from '../../cdp/session-manager';

/** What a fresh tab shows before its first page, and the page Chromium shows for a failed request. */
function isPlaceholder(url: string): boolean {
  return url === '' || url === 'about:blank' || url.startsWith('chrome-error:');
}

/**
 * A tab a page opened (a popup, a target=_blank link) that never showed anything but what the policy
 * blocked: there is nothing to keep, so it is closed, as browser-use closes a new tab to a blocked URL.
 * Its history may also hold the blank page it started on or the error page of a failed request; those
 * show nothing of the person's, so they do not count.
 */
async function isBlockedPopup(target: TargetRecord, session: CdpSession): Promise<boolean> {
  if (target.type !== 'page' || target.openerId === undefined) {
    return false;
  }
  const history = await session.send('Page.getNavigationHistory');
  return history.entries.filter((entry) => !isPlaceholder(entry.url)).length <= 1;
}

/**
 * Takes a tab or frame off a page the policy blocks: closes a popup opened for it, else loads
 * about:blank in its place (the main frame, or the one frame). Returns whether the tab was closed.
 */
export async function leaveBlockedPage(
  targets: SessionManager,
  target: TargetRecord,
  session: CdpSession,
  frameId: string | undefined,
): Promise<boolean> {
  if (frameId === undefined && (await isBlockedPopup(target, session))) {
    await targets.closeTarget(target.targetId);
    return true;
  }
  await session.send('Page.navigate', frameId === undefined ? { url: 'about:blank' } : { url: 'about:blank', frameId });
  return false;
}

/** A popup held at its first request, before anything committed: close it rather than leave it blank. */
export async function closeIfBlockedPopup(
  targets: SessionManager,
  target: TargetRecord,
  session: CdpSession,
): Promise<boolean> {
  if (!(await isBlockedPopup(target, session))) {
    return false;
  }
  await targets.closeTarget(target.targetId);
  return true;
}
