import { z } from 'zod';
import { defineEvent } from '../define-event';
import { ClickDownload } from './artifacts.events';
import { TargetId } from './navigation.events';

/**
 * Action events: browser-use's names. An element is named by its index in the latest state of the tab
 * (`target_id`), never by a node object. Fixed against browser-use: the mouse button is honoured, left
 * and right scroll sideways, and key chords use the browser's platform.
 */

export const MouseButton = z.enum(['left', 'right', 'middle']);
export const KeyModifier = z.enum(['Alt', 'Control', 'Meta', 'Shift']);
export const ScrollDirection = z.enum(['up', 'down', 'left', 'right']);
export const TypingMethod = z.enum(['insert_text', 'key_events']);

export const Index = z
  .number()
  .int()
  .positive()
  .meta({ details: 'An element index from the latest state of that tab' });
const Point = z.strictObject({ x: z.number(), y: z.number() });

const DropdownOption = z.strictObject({
  index: z.number().int(),
  text: z.string(),
  value: z.string(),
  selected: z.boolean(),
  disabled: z.boolean(),
});
export type DropdownOption = z.infer<typeof DropdownOption>;
const DropdownType = z.enum(['select', 'listbox', 'menu']);

export const ClickElementEvent = defineEvent('ClickElementEvent', {
  payload: {
    target_id: TargetId,
    index: Index.optional(),
    coordinate_x: z
      .number()
      .min(0)
      .optional()
      .describe('Viewport px, instead of index')
      .meta({ details: 'Viewport CSS px, with coordinate_y, instead of index' }),
    coordinate_y: z.number().min(0).optional(),
    button: MouseButton.default('left'),
    click_count: z.number().int().min(1).max(3).default(1).describe('2 for a double click'),
    modifiers: z.array(KeyModifier).default([]).meta({ details: 'Keys held during the click', programsOnly: true }),
  },
  refine: (payload, ctx) => {
    const byCoordinates = payload.coordinate_x !== undefined || payload.coordinate_y !== undefined;
    if ((payload.index === undefined) === !byCoordinates) {
      ctx.addIssue({ code: 'custom', path: ['index'], message: 'give either index or coordinate_x and coordinate_y' });
    } else if (byCoordinates && (payload.coordinate_x === undefined || payload.coordinate_y === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['coordinate_y'], message: 'give both coordinate_x and coordinate_y' });
    }
  },
  result: z.strictObject({
    target_id: z.string(),
    index: z.number().int().optional(),
    /** False when the element is a select: its options come back instead (a click cannot pick one). */
    clicked: z.boolean(),
    method: z.enum(['mouse', 'script']).optional(),
    x: z.number().nullable().optional(),
    y: z.number().nullable().optional(),
    checked: z.boolean().nullable().optional(),
    /** A coordinate click: what was under the point. */
    element: z.string().nullable().optional(),
    opened_target_id: z.string().nullable().optional(),
    /** An index click: null when the first press reached the element; else what it hit instead (it was sent again). */
    retried: z.string().nullable().optional(),
    /** The download the click started, when it started one (the click waits for it, bounded). */
    download: ClickDownload.nullable().optional(),
    options: z.array(DropdownOption).optional(),
    formatted_options: z.string().optional(),
    message: z.string().optional(),
  }),
  timeoutMs: 15_000,
  description:
    'Click an element by index, or a point of the viewport by coordinates. A covered element fails with ELEMENT_OCCLUDED naming what covers it; a press that does not reach the element is stopped and sent once more at its fresh position (retried names what took the first), then fails ELEMENT_OCCLUDED; a click that opens a tab reports opened_tab_id, one that starts a download reports download (its path once saved).',
});

