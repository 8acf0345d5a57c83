import type { CdpSession } from '../../cdp/session';
import { TabpilotError } from '../../shared/errors';
import { DownloadWatch, type ClickDownload } from '../downloads/download-watch';
import type { ElementHandle, RoutineContext } from './element';
import { callInFrame, callOn } from './in-page-call';
import { unlessDialogOpened } from './input-dialog';
import type { ElementRef } from '../../dom/element-handle';
import type { PointerTarget } from './in-page-api';
import { firstLook, locatedFrom, locatePointer, type Located } from './locate';
import { clickAt, moveToPoint, type ClickOptions } from './mouse';
import { moveAndLocate } from './move-and-locate';
import { NewTabWatch } from './new-tab';
import { sendVerified } from './verify';

export interface ClickOutcome {
  /** Where the click landed in the tab's viewport; null when it was dispatched by script. */
  click_x: number | null;
  click_y: number | null;
  method: 'mouse' | 'script';
  /** Checkbox and radio state after the click (null for other elements). */
  checked: boolean | null;
  /** A tab the click opened. */
  opened_target_id: string | null;
  /** Null when the first press reached the element; else what it hit instead (the click was sent again). */
  retried: string | null;
  /** The download the click started (null when it started none). */
  download: ClickDownload | null;
}

/** What the caller knows of the element before the click. */
export interface ClickExpectations {
  /**
   * A link that downloads without navigating (a `download` attribute, a blob: or data: URL): its
   * Page.downloadWillBegin may come a moment after the click, so the click waits for it (bounded).
   */
  downloadLink?: boolean;
  /** What a look at the element found, sent together with the request for its handle (clickFirstLook). */
  firstLook?: PointerTarget;
}

function downloadWatch(
  ctx: RoutineContext,
  targetId: string,
  expected: boolean,
  renderers: readonly CdpSession[],
): DownloadWatch | undefined {
  return ctx.downloads === undefined
    ? undefined
    : new DownloadWatch(ctx.targets, ctx.downloads, targetId, { expected, renderers, log: ctx.log });
}

const LOCATE = { scroll: true, refuse: true, allowScript: true, guard: 'press' } as const;

/**
 * The click's first look at an indexed element, to send with the request for its handle (see
 * DomService.resolveWith): undefined when the click must look itself once it has the handle.
 */
export async function clickFirstLook(ref: ElementRef): Promise<PointerTarget | undefined> {
  return (await firstLook(ref, LOCATE)) ?? undefined;
}

/**
 * Clicks an element with trusted mouse events at a point that reaches it, and checks that it did: the
 * element (or something inside it) must receive the press. A press that missed (an overlay that
 * appeared, a frame that moved or had not rendered yet) is stopped before the page acts on it, and the
 * click is sent once more at the element's fresh position after a rendered frame; a second miss fails
 * with ELEMENT_OCCLUDED naming what took it, so a click never lands elsewhere. The `button` is honoured
 * (browser-use always clicks left). Only an element the mouse cannot reach at all (no size) is clicked
 * by script.
 */
