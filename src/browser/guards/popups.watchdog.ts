import type { Protocol } from 'devtools-protocol';
import type { CdpSession } from '../../cdp/session';
import { tabOf } from '../../cdp/session-manager';
import { errorMessageOf, TabpilotError } from '../../shared/errors';
import { bestEffort } from '../../shared/logger';
import { answerDialog } from '../actions/dialog';
import type { TabpilotConfig } from '../config';
import { defineWatchdog } from '../define-watchdog';
import { DialogOpenedEvent, HandleDialogEvent } from '../../protocol/events/dialogs.events';
import { TabClosedEvent, TargetCrashedEvent } from '../../protocol/events/tabs.events';
import { dialogCondition, dialogSuspension } from './dialog-condition';
import type { OpenDialog } from './tab-conditions';

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

/** A dialog left open for handle_dialog: what it asks, who reported it, and which targets it holds. */
interface HeldDialog {
  readonly dialog: OpenDialog;
  /** The session that reported the dialog, the only one that can answer it. */
  readonly session: CdpSession;
  /** The page and, for a frame's dialog, the frame: their commands are held while it is open. */
  readonly suspended: readonly string[];
}

/**
 * Answers JavaScript dialogs in every controlled tab and frame, so an alert never stalls the page or the
 * action that triggered it. Unlike browser-use: the answer goes to the session that saw the dialog with
 * no second guess; confirm() is dismissed unless the config says accept, so a destructive "Delete?" is
 * never approved behind the model's back; every dialog is announced as DialogOpenedEvent; and the
 * subscription belongs to the SessionManager, so it survives reconnects.
 *
 * With dialogs.auto_answer off a dialog other than beforeunload stays open until handle_dialog (or a
 * person) answers it: its tab holds a dialog condition (the state shows the dialog, actions are refused
 * naming it) and its page's commands fail at once instead of hanging, the ones already sent included,
 * so the action that opened the dialog returns.
 */
export const popupsWatchdog = defineWatchdog({
  name: 'popups',
  listensTo: [HandleDialogEvent, TabClosedEvent, TargetCrashedEvent],
  emits: [DialogOpenedEvent],
  setup: (ctx) => {
    const { targets, conditions } = ctx.session;
    const held = new Map<string, HeldDialog>();

    const announce = (targetId: string, dialog: OpenDialog, answer: 'accepted' | 'dismissed' | 'failed'): void => {
      if (ctx.signal.aborted) {
        return;
      }
      ctx.emit(DialogOpenedEvent, {
        dialog_type: dialog.dialog_type,
        message: dialog.message,
        url: dialog.url,
        frame_id: dialog.frame_id,
        target_id: targetId,
        answer,
      });
    };

    /** Forgets a held dialog; `answer` says how it closed (none: the page went with it). */
    const release = (targetId: string, answer?: 'accepted' | 'dismissed'): void => {
      const entry = held.get(targetId);
      if (entry === undefined) {
        return;
      }
      held.delete(targetId);
      conditions.clear(targetId, 'dialog');
      // A page that crashed or got stuck meanwhile keeps the crash watchdog's hold.
      const faulted =
        conditions.get(targetId, 'crashed') !== undefined || conditions.get(targetId, 'unresponsive') !== undefined;
      if (!faulted) {
        for (const suspended of entry.suspended) {
          targets.resumeTarget(suspended);
        }
      }
      if (answer !== undefined) {
        announce(targetId, entry.dialog, answer);
      }
    };

    const autoAnswer = (
      params: Protocol.Page.JavascriptDialogOpeningEvent,
      session: CdpSession,
      targetId: string,
      dialog: OpenDialog,
    ): void => {
      const accept = shouldAccept(params.type, ctx.session.config.dialogs);
      const answer = async (): Promise<void> => {
        try {
          await answerDialog(session, { accept });
        } catch (error) {
          ctx.log.warn('could not answer a JavaScript dialog', { type: params.type, error: errorMessageOf(error) });
          announce(targetId, dialog, 'failed');
          return;
        }
        announce(targetId, dialog, accept ? 'accepted' : 'dismissed');
      };
      void bestEffort(answer(), ctx.log, 'announcing a JavaScript dialog');
    };

    const hold = (session: CdpSession, targetId: string, frameTargetId: string, dialog: OpenDialog): void => {
      const tabId = ctx.session.tabIdOf(targetId);
      const suspended = frameTargetId === targetId ? [targetId] : [targetId, frameTargetId];
      held.set(targetId, { dialog, session, suspended });
      conditions.set(targetId, dialogCondition(tabId, dialog));
      for (const target of suspended) {
        targets.suspendTarget(target, dialogSuspension(tabId, dialog));
      }
    };

    const disposeOpening = targets.on('Page.javascriptDialogOpening', (params, source) => {
      const frameTargetId = source.target?.targetId;
      const targetId = source.target?.pageTargetId ?? frameTargetId;
      if (targetId === undefined || frameTargetId === undefined) {
        return;
      }
      const dialog: OpenDialog = {
        dialog_type: params.type,
        message: params.message,
        default_prompt: params.type === 'prompt' ? (params.defaultPrompt ?? '') : null,
        url: params.url,
        frame_id: params.frameId ?? null,
      };
      // "Leave site?" is asked while the navigation that caused it waits, and a client's commands run in
      // order, so a held one could only be answered after that navigation timed out: it is answered at once.
      if (ctx.session.config.dialogs.auto_answer || params.type === 'beforeunload') {
        autoAnswer(params, source.session, targetId, dialog);
      } else {
        hold(source.session, targetId, frameTargetId, dialog);
      }
    });
    // Also when a person answered it in the browser, or handle_dialog's answer is seen closing it.
    const disposeClosed = targets.on('Page.javascriptDialogClosed', (params, source) => {
      const targetId = tabOf(source);
      if (targetId !== undefined && held.get(targetId)?.session === source.session) {
        release(targetId, params.result ? 'accepted' : 'dismissed');
      }
    });
    ctx.signal.addEventListener(
      'abort',
      () => {
        disposeOpening();
        disposeClosed();
        for (const targetId of [...held.keys()]) {
          release(targetId);
        }
      },
      { once: true },
    );

    return {
      HandleDialogEvent: async (event) => {
        const { target_id, accept, prompt_text } = event.payload;
        const entry = held.get(target_id);
        if (entry === undefined) {
          const tabId = ctx.session.tabIdOf(target_id);
          throw new TabpilotError(
            'ELEMENT_NOT_FOUND',
            ctx.session.config.dialogs.auto_answer
              ? `No JavaScript dialog is open in tab ${tabId}: dialogs.auto_answer is on, so each is answered as it opens (the next state lists them)`
              : `No JavaScript dialog is open in tab ${tabId}`,
            { details: { tab_id: tabId, reason: 'no_dialog' } },
          );
        }
        await answerDialog(entry.session, { accept, prompt_text });
        // Released here, not only on Page.javascriptDialogClosed, so the next command already finds the
        // page free; the closed event then finds nothing held.
        release(target_id, accept ? 'accepted' : 'dismissed');
        return { target_id, dialog_type: entry.dialog.dialog_type, message: entry.dialog.message, accepted: accept };
      },
      TabClosedEvent: (event) => release(event.payload.target_id),
      // A crashed page takes its dialog with it; the crash watchdog holds the tab now.
      TargetCrashedEvent: (event) => release(event.payload.target_id),
    };
  },
});