export const TypeTextEvent = defineEvent('TypeTextEvent', {
  payload: {
    target_id: TargetId,
    index: Index.optional().meta({ details: 'The field; default whatever has focus in the tab' }),
    /** May hold `<secret>name</secret>` placeholders: filled in right before typing, never stored. */
    text: z.string(),
    clear: z.boolean().default(true),
    typing: TypingMethod.default('insert_text').meta({
      details: 'insert_text: one input event (fast); key_events: a key down and up per character',
    }),
  },
  result: z.strictObject({
    target_id: z.string(),
    index: z.number().int().nullable(),
    field: z.enum(['input', 'textarea', 'contenteditable', 'value', 'focused']),
    method: z.enum(['insert_text', 'key_events', 'value_setter']),
    value: z.string().nullable(),
    value_matches: z.boolean().nullable(),
    rewritten: z.boolean(),
    message: z.string().optional(),
  }),
  timeoutMs: 60_000,
  description:
    'Type text into an element (clearing it first unless clear is false), or into whatever has focus when no index is given. <secret>name</secret> is replaced by that secret from the config on pages it is allowed on.',
});

export const ScrollEvent = defineEvent('ScrollEvent', {
  payload: {
    target_id: TargetId,
    direction: ScrollDirection.optional().describe('Default down'),
    down: z.boolean().optional().meta({ details: "browser-use's form: true = down, false = up", programsOnly: true }),
    pages: z.number().positive().max(100).default(1).meta({ details: "How far, in the container's visible size" }),
    amount: z
      .number()
      .positive()
      .optional()
      .describe('px, instead of pages')
      .meta({ details: 'How far in CSS px, instead of pages' }),
    index: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('Element to scroll in; 0: the page')
      .meta({ details: 'An element to scroll in; absent or 0 scrolls the page' }),
  },
  refine: (payload, ctx) => {
    if (payload.direction !== undefined && payload.down !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['down'], message: 'give direction or down, not both' });
    }
  },
  result: z.strictObject({
    target_id: z.string(),
    direction: ScrollDirection,
    container: z.string(),
    moved_x: z.number(),
    moved_y: z.number(),
    scroll_x: z.number(),
    scroll_y: z.number(),
    at_end: z.boolean(),
  }),
  timeoutMs: 8_000,
  description:
    'Scroll the page, or the scroll container of an element, by pages (of its visible size) in any direction.',
});

export const SendKeysEvent = defineEvent('SendKeysEvent', {
  payload: { keys: z.string().min(1), target_id: TargetId },
  result: z.strictObject({
    target_id: z.string(),
    /** What was pressed: chords as "Control+a", or the text typed. */
    sent: z.array(z.string()),
    platform: z.enum(['mac', 'other']),
    /** The download Enter on a focused download link started (it waits for it, as a click does); absent: none. */
    download: ClickDownload.optional(),
  }),
  timeoutMs: 60_000,
  description:
    'Press keys in the focused element: "Enter", "Escape", chords like "Control+a" or "ControlOrMeta+c" (Cmd on a Mac browser), sequences like "Tab Tab Enter"; anything else is typed as text. Enter on a focused link that downloads reports download (its path once saved), as a click does.',
});

export const FileBytes = z.strictObject({
  name: z.string().min(1),
  mime_type: z.string().default('application/octet-stream'),
  content_base64: z.string(),
});

export const UploadFileEvent = defineEvent('UploadFileEvent', {
  payload: {
    target_id: TargetId,
    index: Index,
    path: z
      .string()
      .min(1)
      .optional()
      .meta({ details: "A file on the browser's machine, under a folder of upload_paths" }),
    files: z
      .array(FileBytes)
      .min(1)
      .optional()
      // A model writes no file's bytes well: the agent uploads by path, as browser-use's does.
      .meta({ details: 'The files themselves: name, mime_type, content_base64', programsOnly: true }),
  },
  refine: (payload, ctx) => {
    if ((payload.path === undefined) === (payload.files === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['path'], message: 'give either path or files' });
    }
  },
  result: z.strictObject({
    target_id: z.string(),
    index: z.number().int(),
    files: z.array(z.strictObject({ name: z.string(), size: z.number(), type: z.string() })),
    method: z.enum(['path', 'bytes']),
  }),
  timeoutMs: 30_000,
  description:
    "Put files into a file input (the element, or the file input its label or button stands for): by path on the browser's machine, or by content (base64).",
});