export async function clickElement(
  ctx: RoutineContext,
  handle: ElementHandle,
  options: ClickOptions,
  expect: ClickExpectations = {},
): Promise<ClickOutcome> {
  let located: Located =
    expect.firstLook === undefined
      ? await locatePointer(ctx, handle, LOCATE)
      : await locatedFrom(ctx, handle, expect.firstLook, LOCATE);
  const watch = new NewTabWatch(ctx.targets, handle.targetId, [handle.pageSession, handle.session]);
  const downloads = downloadWatch(ctx, handle.targetId, expect.downloadLink === true, [
    handle.pageSession,
    handle.session,
  ]);
  let retried: string | null = null;
  let prevented = false;
  try {
    if (located.kind === 'point') {
      ({ located, retried, prevented } = await sendVerified(
        ctx,
        handle,
        'click',
        {
          locate: () => locatePointer(ctx, handle, LOCATE),
          recheck: () => locatePointer(ctx, handle, { ...LOCATE, guard: null }),
          move: (point) => moveToPoint(point, handle.pageSession),
          moveAndLocate: (point) =>
            moveAndLocate(ctx, handle, point, LOCATE, (to) => moveToPoint(to, handle.pageSession)),
          send: (point, pointerThere) =>
            clickAt(point.input.session, point.input.x, point.input.y, options, { move: !pointerThere }),
          releases: options.clickCount,
        },
        located,
      ));
    }
    if (located.kind === 'script') {
      ctx.log.debug('clicking by script: the element has no box', { element: handle.label, reason: located.reason });
      ({ prevented } = await callOn(handle.session, handle.objectId, 'scriptClick'));
    }
  } catch (error) {
    watch.dispose();
    downloads?.dispose();
    throw error;
  }
  const clickX = located.kind === 'point' ? located.x : null;
  const clickY = located.kind === 'point' ? located.y : null;
  const opened = await watch.opened(ctx.signal);
  // A press's verdict is read from the element's renderer after the input: that renderer has answered.
  const download =
    (await downloads?.outcome(ctx.signal, {
      answered: located.kind === 'point' ? [handle.session] : [],
      prevented,
    })) ?? null;
  const checked =
    located.checked === null
      ? null
      : await callOn(handle.session, handle.objectId, 'readChecked').catch((error: unknown) => {
          // The click navigated away or removed the element: there is no state left to read.
          ctx.log.debug('could not read the checked state after a click', { error: String(error) });
          return null;
        });
  return {
    click_x: clickX,
    click_y: clickY,
    method: located.kind === 'script' ? 'script' : 'mouse',
    checked,
    opened_target_id: opened,
    download,
    retried,
  };
}

export interface CoordinateClickOutcome {
  click_x: number;
  click_y: number;
  /** What was under the point before the click (null with `force`). */
  element: string | null;
  opened_target_id: string | null;
  download: ClickDownload | null;
}

/**
 * Clicks at a point of the tab's viewport. Unless forced, it first checks what is there: outside the
 * viewport, a file input or a select is refused (browser-use's tools always force and skip these checks).
 */
export async function clickCoordinate(
  ctx: RoutineContext,
  targetId: string,
  pageSession: CdpSession,
  x: number,
  y: number,
  options: ClickOptions & { force: boolean },
): Promise<CoordinateClickOutcome> {
  let element: string | null = null;
  if (!options.force) {
    const hit = await callInFrame(pageSession, 'hitAt', x, y);
    if (!hit.in_viewport) {
      throw new TabpilotError('INVALID_PARAMS', `(${x}, ${y}) is outside the viewport`, {
        details: { coordinate_x: x, coordinate_y: y },
      });
    }
    if (hit.refused !== null) {
      throw new TabpilotError(
        'INVALID_PARAMS',
        hit.refused === 'select'
          ? `(${x}, ${y}) is on a select ${hit.element ?? ''}: use dropdown_options and select_dropdown with its index`
          : `(${x}, ${y}) is on a file input ${hit.element ?? ''}: use upload_file with its index`,
        { details: { reason: hit.refused } },
      );
    }
    element = hit.element;
  }
  const sessions = [pageSession, ...childSessions(ctx, targetId)];
  const watch = new NewTabWatch(ctx.targets, targetId, sessions);
  const downloads = downloadWatch(ctx, targetId, false, sessions);
  let blocked: boolean;
  try {
    // A dialog the click opened answers nothing more until it is answered: the click happened.
    blocked = (await unlessDialogOpened(() => clickAt(pageSession, x, y, options))).dialog;
  } catch (error) {
    watch.dispose();
    downloads?.dispose();
    throw error;
  }
  if (blocked) {
    ctx.log.debug('a dialog opened during the click', { x, y });
  }
  const opened = await watch.opened(ctx.signal);
  const download = (await downloads?.outcome(ctx.signal, { answered: blocked ? [pageSession] : [] })) ?? null;
  return { click_x: x, click_y: y, element, opened_target_id: opened, download };
}

function childSessions(ctx: RoutineContext, targetId: string): CdpSession[] {
  return ctx.targets
    .childrenOf(targetId)
    .map((child) => ctx.targets.sessionFor(child.targetId))
    .filter((session): session is CdpSession => session !== undefined);
}
