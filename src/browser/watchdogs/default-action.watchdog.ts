import { TabpilotError } from '../../shared/errors';
import { clickCoordinate, clickElement, clickFirstLook } from '../actions/click';
import { dragAndDrop, type DropTarget } from '../actions/drag';
import { dropdownOptions, selectDropdownOption, selectDropdownValues, type DropdownOptions } from '../actions/dropdown';
import type { ElementHandle, RoutineContext } from '../actions/element';
import { scrollToText, waitForText } from '../actions/find-text';
import { hoverElement } from '../actions/hover';
import { browserPlatform, pressStrokes } from '../actions/keyboard';
import { parseKeys } from '../actions/keys';
import { scrollElement, scrollPage } from '../actions/scroll';
import { typeIntoElement, typeIntoFocused } from '../actions/typing';
import { uploadFiles } from '../actions/upload';
import { defineWatchdog } from '../define-watchdog';
import {
  ClickElementEvent,
  DragAndDropEvent,
  GetDropdownOptionsEvent,
  HoverElementEvent,
  ScrollEvent,
  ScrollToTextEvent,
  SelectDropdownOptionEvent,
  SendKeysEvent,
  TypeTextEvent,
  UploadFileEvent,
} from '../../protocol/events/actions.events';
import { WaitForTextEvent } from '../../protocol/actions/navigation.actions';
import { fillSecrets, hasSecrets } from '../secrets';

/**
 * The actions on a page's elements (browser-use's DefaultActionWatchdog): each event goes to its CDP
 * routine in src/browser/actions, which holds its own policy (the actor calls the same routines). An
 * element is named by its index in the tab's latest state and resolved here. Acting on a background tab
 * never brings it forward. Typed text is never logged, and secrets are filled in only inside the typing
 * routine.
 */
