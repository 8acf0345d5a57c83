import { useEffect, useState } from 'preact/hooks';
import type { PanelState } from './state';
import type { PanelStore } from './store';

/** The store's state, re-rendering on every change. */
export function usePanelState(store: PanelStore): PanelState {
  const [state, setState] = useState(store.state);
  useEffect(() => {
    setState(store.state);
    return store.subscribe(setState);
  }, [store]);
  return state;
}
