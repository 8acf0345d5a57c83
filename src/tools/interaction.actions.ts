import { DownloadWatch } from '../browser/downloads/download-watch';
import { z } from 'zod';
import {
  ClickCoordinateEvent,
  ClickElementEvent,
  DragAndDropEvent,
  FileBytes,
  GetDropdownOptionsEvent,
  HoverElementEvent,
  KeyModifier,
  MouseButton,
  ScrollDirection,
  ScrollEvent,
  ScrollToTextEvent,
  SelectDropdownOptionEvent,
  SendKeysEvent,
  TypeTextEvent,
  TypingMethod,
  UploadFileEvent,
} from '../browser/events/actions.events';
import { secretNames } from '../browser/secrets';
import { resolveTabId } from '../browser/session-verbs';
import type { BrowserSession } from '../browser/session';
import { isTabpilotError, TabpilotError } from '../shared/errors';
import { defineAction, type ActionContext, type AnyActionDefinition } from './registry';

/**
 * The interaction tools (reference §7.2): click, input, scroll, send_keys, find_text, upload_file,
 * dropdown_options, select_dropdown, plus hover and drag. Each acts on the focused tab or on the tab
 * named by `tab_id` (a background tab stays in the background); indexes come from that tab's latest state.
 */

const TabId = z.string().min(1).max(64).describe('A tab id from "tabs"; default the focused tab');
const Index = z.number().int().positive().describe('An element index from the latest state of that tab');

function source(ctx: ActionContext): { source: string } {
  return { source: `${ctx.client.kind}:${ctx.client.id}` };
}

async function targetOf(session: BrowserSession, tabId: string | undefined): Promise<string> {
  return tabId === undefined ? session.focusedTargetId() : resolveTabId(session, tabId);
}

function tabIdOrNull(session: BrowserSession, targetId: string | null): string | null {
  return targetId === null ? null : session.tabIdOf(targetId);
}

/** browser-use's option listing: `0: text="Apple", value="a" (selected)`. */
function formatOptions(
  options: ReadonlyArray<{ index: number; text: string; value: string; selected: boolean }>,
): string {
  return options
    .map(
      (option) =>
        `${option.index}: text="${option.text}", value="${option.value}"${option.selected ? ' (selected)' : ''}`,
    )
    .join('\n');
}

