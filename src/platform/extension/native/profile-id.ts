import { shortId } from '../../../shared/ids';
import type { KeyValueStore } from '../timeline-recorder';

const STORAGE_KEY = 'tabpilot.profile_id';

/**
 * A random id for this browser profile, made once and kept in chrome.storage.local: the host's
 * discovery record carries it so a client can tell two profiles apart without their paths.
 */
export async function profileId(store: KeyValueStore): Promise<string> {
  const saved = await store.get(STORAGE_KEY);
  if (typeof saved === 'string' && saved !== '') {
    return saved;
  }
  const id = shortId(16);
  await store.set(STORAGE_KEY, id);
  return id;
}
