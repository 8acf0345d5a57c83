import type { SessionManager } from '../../cdp/session-manager';
import { disposeOnAbort } from '../../shared/dispose';
import type { CaptchaMonitor } from './captcha-monitor';

const pageOf = (target: { targetId: string; pageTargetId?: string | undefined } | undefined): string | undefined =>
  target?.pageTargetId ?? target?.targetId;

/**
 * Feeds `monitor` the frames of every controlled page, from CDP frame navigations and detaches (in every
 * process) and a read of the frame tree when a session is set up, until `signal` aborts; then it lets go.
 */
export function followCaptchas(targets: SessionManager, monitor: CaptchaMonitor, signal: AbortSignal): void {
  disposeOnAbort(signal, [
    // A tab attached after it loaded (the extension attaches a person's tab whenever they say) has had
    // its frame navigations already: its frames are read once when each session is set up. An
    // out-of-process frame is its own target, whose id is its frame id.
    targets.addSessionSetup(async (session, target) => {
      if (target.type === 'iframe' && target.pageTargetId !== undefined) {
        monitor.frameSeen(target.pageTargetId, target.targetId, target.url);
      } else if (target.type === 'page') {
        const { frameTree } = await session.send('Page.getFrameTree');
        const walk = (node: typeof frameTree): void => {
          monitor.frameSeen(target.targetId, node.frame.id, node.frame.url);
          for (const child of node.childFrames ?? []) {
            walk(child);
          }
        };
        walk(frameTree);
      }
    }),
    targets.on('Page.frameNavigated', (params, source) => {
      const targetId = pageOf(source.target);
      if (targetId === undefined) {
        return;
      }
      if (params.frame.parentId === undefined && source.target?.targetId === targetId) {
        monitor.documentChanged(targetId);
      } else {
        monitor.frameChanged(targetId, params.frame.id, params.frame.url);
      }
    }),
    targets.on('Page.frameDetached', (params, source) => {
      const targetId = pageOf(source.target);
      // 'swap': the frame moved to another process (an OOPIF); it is still there.
      if (targetId !== undefined && params.reason !== 'swap') {
        monitor.frameChanged(targetId, params.frameId, undefined);
      }
    }),
    () => monitor.release(),
  ]);
}