export const clickAction = defineAction({
  name: 'click',
  description:
    'Click an element by index, or a point of the viewport by coordinates. A covered element fails with ELEMENT_OCCLUDED naming what covers it; a click that opens a tab reports opened_tab_id.',
  params: z
    .strictObject({
      index: Index.optional(),
      coordinate_x: z.number().min(0).optional().describe('Viewport CSS px, with coordinate_y, instead of index'),
      coordinate_y: z.number().min(0).optional(),
      button: MouseButton.default('left'),
      click_count: z.number().int().min(1).max(3).default(1).describe('2 for a double click'),
      modifiers: z.array(KeyModifier).default([]).describe('Keys held during the click'),
      tab_id: TabId.optional(),
    })
    .superRefine((params, refine) => {
      const byCoordinates = params.coordinate_x !== undefined || params.coordinate_y !== undefined;
      if ((params.index === undefined) === !byCoordinates) {
        refine.addIssue({
          code: 'custom',
          path: ['index'],
          message: 'give either index or coordinate_x and coordinate_y',
        });
      } else if (byCoordinates && (params.coordinate_x === undefined || params.coordinate_y === undefined)) {
        refine.addIssue({ code: 'custom', path: ['coordinate_y'], message: 'give both coordinate_x and coordinate_y' });
      }
    }),
  run: async (params, ctx) => {
    const targetId = await targetOf(ctx.session, params.tab_id);
    const tabId = ctx.session.tabIdOf(targetId);
    const mouse = { button: params.button, click_count: params.click_count, modifiers: params.modifiers };
    // A click that starts a download says so (and waits for it, bounded).
    const link = params.index === undefined ? undefined : ctx.session.dom.entry(targetId, params.index);
    const downloadLink =
      link?.tag === 'a' && ('download' in link.attributes || /^(blob|data):/.test(link.attributes['href'] ?? ''));
    const downloads = new DownloadWatch(ctx.session.targets, ctx.session.downloads, targetId, downloadLink);
    if (params.index === undefined) {
      const result = await ctx.session.bus
        .emit(
          ClickCoordinateEvent,
          {
            coordinate_x: params.coordinate_x ?? 0,
            coordinate_y: params.coordinate_y ?? 0,
            target_id: targetId,
            ...mouse,
          },
          source(ctx),
        )
        .result()
        .catch(async (error: unknown) => {
          await downloads.outcome();
          throw error;
        });
      return {
        tab_id: tabId,
        clicked: true,
        x: result?.click_x ?? null,
        y: result?.click_y ?? null,
        element: result?.element ?? null,
        opened_tab_id: tabIdOrNull(ctx.session, result?.opened_target_id ?? null),
        download: await downloads.outcome(),
      };
    }
    const node = { target_id: targetId, index: params.index };
    try {
      const result = await ctx.session.bus.emit(ClickElementEvent, { node, ...mouse }, source(ctx));
      return {
        tab_id: tabId,
        index: params.index,
        clicked: true,
        method: result?.method ?? 'mouse',
        x: result?.click_x ?? null,
        y: result?.click_y ?? null,
        checked: result?.checked ?? null,
        opened_tab_id: tabIdOrNull(ctx.session, result?.opened_target_id ?? null),
        download: await downloads.outcome(),
      };
    } catch (error) {
      await downloads.outcome();
      // A select opens a native popup a click cannot use: show its options instead, as browser-use does.
      if (!isTabpilotError(error) || error.details?.['reason'] !== 'select') {
        throw error;
      }
      const dropdown = await ctx.session.bus.emit(GetDropdownOptionsEvent, { node }, source(ctx));
      return {
        tab_id: tabId,
        index: params.index,
        clicked: false,
        options: dropdown?.options ?? [],
        formatted_options: formatOptions(dropdown?.options ?? []),
        message: `Element ${params.index} is a select: pick an option with select_dropdown (index ${params.index}, text of the option)`,
      };
    }
  },
});

export const inputAction = defineAction({
  name: 'input',
  description:
    'Type text into an element (clearing it first unless clear is false), or into whatever has focus when no index is given. <secret>name</secret> is replaced by that secret from the config on pages it is allowed on.',
  params: z.strictObject({
    index: Index.optional(),
    text: z.string(),
    clear: z.boolean().default(true),
    typing: TypingMethod.default('insert_text').describe(
      'insert_text: one input event (fast); key_events: a key down and up per character',
    ),
    tab_id: TabId.optional(),
  }),
  run: async (params, ctx) => {
    const targetId = await targetOf(ctx.session, params.tab_id);
    const names = secretNames(params.text);
    const result = await ctx.session.bus.emit(
      TypeTextEvent,
      {
        node: params.index === undefined ? null : { target_id: targetId, index: params.index },
        target_id: targetId,
        text: params.text,
        clear: params.clear,
        is_sensitive: names.length > 0,
        sensitive_key_name: names.length === 0 ? null : names.join(','),
        typing: params.typing,
      },
      source(ctx),
    );
    const entry = params.index === undefined ? undefined : ctx.session.dom.entry(targetId, params.index);
    const suggests = entry !== undefined && (entry.role === 'combobox' || 'aria-autocomplete' in entry.attributes);
    const notes: string[] = [];
    if (result?.value_matches === false && result.actual_value !== null) {
      notes.push(`The field holds "${result.actual_value}", not the typed text (the page changed it).`);
    }
    if (suggests) {
      notes.push('This field suggests completions: take a new state to pick one.');
    }
    return {
      tab_id: ctx.session.tabIdOf(targetId),
      index: params.index ?? null,
      field: result?.field ?? 'focused',
      method: result?.method ?? params.typing,
      value: result?.actual_value ?? null,
      value_matches: result?.value_matches ?? null,
      rewritten: result?.rewritten ?? false,
      ...(notes.length === 0 ? {} : { message: notes.join(' ') }),
    };
  },
});

