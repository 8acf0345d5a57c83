import { clickElement, type ClickOutcome } from '../../src/browser/actions/click';
import { dragAndDrop, type DragOutcome } from '../../src/browser/actions/drag';
import { dropdownOptions, selectDropdownOption, type DropdownOptions } from '../../src/browser/actions/dropdown';
import type { ElementHandle } from '../../src/browser/actions/element';
import { hoverElement, type HoverOutcome } from '../../src/browser/actions/hover';
import type { ElementInfo, ScrollDirection } from '../../src/browser/actions/in-page-api';
import { callOn } from '../../src/browser/actions/in-page-call';
import type { Modifier, MouseButton } from '../../src/browser/actions/mouse';
import { scrollElement, type ScrollResult } from '../../src/browser/actions/scroll';
import { captureScreenshot } from '../../src/browser/actions/screenshot';
import { typeIntoElement, type TypeOutcome, type TypingMethod } from '../../src/browser/actions/typing';
import { uploadFiles, type UploadOutcome, type UploadSource } from '../../src/browser/actions/upload';
import { toTabPoint } from '../../src/browser/actions/frame-offset';
import { TabpilotError } from '../../src/shared/errors';
import { describeException } from '../../src/cdp/errors';
import type { Page } from './page';

export type { ElementInfo };

/** A function run on the element (`this`), or its source text (browser-use's string form). */
export type ElementFunction = string | ((this: unknown, ...args: never[]) => unknown);

/**
 * One element of a page (seed 003's Element), over the very routines the action watchdog uses: a click
 * here is the same click the `click` tool makes. The handle lives in one of tabpilot's isolated worlds;
 * after a navigation it is gone (ELEMENT_NOT_FOUND).
 */
export class Element {
  readonly page: Page;
  readonly handle: ElementHandle;

  constructor(page: Page, handle: ElementHandle) {
    this.page = page;
    this.handle = handle;
  }

  click(options: { button?: MouseButton; clickCount?: number; modifiers?: Modifier[] } = {}): Promise<ClickOutcome> {
    return clickElement(this.page.routine(), this.handle, {
      button: options.button ?? 'left',
      clickCount: options.clickCount ?? 1,
      modifiers: options.modifiers ?? [],
    });
  }

  /** Types text (clearing first by default); the value is read back. */
  fill(text: string, options: { clear?: boolean; typing?: TypingMethod } = {}): Promise<TypeOutcome> {
    return typeIntoElement(this.page.routine(), this.handle, {
      text,
      clear: options.clear ?? true,
      typing: options.typing ?? 'insert_text',
      sensitive: false,
      fill: (raw) => raw,
    });
  }

  async hover(): Promise<HoverOutcome> {
    return hoverElement(this.page.routine(), this.handle);
  }

  async focus(): Promise<void> {
    await this.evaluate('function() { this.focus(); }');
  }

  /** Makes a checkbox or radio checked (a click only when it is not). */
  async check(): Promise<void> {
    const checked = await callOn(this.handle.session, this.handle.objectId, 'readChecked');
    if (checked === null) {
      throw new TabpilotError('INVALID_PARAMS', `${this.handle.label} is not a checkbox or a radio button`);
    }
    if (!checked) {
      await this.click();
    }
  }

  /** Picks options of a select or an ARIA listbox by text or value. */
  async selectOption(values: string | readonly string[]): Promise<void> {
    for (const value of typeof values === 'string' ? [values] : values) {
      await selectDropdownOption(this.page.routine(), this.handle, value);
    }
  }

  options(): Promise<DropdownOptions> {
    return dropdownOptions(this.page.routine(), this.handle);
  }

  dragTo(target: Element | { x: number; y: number }, options: { steps?: number } = {}): Promise<DragOutcome> {
    return dragAndDrop(
      this.page.routine(),
      this.handle,
      target instanceof Element ? { handle: target.handle } : target,
      options.steps ?? 10,
    );
  }

  upload(source: UploadSource): Promise<UploadOutcome> {
    return uploadFiles(this.page.routine(), this.handle, source);
  }

  scroll(direction: ScrollDirection, options: { pages?: number; amount?: number } = {}): Promise<ScrollResult> {
    return scrollElement(this.page.routine(), this.handle, {
      direction,
      pages: options.pages ?? 1,
      amount: options.amount ?? null,
    });
  }

  /**
   * Runs a function with `this` = the element, in tabpilot's isolated world: the DOM is the page's, its
   * scripts' globals are not. Arguments and the result travel as JSON.
   */
  async evaluate<T = unknown>(fn: ElementFunction, ...args: unknown[]): Promise<T> {
    const response = await this.handle.session.send('Runtime.callFunctionOn', {
      objectId: this.handle.objectId,
      functionDeclaration: typeof fn === 'string' ? fn : fn.toString(),
      arguments: args.map((value) => ({ value })),
      returnByValue: true,
      awaitPromise: true,
    });
    if (response.exceptionDetails !== undefined) {
      throw new TabpilotError('INVALID_PARAMS', `evaluate failed: ${describeException(response.exceptionDetails)}`);
    }
    return response.result.value as T;
  }

  async getAttribute(name: string): Promise<string | null> {
    return (await this.info()).attributes[name] ?? null;
  }

  info(): Promise<ElementInfo> {
    return callOn(this.handle.session, this.handle.objectId, 'elementInfo');
  }

  /** The border box in the tab's viewport (frames included), or null when it has no size. */
  async boundingBox(): Promise<{ x: number; y: number; width: number; height: number } | null> {
    const { box } = await this.info();
    if (box === null) {
      return null;
    }
    const origin = await toTabPoint(this.page.routine(), this.handle, this.handle.label, { x: box.x, y: box.y });
    return { x: origin.x, y: origin.y, width: box.width, height: box.height };
  }

  /** A PNG (or JPEG) of the element's box as it shows in the viewport, base64. */
  async screenshot(options: { format?: 'png' | 'jpeg'; quality?: number } = {}): Promise<string> {
    const box = await this.boundingBox();
    if (box === null) {
      throw new TabpilotError('ELEMENT_NOT_FOUND', `${this.handle.label} has no box to capture`);
    }
    // A clip is in page coordinates: add where the viewport is scrolled to.
    const { cssVisualViewport } = await this.handle.pageSession.send('Page.getLayoutMetrics');
    const shot = await captureScreenshot(this.handle.pageSession, {
      fullPage: false,
      clip: { ...box, x: box.x + cssVisualViewport.pageX, y: box.y + cssVisualViewport.pageY },
      format: options.format ?? 'png',
      quality: options.quality ?? null,
    });
    return shot.data;
  }
}
