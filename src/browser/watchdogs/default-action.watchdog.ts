import type { CdpSession } from '../../cdp/session';
import { TabpilotError } from '../../shared/errors';
import { clickCoordinate, clickElement } from '../actions/click';
import { dragAndDrop } from '../actions/drag';
import { dropdownOptions, selectDropdownOption } from '../actions/dropdown';
import { handleOfResolved, type ElementHandle, type RoutineContext } from '../actions/element';
import { scrollToText } from '../actions/find-text';
import { hoverElement } from '../actions/hover';
import { browserPlatform, pressStrokes } from '../actions/keyboard';
import { parseKeys } from '../actions/keys';
import { scrollElement, scrollPage } from '../actions/scroll';
import { typeIntoElement, typeIntoFocused } from '../actions/typing';
import { uploadFiles } from '../actions/upload';
import { checkUploadPath } from '../actions/upload-policy';
import { defineWatchdog } from '../define-watchdog';
import {
  ClickCoordinateEvent,
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
  type ElementRef,
} from '../events/actions.events';
import { fillSecrets, hasSecrets } from '../secrets';
import type { BrowserSessionView } from '../session-view';

/**
 * DefaultActionWatchdog (reference §4.15): routes each action event to its CDP routine in
 * src/browser/actions. An element arrives as `{target_id, index}` and is resolved against that tab's
 * latest state here; a target_id of null means the focused tab. Acting on a background tab never brings
 * it forward. Typed text is never logged, and secrets are filled in only inside the typing routine.
 */
export const defaultActionWatchdog = defineWatchdog({
  name: 'default-action',
  listensTo: [
    ClickElementEvent,
    ClickCoordinateEvent,
    TypeTextEvent,
    ScrollEvent,
    SendKeysEvent,
    UploadFileEvent,
    GetDropdownOptionsEvent,
    SelectDropdownOptionEvent,
    ScrollToTextEvent,
    HoverElementEvent,
    DragAndDropEvent,
  ],
  emits: [],
  setup: (ctx) => {
    const session = ctx.session;
    const routine = (signal: AbortSignal): RoutineContext => ({ targets: session.targets, log: ctx.log, signal });
    const element = async (ref: ElementRef): Promise<ElementHandle> =>
      handleOfResolved(ref.target_id, await session.dom.resolve(ref.target_id, ref.index));

    return {
      ClickElementEvent: async (event, hctx) => {
        const { node, button, click_count, modifiers } = event.payload;
        return clickElement(routine(hctx.signal), await element(node), {
          button,
          clickCount: click_count,
          modifiers,
        });
      },

      ClickCoordinateEvent: async (event, hctx) => {
        const { coordinate_x, coordinate_y, button, click_count, modifiers, force, target_id } = event.payload;
        const page = await pageOf(session, target_id);
        return clickCoordinate(routine(hctx.signal), page.targetId, page, coordinate_x, coordinate_y, {
          button,
          clickCount: click_count,
          modifiers,
          force,
        });
      },

      TypeTextEvent: async (event, hctx) => {
        const { node, target_id, text, clear, is_sensitive, typing } = event.payload;
        const request = {
          text,
          clear,
          typing,
          sensitive: is_sensitive || hasSecrets(text),
          fill: (raw: string, url: string) => fillSecrets(raw, url, session.config.sensitive_data),
        };
        ctx.log.debug('typing', { node, characters: text.length, sensitive: request.sensitive, typing });
        if (node === null) {
          return typeIntoFocused(await pageOf(session, target_id), request);
        }
        return typeIntoElement(routine(hctx.signal), await element(node), request);
      },

      ScrollEvent: async (event, hctx) => {
        const { direction, amount, pages, node, target_id } = event.payload;
        const request = { direction, amount, pages };
        if (node === null) {
          return strip(await scrollPage(await pageOf(session, target_id), request));
        }
        return strip(await scrollElement(routine(hctx.signal), await element(node), request));
      },

      SendKeysEvent: async (event) => {
        if (hasSecrets(event.payload.keys)) {
          // Keys are pressed as written; only input checks the page before filling a secret in.
          throw new TabpilotError('INVALID_PARAMS', 'send_keys does not fill secrets: type them with input');
        }
        const page = await pageOf(session, event.payload.target_id);
        const platform = await browserPlatform(page);
        const strokes = parseKeys(event.payload.keys, platform);
        await pressStrokes(page, strokes, platform);
        return {
          sent: strokes.map((stroke) =>
            stroke.kind === 'chord' ? stroke.label : `text (${stroke.text.length} chars)`,
          ),
          platform,
        };
      },

      UploadFileEvent: async (event, hctx) => {
        const { node, file_path, files } = event.payload;
        if ((file_path === null) === (files === null)) {
          throw new TabpilotError('INVALID_PARAMS', 'Give either file_path or files (the bytes), not both or neither');
        }
        // A file this session downloaded may go back up without its folder in upload_paths.
        if (file_path !== null && !session.downloads.has(file_path)) {
          checkUploadPath(file_path, session.config.upload_paths);
        }
        const source = file_path === null ? { files: files ?? [] } : { path: file_path };
        return uploadFiles(routine(hctx.signal), await element(node), source);
      },

      GetDropdownOptionsEvent: async (event, hctx) =>
        dropdownOptions(routine(hctx.signal), await element(event.payload.node)),

      SelectDropdownOptionEvent: async (event, hctx) =>
        selectDropdownOption(routine(hctx.signal), await element(event.payload.node), event.payload.text),

      ScrollToTextEvent: async (event, hctx) => {
        const page = await pageOf(session, event.payload.target_id);
        return scrollToText(routine(hctx.signal), page.targetId, event.payload.text);
      },

      HoverElementEvent: async (event, hctx) => hoverElement(routine(hctx.signal), await element(event.payload.node)),

      DragAndDropEvent: async (event, hctx) => {
        const { node, target, target_x, target_y, steps } = event.payload;
        let drop: Parameters<typeof dragAndDrop>[2];
        if (target !== null) {
          if (target.target_id !== node.target_id) {
            throw new TabpilotError('INVALID_PARAMS', 'The drop target must be in the same tab as the dragged element');
          }
          drop = { handle: await element(target) };
        } else if (target_x !== null && target_y !== null) {
          drop = { x: target_x, y: target_y };
        } else {
          throw new TabpilotError('INVALID_PARAMS', 'Give a drop target element, or both target_x and target_y');
        }
        return dragAndDrop(routine(hctx.signal), await element(node), drop, steps);
      },
    };
  },
});

/** The top-level session of a tab, or of the focused tab. */
async function pageOf(session: BrowserSessionView, targetId: string | null): Promise<CdpSession> {
  return targetId === null ? session.targets.focusedSession() : session.targets.requireSession(targetId);
}

function strip<T extends { kind: string }>(outcome: T): Omit<T, 'kind'> {
  const { kind: _kind, ...rest } = outcome;
  return rest;
}
