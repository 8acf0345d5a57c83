import type { CommandServer } from '../tools/command-server';
import { callInFrame } from '../browser/actions/in-page-call';

/**
 * What the risk probe reads of a tab beyond its state and its forms: where a step back or forward in
 * its history goes, and where the form of its focused field sends. Read over CDP, not through an
 * action, so nothing the person sees in the timeline comes of a look.
 */
export interface PageLook {
  /** The URL `delta` steps from the current entry of the tab's history; null at its end. */
  historyNeighbour(tabId: string, delta: -1 | 1): Promise<string | null>;
  /**
   * Where the form of the tab's focused field sends it (its `action`, resolved), or null when the
   * focused element is in no form. `document.activeElement`, unlike `:focus`, is kept while the
   * window has no focus (a background window, a headless browser), so Enter is judged either way.
   */
  focusedFormAction(tabId: string): Promise<string | null>;
}

/**
 * A look reads over CDP, beside the agent's client connection, so it masks what it answers itself: a URL
 * may carry a secret, and a refusal's reason built from it reaches the model and the person.
 */
export function serverPageLook(server: CommandServer): PageLook {
  const sessionOf = async (tabId: string) => {
    const targetId = await server.session.resolveTab(tabId);
    return server.session.targets.requireSession(targetId);
  };
  return {
    historyNeighbour: async (tabId, delta) => {
      const history = await (await sessionOf(tabId)).send('Page.getNavigationHistory');
      const url = history.entries[history.currentIndex + delta]?.url;
      return url === undefined ? null : server.redact(url);
    },
    focusedFormAction: async (tabId) => {
      // Read in tabpilot's isolated world: the page's own script cannot redefine what the DOM getters answer there.
      const action = await callInFrame(await sessionOf(tabId), 'focusedFormAction');
      return action === null ? null : server.redact(action);
    },
  };
}
