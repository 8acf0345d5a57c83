/**
 * The in-page half of the action routines: the functions the core calls by name (the names and types
 * are the contract in ../in-page-api.ts). Bundled with the perception half into one script by
 * scripts/build-inpage.mjs and installed in tabpilot's isolated world by the page bridge.
 */
import type { InPageHandleFunctions, InPageValueFunctions } from '../in-page-api';
import { ariaOption, dropdownInfo, selectNative } from './dropdown';
import { activeOption, dropdownSettled, dropdownShows, selectNativeExact } from './dropdown-state';
import { clearFiles, fileInputNear, filesOf, setFiles } from './files';
import { fetchBase64 } from './fetch-bytes';
import { findText } from './find-text';
import { collectIndexedDb, restoreIndexedDb, restoreIndexedDbAtStart } from './indexed-db';
import { guardPeek, guardVerdict, isHovered, renderedFrame } from './guard';
import { elementInfo, focusInfo, focusedFormAction, platform, querySelectorAll } from './info';
import {
  frameHit,
  hitAt,
  pointerTarget,
  pointerTargetAfterMove,
  pointerTargetOf,
  readChecked,
  scriptClick,
} from './pointer';
import { armLinkClick, focusedLink, linkClick } from './link-activation';
import { releaseArrivals } from './pointer-arrival';
import { scrollElement, scrollPage } from './scrolling';
import { prepareTyping, readBack, setValue } from './typing';
import { readLocalStorage, restoreLocalStorage } from './saved-local-storage';
import { webStorage } from './web-storage';

type ValueApi = {
  [K in keyof InPageValueFunctions]: (
    this: Element,
    ...args: InPageValueFunctions[K]['args']
  ) => InPageValueFunctions[K]['result'] | Promise<InPageValueFunctions[K]['result']>;
};

type HandleApi = {
  [K in keyof InPageHandleFunctions]: (this: Element, ...args: InPageHandleFunctions[K]) => Element | Element[] | null;
};

export const api: ValueApi & HandleApi = {
  pointerTarget,
  pointerTargetOf,
  pointerTargetAfterMove,
  releaseArrivals,
  scriptClick,
  readChecked,
  prepareTyping,
  setValue,
  readBack,
  scrollElement,
  scrollPage,
  dropdownInfo,
  selectNative,
  selectNativeExact,
  activeOption,
  dropdownShows,
  dropdownSettled,
  setFiles,
  filesOf,
  clearFiles,
  collectIndexedDb,
  restoreIndexedDb,
  restoreIndexedDbAtStart,
  webStorage,
  readLocalStorage,
  restoreLocalStorage,
  hitAt,
  focusInfo,
  frameHit,
  guardPeek,
  guardVerdict,
  isHovered,
  renderedFrame,
  platform,
  focusedFormAction,
  focusedLink,
  armLinkClick,
  linkClick,
  fetchBase64,
  elementInfo,
  ariaOption,
  fileInputNear,
  findText,
  querySelectorAll,
};
