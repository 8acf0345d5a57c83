import { useEffect, useState } from 'preact/hooks';
import { consoleSink, createLogger } from '../../../shared/logger';
import { errorMessageOf } from '../../../shared/errors';
import type { FlowLibrary, KeptFlow } from './flow-library';

const log = createLogger(consoleSink, { level: 'info', namespace: 'tabpilot-panel:flows' });

/** The kept flows, read again whenever they change (an edit here, a recording in another window's panel). */
export function useKeptFlows(library: FlowLibrary): KeptFlow[] | undefined {
  const [kept, setKept] = useState<KeptFlow[] | undefined>(undefined);
  useEffect(() => {
    const read = (): void => {
      library.list().then(setKept, (error: unknown) => {
        log.warn('reading the kept flows failed', { error: errorMessageOf(error) });
        setKept([]);
      });
    };
    read();
    return library.watch(read);
  }, [library]);
  return kept;
}