export const scrollAction = defineAction({
  name: 'scroll',
  description:
    'Scroll the page, or the scroll container of an element, by pages (of its visible size) in any direction.',
  params: z.strictObject({
    direction: ScrollDirection.optional(),
    down: z.boolean().optional().describe("browser-use's form: true = down, false = up"),
    pages: z.number().positive().max(100).default(1),
    index: z.number().int().min(0).optional().describe('An element to scroll in; absent or 0 scrolls the page'),
    tab_id: TabId.optional(),
  }),
  run: async (params, ctx) => {
    if (params.direction !== undefined && params.down !== undefined) {
      throw new TabpilotError('INVALID_PARAMS', 'scroll: give direction or down, not both', {
        details: { action: 'scroll', field: 'down' },
      });
    }
    const direction = params.direction ?? (params.down === false ? 'up' : 'down');
    const targetId = await targetOf(ctx.session, params.tab_id);
    const node = params.index === undefined || params.index === 0 ? null : { target_id: targetId, index: params.index };
    const result = await ctx.session.bus.emit(
      ScrollEvent,
      { direction, pages: params.pages, node, target_id: targetId },
      source(ctx),
    );
    return { tab_id: ctx.session.tabIdOf(targetId), direction, ...result };
  },
});

export const sendKeysAction = defineAction({
  name: 'send_keys',
  description:
    'Press keys in the focused element: "Enter", "Escape", chords like "Control+a" or "ControlOrMeta+c" (Cmd on a Mac browser), sequences like "Tab Tab Enter"; anything else is typed as text.',
  params: z.strictObject({ keys: z.string().min(1), tab_id: TabId.optional() }),
  run: async (params, ctx) => {
    const targetId = await targetOf(ctx.session, params.tab_id);
    const result = await ctx.session.bus.emit(SendKeysEvent, { keys: params.keys, target_id: targetId }, source(ctx));
    return { tab_id: ctx.session.tabIdOf(targetId), ...result };
  },
});

export const findTextAction = defineAction({
  name: 'find_text',
  description: 'Scroll to the first visible occurrence of a text on the page (not finding it is not an error).',
  params: z.strictObject({ text: z.string().min(1), tab_id: TabId.optional() }),
  run: async (params, ctx) => {
    const targetId = await targetOf(ctx.session, params.tab_id);
    const result = await ctx.session.bus.emit(
      ScrollToTextEvent,
      { text: params.text, target_id: targetId },
      source(ctx),
    );
    const found = result?.found ?? false;
    return {
      tab_id: ctx.session.tabIdOf(targetId),
      found,
      message: found ? `Scrolled to "${params.text}"` : `"${params.text}" is not on the page`,
    };
  },
});

export const uploadFileAction = defineAction({
  name: 'upload_file',
  description:
    "Put files into a file input (the element, or the file input its label or button stands for): by path on the browser's machine, or by content (base64).",
  params: z
    .strictObject({
      index: Index,
      path: z.string().min(1).optional(),
      files: z.array(FileBytes).min(1).optional().describe('The files themselves: name, mime_type, content_base64'),
      tab_id: TabId.optional(),
    })
    .superRefine((params, refine) => {
      if ((params.path === undefined) === (params.files === undefined)) {
        refine.addIssue({ code: 'custom', path: ['path'], message: 'give either path or files' });
      }
    }),
  run: async (params, ctx) => {
    const targetId = await targetOf(ctx.session, params.tab_id);
    const result = await ctx.session.bus.emit(
      UploadFileEvent,
      {
        node: { target_id: targetId, index: params.index },
        file_path: params.path ?? null,
        files: params.files ?? null,
      },
      source(ctx),
    );
    return { tab_id: ctx.session.tabIdOf(targetId), index: params.index, ...result };
  },
});

