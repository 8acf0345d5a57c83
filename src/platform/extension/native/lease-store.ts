import type { ClientLeases, LeaseSnapshot } from '../../../tools/client-leases';
import type { KeyValueStore } from '../timeline-recorder';

const STORAGE_KEY = 'tabpilot.leases';

function isSnapshot(value: unknown): value is LeaseSnapshot {
  const pairs = (list: unknown): boolean =>
    Array.isArray(list) &&
    list.every((pair) => Array.isArray(pair) && pair.length === 2 && pair.every((part) => typeof part === 'string'));
  return (
    typeof value === 'object' &&
    value !== null &&
    'owners' in value &&
    pairs(value.owners) &&
    'focus' in value &&
    pairs(value.focus)
  );
}

/**
 * The clients' leases outlive a worker restart the way the controlled tabs do (chrome.storage.session):
 * a client that reconnects after one finds its tabs still its own.
 */
export async function restoreLeases(leases: ClientLeases, store: KeyValueStore): Promise<void> {
  const saved = await store.get(STORAGE_KEY);
  if (isSnapshot(saved)) {
    leases.restore(saved);
  }
}

export function persistLeases(
  leases: ClientLeases,
  store: KeyValueStore,
  onError: (error: unknown) => void,
): () => void {
  return leases.onChange(() => {
    store.set(STORAGE_KEY, leases.snapshot()).catch(onError);
  });
}
