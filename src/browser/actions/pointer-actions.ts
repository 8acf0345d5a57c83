import type { PayloadOf } from '../../protocol/define-event';
import type {
  ClickElementEvent,
  DragAndDropEvent,
  HoverElementEvent,
  ScrollEvent,
  ScrollToTextEvent,
} from '../../protocol/events/actions.events';
import type { ActionScope } from './action-scope';
import { clickCoordinate, clickElement, clickFirstLook } from './click';
import { dragAndDrop, type DropTarget } from './drag';
import { listOptions } from './form-actions';
import { scrollToText } from './find-text';
import { hoverElement } from './hover';
import { scrollElement, scrollPage } from './scroll';
import { downloadsItself } from '../downloads/download-link';

/**
 * The actions that point at, move over or scroll a page (click, hover, drag, scroll, scroll to a text), each from its event's payload to its CDP routine and its result.
 */
export class PointerActions {
  readonly #scope: ActionScope;

  constructor(scope: ActionScope) {
    this.#scope = scope;
  }

  async click(payload: PayloadOf<typeof ClickElementEvent>, signal: AbortSignal) {
    const { session } = this.#scope;
    const { target_id, index, coordinate_x, coordinate_y, button, click_count, modifiers } = payload;
    const mouse = { button, clickCount: click_count, modifiers };
    if (index === undefined) {
      const page = session.targets.requireSession(target_id);
      const clicked = await clickCoordinate(
        this.#scope.routine(signal),
        target_id,
        page,
        coordinate_x ?? 0,
        coordinate_y ?? 0,
        { ...mouse, force: false },
      );
      return {
        target_id,
        clicked: true,
        x: clicked.click_x,
        y: clicked.click_y,
        element: clicked.element,
        opened_target_id: clicked.opened_target_id,
        download: clicked.download,
      };
    }
    const entry = session.dom.entry(target_id, index);
    // A select opens a native popup a click cannot use: its options come back instead, as browser-use does.
    if (entry?.tag === 'select') {
      const listed = await listOptions(this.#scope, signal, target_id, index);
      return {
        target_id,
        index,
        clicked: false,
        options: listed.options,
        formatted_options: listed.formatted_options,
        message: `Element ${index} is a select: pick an option with select_dropdown (index ${index}, text of the option)`,
      };
    }
    const downloadLink = entry !== undefined && downloadsItself(entry.tag, entry.attributes);
    // The click's first look at the element goes with the request for its handle: a round trip less.
    const { handle, alongside: firstLook } = await session.dom.resolveWith(target_id, index, clickFirstLook);
    const clicked = await clickElement(this.#scope.routine(signal), handle, mouse, {
      downloadLink,
      ...(firstLook === undefined ? {} : { firstLook }),
    });
    return {
      target_id,
      index,
      clicked: true,
      method: clicked.method,
      x: clicked.click_x,
      y: clicked.click_y,
      checked: clicked.checked,
      opened_target_id: clicked.opened_target_id,
      download: clicked.download,
      retried: clicked.retried,
    };
  }

  async scroll(payload: PayloadOf<typeof ScrollEvent>, signal: AbortSignal) {
    const { target_id, direction: given, down, pages, amount, index } = payload;
    const direction = given ?? (down === false ? 'up' : 'down');
    const request = { direction, pages, amount: amount ?? null };
    const scrolled =
      index === undefined || index === 0
        ? await scrollPage(this.#scope.session.targets.requireSession(target_id), request)
        : await scrollElement(this.#scope.routine(signal), await this.#scope.element(target_id, index), request);
    const { kind: _kind, ...moved } = scrolled;
    return { target_id, direction, ...moved };
  }

  async scrollToText(payload: PayloadOf<typeof ScrollToTextEvent>, signal: AbortSignal) {
    const { target_id, text } = payload;
    const found = await scrollToText(this.#scope.routine(signal), target_id, text);
    return {
      target_id,
      ...found,
      message: found.found ? `Scrolled to "${text}"` : `"${text}" is not on the page`,
    };
  }

  async hover(payload: PayloadOf<typeof HoverElementEvent>, signal: AbortSignal) {
    const { target_id, index } = payload;
    const point = await hoverElement(this.#scope.routine(signal), await this.#scope.element(target_id, index));
    return { target_id, index, ...point };
  }

  async drag(payload: PayloadOf<typeof DragAndDropEvent>, signal: AbortSignal) {
    const { target_id, index, to_index, to_x, to_y, steps } = payload;
    const drop: DropTarget =
      to_index === undefined
        ? { x: to_x ?? 0, y: to_y ?? 0 }
        : { handle: await this.#scope.element(target_id, to_index) };
    const dragged = await dragAndDrop(
      this.#scope.routine(signal),
      await this.#scope.element(target_id, index),
      drop,
      steps,
    );
    return { target_id, index, ...dragged };
  }
}