export const dropdownOptionsAction = defineAction({
  name: 'dropdown_options',
  description: 'The options of a select, or of an ARIA listbox, combobox or menu.',
  params: z.strictObject({ index: Index, tab_id: TabId.optional() }),
  run: async (params, ctx) => {
    const targetId = await targetOf(ctx.session, params.tab_id);
    const result = await ctx.session.bus.emit(
      GetDropdownOptionsEvent,
      { node: { target_id: targetId, index: params.index } },
      source(ctx),
    );
    const options = result?.options ?? [];
    return {
      tab_id: ctx.session.tabIdOf(targetId),
      index: params.index,
      type: result?.type ?? 'select',
      multiple: result?.multiple ?? false,
      options,
      formatted_options: formatOptions(options),
      message: `Use select_dropdown with index ${params.index} and the text of an option.`,
    };
  },
});

export const selectDropdownAction = defineAction({
  name: 'select_dropdown',
  description: 'Pick an option of a select or an ARIA listbox by its exact text or value.',
  params: z.strictObject({ index: Index, text: z.string().min(1), tab_id: TabId.optional() }),
  run: async (params, ctx) => {
    const targetId = await targetOf(ctx.session, params.tab_id);
    const result = await ctx.session.bus.emit(
      SelectDropdownOptionEvent,
      { node: { target_id: targetId, index: params.index }, text: params.text },
      source(ctx),
    );
    return {
      tab_id: ctx.session.tabIdOf(targetId),
      index: params.index,
      type: result?.type ?? 'select',
      selected: result === undefined ? null : { text: result.option.text, value: result.option.value },
    };
  },
});

export const hoverAction = defineAction({
  name: 'hover',
  description: 'Move the mouse over an element (menus and tooltips that open on hover).',
  params: z.strictObject({ index: Index, tab_id: TabId.optional() }),
  run: async (params, ctx) => {
    const targetId = await targetOf(ctx.session, params.tab_id);
    const point = await ctx.session.bus.emit(
      HoverElementEvent,
      { node: { target_id: targetId, index: params.index } },
      source(ctx),
    );
    return { tab_id: ctx.session.tabIdOf(targetId), index: params.index, x: point?.x ?? null, y: point?.y ?? null };
  },
});

export const dragAction = defineAction({
  name: 'drag',
  description: 'Drag an element onto another element (to_index) or to a point of the viewport (to_x, to_y).',
  params: z
    .strictObject({
      index: Index,
      to_index: Index.optional(),
      to_x: z.number().optional(),
      to_y: z.number().optional(),
      tab_id: TabId.optional(),
    })
    .superRefine((params, refine) => {
      const byPoint = params.to_x !== undefined && params.to_y !== undefined;
      if ((params.to_index === undefined) === !byPoint) {
        refine.addIssue({ code: 'custom', path: ['to_index'], message: 'give either to_index or to_x and to_y' });
      }
    }),
  run: async (params, ctx) => {
    const targetId = await targetOf(ctx.session, params.tab_id);
    const result = await ctx.session.bus.emit(
      DragAndDropEvent,
      {
        node: { target_id: targetId, index: params.index },
        target: params.to_index === undefined ? null : { target_id: targetId, index: params.to_index },
        target_x: params.to_x ?? null,
        target_y: params.to_y ?? null,
      },
      source(ctx),
    );
    return { tab_id: ctx.session.tabIdOf(targetId), index: params.index, ...result };
  },
});

export const INTERACTION_ACTIONS: readonly AnyActionDefinition[] = [
  clickAction,
  inputAction,
  scrollAction,
  sendKeysAction,
  findTextAction,
  uploadFileAction,
  dropdownOptionsAction,
  selectDropdownAction,
  hoverAction,
  dragAction,
];