export const defaultActionWatchdog = defineWatchdog({
  name: 'default-action',
  listensTo: [
    ClickElementEvent,
    TypeTextEvent,
    ScrollEvent,
    SendKeysEvent,
    UploadFileEvent,
    GetDropdownOptionsEvent,
    SelectDropdownOptionEvent,
    ScrollToTextEvent,
    WaitForTextEvent,
    HoverElementEvent,
    DragAndDropEvent,
  ],
  emits: [],
  setup: (ctx) => {
    const session = ctx.session;
    const routine = (signal: AbortSignal): RoutineContext => ({
      targets: session.targets,
      log: ctx.log,
      config: session.config,
      signal,
      downloads: session.downloads,
    });
    const element = (targetId: string, index: number): Promise<ElementHandle> => session.dom.resolve(targetId, index);
    const options = async (signal: AbortSignal, targetId: string, index: number) => {
      const listed = await dropdownOptions(routine(signal), await element(targetId, index));
      return { ...listed, formatted_options: formatOptions(listed.options) };
    };

    return {
      ClickElementEvent: async (event, hctx) => {
        const { target_id, index, coordinate_x, coordinate_y, button, click_count, modifiers } = event.payload;
        const mouse = { button, clickCount: click_count, modifiers };
        if (index === undefined) {
          const page = session.targets.requireSession(target_id);
          const clicked = await clickCoordinate(
            routine(hctx.signal),
            target_id,
            page,
            coordinate_x ?? 0,
            coordinate_y ?? 0,
            {
              ...mouse,
              force: false,
            },
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
        // A select opens a native popup a click cannot use: its options come back instead, as browser-use does.
        if (session.dom.entry(target_id, index)?.tag === 'select') {
          const listed = await options(hctx.signal, target_id, index);
          return {
            target_id,
            index,
            clicked: false,
            options: listed.options,
            formatted_options: listed.formatted_options,
            message: `Element ${index} is a select: pick an option with select_dropdown (index ${index}, text of the option)`,
          };
        }
        const link = session.dom.entry(target_id, index);
        const downloadLink =
          link?.tag === 'a' && ('download' in link.attributes || /^(blob|data):/.test(link.attributes['href'] ?? ''));
        // The click's first look at the element goes with the request for its handle: a round trip less.
        const { handle, alongside: firstLook } = await session.dom.resolveWith(target_id, index, clickFirstLook);
        const clicked = await clickElement(routine(hctx.signal), handle, mouse, {
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
      },

      TypeTextEvent: async (event, hctx) => {
        const { target_id, index, text, clear, typing } = event.payload;
        const request = {
          text,
          clear,
          typing,
          sensitive: hasSecrets(text),
          fill: (raw: string, url: string) => fillSecrets(raw, url, session.config.sensitive_data),
        };
        ctx.log.debug('typing', { target_id, index, characters: text.length, sensitive: request.sensitive, typing });
        const typed =
          index === undefined
            ? await typeIntoFocused(session.targets.requireSession(target_id), request)
            : await typeIntoElement(routine(hctx.signal), await element(target_id, index), request);
        const entry = index === undefined ? undefined : session.dom.entry(target_id, index);
        const notes: string[] = [];
        if (typed.value_matches === false && typed.actual_value !== null) {
          notes.push(`The field holds "${typed.actual_value}", not the typed text (the page changed it).`);
        }
        if (entry !== undefined && (entry.role === 'combobox' || 'aria-autocomplete' in entry.attributes)) {
          notes.push('This field suggests completions: take a new state to pick one.');
        }
        return {
          target_id,
          index: index ?? null,
          field: typed.field,
          method: typed.method,
          value: typed.actual_value,
          value_matches: typed.value_matches,
          rewritten: typed.rewritten,
          ...(notes.length === 0 ? {} : { message: notes.join(' ') }),
        };
      },

      ScrollEvent: async (event, hctx) => {
        const { target_id, direction: given, down, pages, amount, index } = event.payload;
        const direction = given ?? (down === false ? 'up' : 'down');
        const request = { direction, pages, amount: amount ?? null };
        const scrolled =
          index === undefined || index === 0
            ? await scrollPage(session.targets.requireSession(target_id), request)
            : await scrollElement(routine(hctx.signal), await element(target_id, index), request);
        const { kind: _kind, ...moved } = scrolled;
        return { target_id, direction, ...moved };
      },

      SendKeysEvent: async (event) => {
        const { target_id, keys } = event.payload;
        if (hasSecrets(keys)) {
          // Keys are pressed as written; only input checks the page before filling a secret in.
          throw new TabpilotError('INVALID_PARAMS', 'send_keys does not fill secrets: type them with input');
        }
        const page = session.targets.requireSession(target_id);
        const platform = await browserPlatform(page);
        const strokes = parseKeys(keys, platform);
        await pressStrokes(page, strokes, platform);
        return {
          target_id,
          sent: strokes.map((stroke) =>
            stroke.kind === 'chord' ? stroke.label : `text (${stroke.text.length} chars)`,
          ),
          platform,
        };
      },

      UploadFileEvent: async (event, hctx) => {
        const { target_id, index, path, files } = event.payload;
        const source = path === undefined ? { files: files ?? [] } : { path };
        const uploaded = await uploadFiles(routine(hctx.signal), await element(target_id, index), source);
        return { target_id, index, ...uploaded };
      },

      GetDropdownOptionsEvent: async (event, hctx) => {
        const { target_id, index } = event.payload;
        const listed = await options(hctx.signal, target_id, index);
        return {
          target_id,
          index,
          ...listed,
          message: `Use select_dropdown with index ${index} and the text of an option.`,
        };
      },

      SelectDropdownOptionEvent: async (event, hctx) => {
        const { target_id, index, text, values } = event.payload;
        const handle = await element(target_id, index);
        const picked =
          values === undefined
            ? await selectDropdownOption(routine(hctx.signal), handle, text ?? '')
            : await selectDropdownValues(routine(hctx.signal), handle, values);
        const chosen = (option: { text: string; value: string }) => ({ text: option.text, value: option.value });
        return {
          target_id,
          index,
          type: picked.type,
          selected: picked.option === null ? null : chosen(picked.option),
          selection: picked.selection.map(chosen),
        };
      },

      ScrollToTextEvent: async (event, hctx) => {
        const { target_id, text } = event.payload;
        const found = await scrollToText(routine(hctx.signal), target_id, text);
        return {
          target_id,
          ...found,
          message: found.found ? `Scrolled to "${text}"` : `"${text}" is not on the page`,
        };
      },

      WaitForTextEvent: async (event, hctx) => {
        const { target_id, text, gone, timeout } = event.payload;
        const waited = await waitForText(routine(hctx.signal), target_id, { text, gone, timeoutMs: timeout * 1000 });
        return { target_id, waited_ms: waited };
      },

      HoverElementEvent: async (event, hctx) => {
        const { target_id, index } = event.payload;
        const point = await hoverElement(routine(hctx.signal), await element(target_id, index));
        return { target_id, index, ...point };
      },

      DragAndDropEvent: async (event, hctx) => {
        const { target_id, index, to_index, to_x, to_y, steps } = event.payload;
        const drop: DropTarget =
          to_index === undefined ? { x: to_x ?? 0, y: to_y ?? 0 } : { handle: await element(target_id, to_index) };
        const dragged = await dragAndDrop(routine(hctx.signal), await element(target_id, index), drop, steps);
        return { target_id, index, ...dragged };
      },
    };
  },
});

/** browser-use's option listing: `0: text="Apple", value="a" (selected)`. */
function formatOptions(options: DropdownOptions['options']): string {
  return options
    .map(
      (option) =>
        `${option.index}: text="${option.text}", value="${option.value}"${option.selected ? ' (selected)' : ''}`,
    )
    .join('\n');
}
