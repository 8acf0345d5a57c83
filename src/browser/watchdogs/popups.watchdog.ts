import type { Protocol } from 'devtools-protocol';
import { errorMessageOf } from '../../shared/errors';
import { bestEffort } from '../../shared/logger';
import type { TabpilotConfig } from '../config';
import { defineWatchdog } from '../define-watchdog';
import { DialogOpenedEvent } from '../events/dialogs.events';

/** How long the answer may take before the dialog counts as failed (browser-use: 0.5 s per attempt). */
const ANSWER_TIMEOUT_MS = 2_000;

function shouldAccept(type: Protocol.Page.DialogType, policy: TabpilotConfig['dialogs']): boolean {
  switch (type) {
    case 'alert':
    case 'beforeunload':
      return true;
    case 'confirm':
      return policy.confirm === 'accept';
    case 'prompt':
      return false;
  }
}

/**
 * Answers JavaScript dialogs in every controlled tab and frame, so an alert never stalls the page or the
 * action that triggered it. Unlike browser-use: the answer goes to the session that saw
 * the dialog with no second guess; confirm() is dismissed unless the config says accept, so a
 * destructive "Delete?" is never approved behind the model's back; every dialog is announced as
 * DialogOpenedEvent; and the subscription belongs to the SessionManager, so it survives reconnects.
 */
export const popupsWatchdog = defineWatchdog({
  name: 'popups',
  listensTo: [],
  emits: [DialogOpenedEvent],
  setup: (ctx) => {
    const targets = ctx.session.targets;
    const dispose = targets.on('Page.javascriptDialogOpening', (params, source) => {
      const policy = ctx.session.config.dialogs;
      if (!policy.auto_answer) {
        return;
      }
      const accept = shouldAccept(params.type, policy);
      const targetId = source.target?.pageTargetId ?? source.target?.targetId;
      const announce = (answer: 'accepted' | 'dismissed' | 'failed'): void => {
        if (targetId === undefined || ctx.signal.aborted) {
          return;
        }
        ctx.emit(DialogOpenedEvent, {
          dialog_type: params.type,
          message: params.message,
          url: params.url,
          frame_id: params.frameId,
          target_id: targetId,
          answer,
        });
      };
      const answer = async (): Promise<void> => {
        try {
          await source.session.call('Page.handleJavaScriptDialog', { accept }, { timeoutMs: ANSWER_TIMEOUT_MS });
        } catch (error) {
          ctx.log.warn('could not answer a JavaScript dialog', { type: params.type, error: errorMessageOf(error) });
          announce('failed');
          return;
        }
        announce(accept ? 'accepted' : 'dismissed');
      };
      void bestEffort(answer(), ctx.log, 'announcing a JavaScript dialog');
    });
    ctx.signal.addEventListener('abort', dispose, { once: true });
    return {};
  },
});
