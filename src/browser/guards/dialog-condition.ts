import type { Suspension } from '../../cdp/connection';
import { TabpilotError } from '../../shared/errors';
import { answeredByBrowser } from './crash-conditions';
import type { DialogCondition, OpenDialog } from './tab-conditions';

/** The one command a page blocked by a dialog still answers: the answer itself. */
const ANSWER_METHOD = 'Page.handleJavaScriptDialog';

/** The details every error about an open dialog carries, so a client can tell it from a real cover. */
export const DIALOG_OPEN_REASON = 'dialog_open';

function described(dialog: OpenDialog): string {
  return `a JavaScript ${dialog.dialog_type} dialog ("${dialog.message}")`;
}

/** How to answer it, in the protocol's words. */
export function dialogAdvice(tabId: string, dialog: OpenDialog): string {
  const text = dialog.dialog_type === 'prompt' ? ', prompt_text: "..."' : '';
  return `answer it with handle_dialog {tab_id: "${tabId}", accept: true${text}} or {accept: false}`;
}

/**
 * What a page command or an action gets while a dialog blocks its page: ELEMENT_OCCLUDED, since the
 * dialog covers the whole page and nothing in it can be read or reached until it is answered.
 */
export function dialogOpenError(tabId: string, dialog: OpenDialog, method?: string): TabpilotError {
  return new TabpilotError(
    'ELEMENT_OCCLUDED',
    `Tab ${tabId} shows ${described(dialog)}${method === undefined ? '' : ` (${method} not sent)`}: the page is blocked until it is answered; ${dialogAdvice(tabId, dialog)}`,
    {
      details: {
        tab_id: tabId,
        reason: DIALOG_OPEN_REASON,
        dialog_type: dialog.dialog_type,
        ...(method === undefined ? {} : { method }),
      },
    },
  );
}

/** Whether an error says a dialog blocks the page (a call cut short by one opening, or refused while one is open). */
export function isDialogOpenError(error: unknown): boolean {
  return error instanceof TabpilotError && error.details?.['reason'] === DIALOG_OPEN_REASON;
}

/**
 * A page blocked by a dialog answers no page command until the dialog is answered (measured on
 * Chromium 156: Runtime.evaluate resolves only after Page.handleJavaScriptDialog), so its commands fail
 * at once instead, the pending ones included; the answer and what the browser answers itself go through.
 */
export function dialogSuspension(tabId: string, dialog: OpenDialog): Suspension {
  return {
    error: (method) => dialogOpenError(tabId, dialog, method),
    allows: (method) => method === ANSWER_METHOD || answeredByBrowser(method),
  };
}

/**
 * An open dialog refuses actions on its tab at once, naming the dialog; reads go on (the suspended
 * session fails their page commands with the same error, and the state shows the dialog instead).
 */
export function dialogCondition(tabId: string, dialog: OpenDialog, since = Date.now()): DialogCondition {
  return {
    kind: 'dialog',
    status: null,
    reason: `Tab ${tabId} shows ${described(dialog)}; ${dialogAdvice(tabId, dialog)}`,
    since,
    dialog,
    admit: (gate) => {
      if (gate !== 'read') {
        throw dialogOpenError(tabId, dialog);
      }
    },
  };
}
