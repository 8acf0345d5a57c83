import { z } from 'zod';
import { defineEvent } from '../../bus/define-event';

/**
 * Action events (reference §2, §4.15): browser-use's names and fields. An element travels as plain data,
 * `{target_id, index}`: the index of the latest state of that tab (never a node object). Fixed against
 * browser-use: the mouse button is honoured, left and right scroll sideways, coordinate clicks run their
 * safety checks unless forced, and key chords use the browser's platform.
 */

export const ElementRef = z.strictObject({
  target_id: z.string().min(1),
  index: z.number().int().positive(),
});
export type ElementRef = z.infer<typeof ElementRef>;

export const MouseButton = z.enum(['left', 'right', 'middle']);
export const KeyModifier = z.enum(['Alt', 'Control', 'Meta', 'Shift']);
export const ScrollDirection = z.enum(['up', 'down', 'left', 'right']);
export const TypingMethod = z.enum(['insert_text', 'key_events']);

const Point = z.strictObject({ x: z.number(), y: z.number() });

const clickFields = {
  button: MouseButton.default('left'),
  click_count: z.number().int().min(1).max(3).default(1),
  modifiers: z.array(KeyModifier).default([]),
};

export const ClickElementEvent = defineEvent('ClickElementEvent', {
  payload: { node: ElementRef, ...clickFields },
  result: z.strictObject({
    click_x: z.number().nullable(),
    click_y: z.number().nullable(),
    method: z.enum(['mouse', 'script']),
    checked: z.boolean().nullable(),
    opened_target_id: z.string().nullable(),
    /** Null when the first press reached the element; else what it hit instead (the click was sent again). */
    retried: z.string().nullable(),
  }),
  timeoutMs: 15_000,
});

export const ClickCoordinateEvent = defineEvent('ClickCoordinateEvent', {
  payload: {
    coordinate_x: z.number(),
    coordinate_y: z.number(),
    ...clickFields,
    /** Skip the checks (in the viewport, not a file input or a select). */
    force: z.boolean().default(false),
    /** A background tab to click in; null = the focused tab. */
    target_id: z.string().nullable().default(null),
  },
  result: z.strictObject({
    click_x: z.number(),
    click_y: z.number(),
    element: z.string().nullable(),
    opened_target_id: z.string().nullable(),
  }),
  timeoutMs: 15_000,
});

export const TypeTextEvent = defineEvent('TypeTextEvent', {
  payload: {
    /** null: type into whatever has focus in the tab. */
    node: ElementRef.nullable().default(null),
    target_id: z.string().nullable().default(null),
    /** May hold `<secret>name</secret>` placeholders: filled in right before typing, never stored. */
    text: z.string(),
    clear: z.boolean().default(true),
    is_sensitive: z.boolean().default(false),
    sensitive_key_name: z.string().nullable().default(null),
    typing: TypingMethod.default('insert_text'),
  },
  result: z.strictObject({
    actual_value: z.string().nullable(),
    value_matches: z.boolean().nullable(),
    method: z.enum(['insert_text', 'key_events', 'value_setter']),
    field: z.enum(['input', 'textarea', 'contenteditable', 'value', 'focused']),
    rewritten: z.boolean(),
  }),
  timeoutMs: 60_000,
});

export const ScrollEvent = defineEvent('ScrollEvent', {
  payload: {
    direction: ScrollDirection.default('down'),
    /** CSS px; null: `pages` of the container's visible size. */
    amount: z.number().positive().nullable().default(null),
    pages: z.number().positive().max(100).default(1),
    /** null: the page. */
    node: ElementRef.nullable().default(null),
    target_id: z.string().nullable().default(null),
  },
  result: z.strictObject({
    container: z.string(),
    moved_x: z.number(),
    moved_y: z.number(),
    scroll_x: z.number(),
    scroll_y: z.number(),
    at_end: z.boolean(),
  }),
  timeoutMs: 8_000,
});

export const SendKeysEvent = defineEvent('SendKeysEvent', {
  payload: { keys: z.string().min(1), target_id: z.string().nullable().default(null) },
  result: z.strictObject({
    /** What was pressed: chords as "Control+a", or the text typed. */
    sent: z.array(z.string()),
    platform: z.enum(['mac', 'other']),
  }),
  timeoutMs: 60_000,
});

export const FileBytes = z.strictObject({
  name: z.string().min(1),
  mime_type: z.string().default('application/octet-stream'),
  content_base64: z.string(),
});

export const UploadFileEvent = defineEvent('UploadFileEvent', {
  payload: {
    node: ElementRef,
    /** A path on the browser's machine (DOM.setFileInputFiles). */
    file_path: z.string().min(1).nullable().default(null),
    /** Or the files' bytes, set from inside the page. */
    files: z.array(FileBytes).min(1).nullable().default(null),
  },
  result: z.strictObject({
    files: z.array(z.strictObject({ name: z.string(), size: z.number(), type: z.string() })),
    method: z.enum(['path', 'bytes']),
  }),
  timeoutMs: 30_000,
});

const DropdownOption = z.strictObject({
  index: z.number().int(),
  text: z.string(),
  value: z.string(),
  selected: z.boolean(),
  disabled: z.boolean(),
});
const DropdownType = z.enum(['select', 'listbox', 'menu']);

export const GetDropdownOptionsEvent = defineEvent('GetDropdownOptionsEvent', {
  payload: { node: ElementRef },
  result: z.strictObject({ type: DropdownType, options: z.array(DropdownOption), multiple: z.boolean() }),
  timeoutMs: 15_000,
});

export const SelectDropdownOptionEvent = defineEvent('SelectDropdownOptionEvent', {
  payload: { node: ElementRef, text: z.string().min(1) },
  result: z.strictObject({ type: DropdownType, option: DropdownOption }),
  timeoutMs: 15_000,
});

export const ScrollToTextEvent = defineEvent('ScrollToTextEvent', {
  payload: { text: z.string().min(1), target_id: z.string().nullable().default(null) },
  result: z.strictObject({ found: z.boolean(), frame: z.enum(['page', 'child']).nullable() }),
  timeoutMs: 15_000,
});

export const HoverElementEvent = defineEvent('HoverElementEvent', {
  payload: { node: ElementRef },
  result: z.strictObject({
    x: z.number(),
    y: z.number(),
    /** Null when the first move reached the element; else what it hovered instead (it was moved again). */
    retried: z.string().nullable(),
  }),
  timeoutMs: 15_000,
});

export const DragAndDropEvent = defineEvent('DragAndDropEvent', {
  payload: {
    node: ElementRef,
    /** Drop on this element, or at `target_x`/`target_y` of the tab's viewport. */
    target: ElementRef.nullable().default(null),
    target_x: z.number().nullable().default(null),
    target_y: z.number().nullable().default(null),
    steps: z.number().int().min(1).max(100).default(10),
  },
  result: z.strictObject({ from: Point, to: Point, method: z.enum(['html5', 'mouse']) }),
  timeoutMs: 15_000,
});
