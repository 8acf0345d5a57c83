/**
 * The perception half of tabpilot's in-page code: the functions the core calls by name (their names and
 * types are the contract in ../payload.ts). Bundled with the actions' half into one script by
 * scripts/build-inpage.mjs.
 */
import type { PerceptionHandleFunctions, PerceptionValueFunctions } from '../payload';
import { changesQuiet, takeChanges, watchChanges } from './changes';
import { collect, indexedId, resolve } from './collector';
import { find, markdown, search } from './extract';
import { findMatches, revealMatch } from './find-matches';
import { frameOrigin } from './geometry';
import { cssPath, deriveLocator } from './locator';
import { isFrameElement } from './realm';
import { highlight } from './highlight';
import { recordListen, recordPath, recordUnlisten } from './recorder';
import { retention } from './world-state';

type ValueApi = {
  [K in keyof PerceptionValueFunctions]: (
    this: unknown,
    ...args: PerceptionValueFunctions[K]['args']
  ) => PerceptionValueFunctions[K]['result'];
};

type HandleApi = {
  [K in keyof PerceptionHandleFunctions]: (this: unknown, ...args: PerceptionHandleFunctions[K]) => Element | null;
};

const DOCUMENT_FRAGMENT_NODE = 11;

export const api: ValueApi & HandleApi = {
  /** The document of the frame (`this` is its global) or a closed shadow root (`this`), as JSON. */
  collect(options, stateKey) {
    const root =
      typeof this === 'object' && this !== null && (this as Node).nodeType === DOCUMENT_FRAGMENT_NODE
        ? (this as ShadowRoot)
        : document;
    return JSON.stringify(collect(root, options, stateKey));
  },
  resolve,
  highlight(id, label) {
    highlight(id === null ? null : resolve(id), label);
    return true;
  },
  markdown,
  search,
  cssQuery: (options) => find(options, indexedId),
  retention,
  findMatches,
  revealMatch: (id) => revealMatch(id, resolve),
  frameContentOrigin() {
    const frame = this instanceof Element ? this : null;
    if (!isFrameElement(frame)) {
      throw new Error('frameContentOrigin runs on an iframe element');
    }
    const [x, y] = frameOrigin(frame, frame.getBoundingClientRect());
    return { x, y };
  },
  watchChanges,
  changesQuiet,
  takeChanges,
  recordListen,
  recordUnlisten,
  recordPath,
  locatorOf(id) {
    const element = resolve(id);
    if (element === null) {
      return null;
    }
    const password = element.localName === 'input' && element.getAttribute('type')?.toLowerCase() === 'password';
    return { locator: deriveLocator(element), css: cssPath(element), password };
  },
};
