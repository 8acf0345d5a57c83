import { parseDescribe } from './describe';
import type { WorkerPort } from './port';
import { INITIAL_STATE, reduce, type PanelAction, type PanelState } from './state';

/**
 * The panel's state outside the component tree: it listens to the port from before the port connects,
 * so nothing the worker pushes on connect is missed, and asks `describe` on every (re)connect.
 */
export class PanelStore {
  #state: PanelState = INITIAL_STATE;
  readonly #listeners = new Set<(state: PanelState) => void>();

  constructor(port: WorkerPort) {
    port.onPush((message) => this.#dispatch({ type: 'push', message }));
    port.onStatus((connection) => {
      this.#dispatch({ type: 'connection', connection });
      if (connection === 'connected') {
        void port.request('describe').then((response) => {
          if (response.ok) {
            this.#dispatch({ type: 'described', described: parseDescribe(response.result) });
          }
        });
      }
    });
  }

  get state(): PanelState {
    return this.#state;
  }

  subscribe(listener: (state: PanelState) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #dispatch(action: PanelAction): void {
    this.#state = reduce(this.#state, action);
    for (const listener of this.#listeners) {
      listener(this.#state);
    }
  }
}
