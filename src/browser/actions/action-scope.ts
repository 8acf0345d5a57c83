import type { Logger } from '../../shared/logger';
import type { BrowserSessionView } from '../session-view';
import type { ElementHandle, RoutineContext } from './element';

/**
 * What the element actions of a session share: the routine context of one call (its signal) and an
 * element named by its index in the tab's latest state, resolved.
 */
export class ActionScope {
  readonly session: BrowserSessionView;
  readonly log: Logger;

  constructor(session: BrowserSessionView, log: Logger) {
    this.session = session;
    this.log = log;
  }

  routine(signal: AbortSignal): RoutineContext {
    return {
      targets: this.session.targets,
      log: this.log,
      config: this.session.config,
      signal,
      downloads: this.session.downloads,
    };
  }

  element(targetId: string, index: number): Promise<ElementHandle> {
    return this.session.dom.resolve(targetId, index);
  }
}
