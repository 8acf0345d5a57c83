import type { PayloadOf } from '../../protocol/define-event';
import type {
  GetDropdownOptionsEvent,
  SelectDropdownOptionEvent,
  SendKeysEvent,
  TypeTextEvent,
  UploadFileEvent,
} from '../../protocol/events/actions.events';
import { TabpilotError } from '../../shared/errors';
import { fillSecrets, hasSecrets } from '../secrets';
import type { ActionScope } from './action-scope';
import { dropdownOptions, selectDropdownOption, selectDropdownValues, type DropdownOptions } from './dropdown';
import { browserPlatform } from './keyboard';
import { pressKeys } from './key-press';
import { parseKeys } from './keys';
import { typeIntoElement, typeIntoFocused } from './typing';
import { uploadFiles } from './upload';

/**
 * The actions that fill a form in (type, press keys, upload files, list and pick a dropdown's options),
 * each from its event's payload to its CDP routine and its result. Typed text is never logged, and
 * secrets are filled in only inside the typing routine.
 */
export class FormActions {
  readonly #scope: ActionScope;

  constructor(scope: ActionScope) {
    this.#scope = scope;
  }

  async type(payload: PayloadOf<typeof TypeTextEvent>, signal: AbortSignal) {
    const { session, log } = this.#scope;
    const { target_id, index, text, clear, typing } = payload;
    const request = {
      text,
      clear,
      typing,
      sensitive: hasSecrets(text),
      fill: (raw: string, url: string) => fillSecrets(raw, url, session.config.sensitive_data),
    };
    log.debug('typing', { target_id, index, characters: text.length, sensitive: request.sensitive, typing });
    const typed =
      index === undefined
        ? await typeIntoFocused(session.targets.requireSession(target_id), request)
        : await typeIntoElement(this.#scope.routine(signal), await this.#scope.element(target_id, index), request);
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
  }

  async sendKeys(payload: PayloadOf<typeof SendKeysEvent>, signal: AbortSignal) {
    const { target_id, keys } = payload;
    if (hasSecrets(keys)) {
      // Keys are pressed as written; only input checks the page before filling a secret in.
      throw new TabpilotError('INVALID_PARAMS', 'send_keys does not fill secrets: type them with input');
    }
    const page = this.#scope.session.targets.requireSession(target_id);
    const platform = await browserPlatform(page);
    const strokes = parseKeys(keys, platform);
    const download = await pressKeys(this.#scope.routine(signal), page, target_id, strokes, platform);
    return {
      target_id,
      sent: strokes.map((stroke) => (stroke.kind === 'chord' ? stroke.label : `text (${stroke.text.length} chars)`)),
      platform,
      // Only where Enter started one: a key press's answer stays short.
      ...(download === null ? {} : { download }),
    };
  }

  async upload(payload: PayloadOf<typeof UploadFileEvent>, signal: AbortSignal) {
    const { target_id, index, path, files } = payload;
    const source = path === undefined ? { files: files ?? [] } : { path };
    const uploaded = await uploadFiles(
      this.#scope.routine(signal),
      await this.#scope.element(target_id, index),
      source,
    );
    return { target_id, index, ...uploaded };
  }

  async dropdownOptions(payload: PayloadOf<typeof GetDropdownOptionsEvent>, signal: AbortSignal) {
    const { target_id, index } = payload;
    const listed = await listOptions(this.#scope, signal, target_id, index);
    return {
      target_id,
      index,
      ...listed,
      message: `Use select_dropdown with index ${index} and the text of an option.`,
    };
  }

  async selectDropdown(payload: PayloadOf<typeof SelectDropdownOptionEvent>, signal: AbortSignal) {
    const { target_id, index, text, values } = payload;
    const handle = await this.#scope.element(target_id, index);
    const routine = this.#scope.routine(signal);
    const picked =
      values === undefined
        ? await selectDropdownOption(routine, handle, text ?? '')
        : await selectDropdownValues(routine, handle, values);
    const chosen = (option: { text: string; value: string }) => ({ text: option.text, value: option.value });
    return {
      target_id,
      index,
      type: picked.type,
      selected: picked.option === null ? null : chosen(picked.option),
      selection: picked.selection.map(chosen),
    };
  }
}

/** A dropdown's options, with browser-use's listing of them. */
export async function listOptions(scope: ActionScope, signal: AbortSignal, targetId: string, index: number) {
  const listed = await dropdownOptions(scope.routine(signal), await scope.element(targetId, index));
  return { ...listed, formatted_options: formatOptions(listed.options) };
}

/** browser-use's option listing: `0: text="Apple", value="a" (selected)`. */
function formatOptions(options: DropdownOptions['options']): string {
  return options
    .map(
      (option) =>
        `${option.index}: text="${option.text}", value="${option.value}"${option.selected ? ' (selected)' : ''}`,
    )
    .join('\n');
}
