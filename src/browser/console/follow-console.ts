import { tabOf, type EventSource, type SessionManager } from '../../cdp/session-manager';
import { ConsoleLog } from './console-log';
import { disposeOnAbort } from '../../shared/dispose';

/** The targets whose console counts toward their tab: the page, its out-of-process iframes, its workers. */
const CONSOLE_TARGETS = new Set(['page', 'iframe', 'worker']);

/**
 * A ConsoleLog fed by every page session and the iframe and worker sessions inside it until `signal`
 * aborts. Nothing else in tabpilot enables the Runtime domain (the page bridge calls functions without
 * it), so it is enabled here once per session, with the Log domain for the browser's own messages.
 * Enabling either replays what the page logged already; a page session's list starts anew just before,
 * so a reconnect does not count a message twice.
 */
export function followConsole(targets: SessionManager, signal: AbortSignal): ConsoleLog {
  const log = new ConsoleLog();
  const withPage = (source: EventSource, record: (targetId: string) => void): void => {
    const targetId = tabOf(source);
    if (targetId !== undefined && source.target !== undefined && CONSOLE_TARGETS.has(source.target.type)) {
      record(targetId);
    }
  };
  const disposers = [
    targets.on('Runtime.consoleAPICalled', (params, source) =>
      withPage(source, (targetId) => log.consoleCalled(targetId, params)),
    ),
    targets.on('Runtime.exceptionThrown', (params, source) =>
      withPage(source, (targetId) => log.exceptionThrown(targetId, params)),
    ),
    targets.on('Runtime.exceptionRevoked', (params, source) =>
      withPage(source, (targetId) => log.exceptionRevoked(targetId, params.exceptionId)),
    ),
    targets.on('Log.entryAdded', (params, source) => {
      // A worker's console reaches its page's Log too; the worker's own session gave it already, with its place.
      if (params.entry.source !== 'worker') {
        withPage(source, (targetId) => log.browserEntry(targetId, params.entry));
      }
    }),
    // The page's main frame got a new document (a navigation, a reload): its contexts are gone, and so is
    // what they logged. An iframe's new document changes nothing of the tab's list.
    targets.on('Runtime.executionContextsCleared', (_params, source) => {
      if (source.target?.type === 'page') {
        log.pageChanged(source.target.targetId);
      }
    }),
    targets.addSessionSetup(async (session, target) => {
      if (!CONSOLE_TARGETS.has(target.type)) {
        return;
      }
      if (target.type === 'page') {
        log.pageChanged(target.targetId);
      }
      await session.send('Runtime.enable');
      // Workers have no Log domain.
      if (target.type !== 'worker') {
        await session.send('Log.enable');
      }
    }),
  ];
  disposeOnAbort(signal, disposers);
  return log;
}