export const GetDropdownOptionsEvent = defineEvent('GetDropdownOptionsEvent', {
  payload: { target_id: TargetId, index: Index },
  result: z.strictObject({
    target_id: z.string(),
    index: z.number().int(),
    type: DropdownType,
    multiple: z.boolean(),
    options: z.array(DropdownOption),
    /** browser-use's listing: `0: text="Apple", value="a" (selected)`. */
    formatted_options: z.string(),
    message: z.string(),
  }),
  timeoutMs: 15_000,
  description: 'The options of a select, or of an ARIA listbox, combobox or menu.',
});

const ChosenOption = z.strictObject({ text: z.string(), value: z.string() });

export const SelectDropdownOptionEvent = defineEvent('SelectDropdownOptionEvent', {
  payload: {
    target_id: TargetId,
    index: Index,
    text: z.string().min(1).optional().meta({ details: 'The exact text or value of the option to pick' }),
    values: z.array(z.string().min(1)).max(200).optional().describe('Multi-select: every option it must hold').meta({
      details:
        'A multi-select only, instead of text: the exact texts or values of every option it must hold afterwards; the others are deselected ([] clears it)',
    }),
  },
  refine: (payload, ctx) => {
    if ((payload.text === undefined) === (payload.values === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['text'],
        message: 'give either text (one option) or values (exactly these)',
      });
    }
  },
  result: z.strictObject({
    target_id: z.string(),
    index: z.number().int(),
    type: DropdownType,
    /** The option picked by text; null when values set the whole selection. */
    selected: ChosenOption.nullable(),
    /** What the control holds afterwards, read back from it (the options a multi-select has selected). */
    selection: z.array(ChosenOption),
  }),
  timeoutMs: 20_000,
  description:
    'Pick an option of a select, an ARIA listbox or combobox by its exact text or value, or (values) set a multi-select to exactly a set of options. The control is read back afterwards: an option it does not hold fails UNSUPPORTED saying what it holds instead.',
});

export const ScrollToTextEvent = defineEvent('ScrollToTextEvent', {
  payload: { text: z.string().min(1), target_id: TargetId },
  result: z.strictObject({
    target_id: z.string(),
    found: z.boolean(),
    frame: z.enum(['page', 'child']).nullable(),
    message: z.string(),
  }),
  timeoutMs: 15_000,
  description: 'Scroll to the first visible occurrence of a text on the page (not finding it is not an error).',
});

export const HoverElementEvent = defineEvent('HoverElementEvent', {
  payload: { target_id: TargetId, index: Index },
  result: z.strictObject({
    target_id: z.string(),
    index: z.number().int(),
    x: z.number(),
    y: z.number(),
    /** Null when the first move reached the element; else what it hovered instead (it was moved again). */
    retried: z.string().nullable(),
  }),
  timeoutMs: 15_000,
  description: 'Move the mouse over an element (menus and tooltips that open on hover).',
});

export const DragAndDropEvent = defineEvent('DragAndDropEvent', {
  payload: {
    target_id: TargetId,
    index: Index,
    to_index: Index.optional().meta({ details: 'Drop onto this element' }),
    to_x: z.number().optional().meta({ details: "Or at this point of the tab's viewport, with to_y" }),
    to_y: z.number().optional(),
    steps: z.number().int().min(1).max(100).default(10).meta({ details: 'Mouse moves on the way' }),
  },
  refine: (payload, ctx) => {
    const byPoint = payload.to_x !== undefined && payload.to_y !== undefined;
    if ((payload.to_index === undefined) === !byPoint) {
      ctx.addIssue({ code: 'custom', path: ['to_index'], message: 'give either to_index or to_x and to_y' });
    }
  },
  result: z.strictObject({
    target_id: z.string(),
    index: z.number().int(),
    from: Point,
    to: Point,
    method: z.enum(['html5', 'mouse']),
    /** Null when the first press reached the element; else what it hit instead (it was pressed again). */
    retried: z.string().nullable(),
  }),
  timeoutMs: 15_000,
  description: 'Drag an element onto another element (to_index) or to a point of the viewport (to_x, to_y).',
});
