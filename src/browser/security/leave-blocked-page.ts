import type { CdpSession } from '../../cdp/session';
import type { SessionManager, TargetRecord } from '../../cdp/session-manager';

/**
 * A tab a page opened (a popup, a target=_blank link) that never showed anything but what the policy
 * blocked: there is nothing to keep, so it is closed, as browser-use closes a new tab to a blocked URL.
 */
async function isBlockedPopup(target: TargetRecord, session: CdpSession): Promise<boolean> {
  if (target.type !== 'page' || target.openerId === undefined) {
    return false;
  }
  const history = await session.send('Page.getNavigationHistory');
  return history.entries.length <= 1;
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
