import { collect, COLLECTOR_VERSION, indexedId, resolve } from './collector';
import { find, markdown, search } from './extract';
import { highlight } from './highlight';
import { retention } from './world-state';
import { packCollectResult } from '../wire';

/** Installs the collector in tabpilot's isolated world (the core checks `version` before each use). */
Object.assign(globalThis, {
  __tabpilot: {
    version: COLLECTOR_VERSION,
    /** The collection as the packed JSON string the core reads (src/dom/wire.ts). */
    collect: (...args: Parameters<typeof collect>) => packCollectResult(collect(...args)),
    resolve,
    highlight: (id: number | null, label: string) => highlight(id === null ? null : resolve(id), label),
    markdown,
    search,
    find: (options: Parameters<typeof find>[0]) => find(options, indexedId),
    retention,
  },
});
