/**
 * The in-page half of the action routines, bundled by scripts/build-actions-inpage.mjs into
 * src/browser/actions/generated/actions-source.ts. The core installs it in a world on first use and calls
 * its functions by name (the names and types are the contract in ../in-page-api.ts).
 */
import type { InPageHandleFunctions, InPageValueFunctions } from '../in-page-api';
import { ariaOption, dropdownInfo, selectNative } from './dropdown';
import { clearFiles, fileInputNear, filesOf, setFiles } from './files';
import { findText } from './find-text';
import { elementInfo, focusInfo, platform, querySelectorAll } from './info';
import { frameHit, hitAt, pointerTarget, readChecked, scriptClick } from './pointer';
import { scrollElement, scrollPage } from './scrolling';
import { prepareTyping, readBack, setValue } from './typing';

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
  scriptClick,
  readChecked,
  prepareTyping,
  setValue,
  readBack,
  scrollElement,
  scrollPage,
  dropdownInfo,
  selectNative,
  setFiles,
  filesOf,
  clearFiles,
  hitAt,
  focusInfo,
  frameHit,
  platform,
  elementInfo,
  ariaOption,
  fileInputNear,
  findText,
  querySelectorAll,
};
