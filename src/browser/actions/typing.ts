import type { CdpSession } from '../../cdp/session';
import { TabpilotError } from '../../shared/errors';
import type { ElementHandle, RoutineContext } from './element';
import type { TypingPlan } from './in-page-api';
import { callInFrame, callOn } from './in-page-call';
import { pressStrokes, typeWithKeys } from './keyboard';
import { namedKey } from './keys';

export type TypingMethod = 'insert_text' | 'key_events';

export interface TypeRequest {
  /** The text as the client wrote it (secret placeholders included). */
  text: string;
  clear: boolean;
  typing: TypingMethod;
  /** Never read the value back out of the page, never log it. */
  sensitive: boolean;
  /** Turns the text into what is typed, for the document that receives it (fills in secrets). */
  fill: (text: string, url: string) => string;
}

export interface TypeOutcome {
  /** The value read back from the element; null when sensitive or unknown. */
  actual_value: string | null;
  /** Whether the element ended with the text (null when typing into whatever has focus). */
  value_matches: boolean | null;
  method: TypingMethod | 'value_setter';
  field: 'input' | 'textarea' | 'contenteditable' | 'value' | 'focused';
  /** The page changed the value after typing and it was set again the way a framework accepts. */
  rewritten: boolean;
}

const REFUSALS: Record<Extract<TypingPlan, { kind: 'refused' }>['reason'], string> = {
  select: 'is a select: use select_dropdown',
  'file-input': 'is a file input: use upload_file',
  checkable: 'is a checkbox or radio button: click it',
  'not-editable': 'does not take text',
  disabled: 'is disabled',
  'read-only': 'is read-only',
};

async function sendText(pageSession: CdpSession, text: string, clear: boolean, typing: TypingMethod): Promise<void> {
  if (text === '') {
    if (clear) {
      // The selection covers the old value: a real Delete removes it (one trusted input event).
      const remove = namedKey('Delete');
      if (remove !== undefined) {
        await pressStrokes(pageSession, [{ kind: 'chord', modifiers: [], key: remove, label: 'Delete' }], 'other');
      }
    }
    return;
  }
  if (typing === 'insert_text') {
    // One input event for the whole text, replacing the selection (the old value when clearing).
    await pageSession.send('Input.insertText', { text });
  } else {
    await typeWithKeys(pageSession, text);
  }
}

/**
 * Types into an element: the in-page half focuses it and selects what the text replaces, then the text
 * goes in as trusted input (one Input.insertText, or a key down and up per character); date, time, colour
 * and range inputs get their value set directly. The value is read back; when a framework put another
 * value there, it is set again through the native setter with input and change, and read again.
 */
export async function typeIntoElement(
  ctx: RoutineContext,
  handle: ElementHandle,
  request: TypeRequest,
): Promise<TypeOutcome> {
  const plan = await callOn(handle.session, handle.objectId, 'prepareTyping', { clear: request.clear });
  if (plan.kind === 'refused') {
    throw new TabpilotError('INVALID_PARAMS', `${handle.label} ${plan.element} ${REFUSALS[plan.reason]}`, {
      details: { reason: plan.reason },
    });
  }
  const text = request.fill(request.text, plan.url);
  const hide = request.sensitive || plan.secret;
  const check = async (): Promise<{ matches: boolean; actual: string | null }> =>
    callOn(handle.session, handle.objectId, 'readBack', text, { clear: request.clear, hide });

  if (plan.kind === 'value' || !plan.focused) {
    if (plan.kind === 'text') {
      ctx.log.debug('the element did not take focus: setting its value instead', { element: handle.label });
    }
    await callOn(handle.session, handle.objectId, 'setValue', text, !request.clear);
    const result = await check();
    if (plan.kind === 'value' && !result.matches) {
      throw new TabpilotError(
        'INVALID_PARAMS',
        `${handle.label} ${plan.element} (a ${plan.input_type} input) did not take ${hide ? 'the value' : `"${text}"`}${
          result.actual === null ? '' : `; it holds "${result.actual}"`
        }`,
        { details: { input_type: plan.input_type } },
      );
    }
    return {
      actual_value: result.actual,
      value_matches: result.matches,
      method: 'value_setter',
      field: plan.kind === 'value' ? 'value' : plan.field,
      rewritten: false,
    };
  }

  await sendText(handle.pageSession, text, request.clear, request.typing);
  let result = await check();
  let rewritten = false;
  if (!result.matches && request.clear) {
    ctx.log.debug('the page changed the typed value: setting it again', { element: handle.label });
    await callOn(handle.session, handle.objectId, 'setValue', text, false);
    result = await check();
    rewritten = true;
  }
  return {
    actual_value: result.actual,
    value_matches: result.matches,
    method: request.typing,
    field: plan.field,
    rewritten,
  };
}

/**
 * Types into whatever has focus in a tab (no element given). Secrets go only to a top-level document
 * whose URL matches: with focus inside a frame the receiving document is unknown, so they are refused.
 */
export async function typeIntoFocused(pageSession: CdpSession, request: TypeRequest): Promise<TypeOutcome> {
  const focus = await callInFrame(pageSession, 'focusInfo');
  const text = request.fill(request.text, focus.url);
  if (text !== request.text && focus.in_frame) {
    throw new TabpilotError(
      'FORBIDDEN',
      'Focus is inside a frame: secrets are typed only into an element given by its index',
    );
  }
  await sendText(pageSession, text, false, request.typing);
  return { actual_value: null, value_matches: null, method: request.typing, field: 'focused', rewritten: false };
}
