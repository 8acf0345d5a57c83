import type { Protocol } from 'devtools-protocol';
import type { CdpSession } from '../../cdp/session';
import { errorMessageOf, TabpilotError } from '../../shared/errors';
import { bestEffort } from '../../shared/logger';
import { answerDialog } from '../actions/dialog';
import type { BrowserConfig } from '../config';
import type { WatchdogContext } from '../define-watchdog';
import { DialogOpenedEvent, type HandleDialogEvent } from '../../protocol/events/dialogs.events';
import type { PayloadOf } from '../../protocol/define-event';
import { dialogCondition, dialogSuspension } from './dialog-condition';
import type { OpenDialog } from './tab-conditions';

/** The events the popups watchdog emits. */
export const DIALOG_EVENTS = [DialogOpenedEvent] as const;

function shouldAccept(type: Protocol.Page.DialogType, policy: BrowserConfig['dialogs']): boolean {
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
 * The JavaScript dialogs of the controlled tabs: each is answered at once by the config's policy, or held
 * open for handle_dialog (its tab then holds a dialog condition and its page's commands are suspended),
 * and announced as DialogOpenedEvent once answered.
 */
export class DialogKeeper {
  readonly #ctx: WatchdogContext<typeof DIALOG_EVENTS>;
  readonly #held = new Map<string, HeldDialog>();

  constructor(ctx: WatchdogContext<typeof DIALOG_EVENTS>) {
    this.#ctx = ctx;
  }

  /** A dialog opened in `frameTargetId`, a frame of the page `targetId` (or the page itself). */
  opened(
    params: Protocol.Page.JavascriptDialogOpeningEvent,
    session: CdpSession,
    targetId: string,
    frameTargetId: string,
  ): void {
    const dialog: OpenDialog = {
      dialog_type: params.type,
      message: params.message,
      default_prompt: params.type === 'prompt' ? (params.defaultPrompt ?? '') : null,
      url: params.url,
      frame_id: params.frameId ?? null,
    };
    // "Leave site?" is asked while the navigation that caused it waits, and a client's commands run in
    // order, so a held one could only be answered after that navigation timed out: it is answered at once.
    if (this.#ctx.session.config.dialogs.auto_answer || params.type === 'beforeunload') {
      this.#autoAnswer(params.type, session, targetId, dialog);
    } else {
      this.#hold(session, targetId, frameTargetId, dialog);
    }
  }

  /** A dialog closed (a person answered it in the browser, or handle_dialog's answer is seen closing it). */
  closed(targetId: string, session: CdpSession, accepted: boolean): void {
    if (this.#held.get(targetId)?.session === session) {
      this.release(targetId, accepted ? 'accepted' : 'dismissed');
    }
  }

  /** handle_dialog: answers the dialog held in the tab; ELEMENT_NOT_FOUND when none is. */
  async answer(payload: PayloadOf<typeof HandleDialogEvent>) {
    const { target_id, accept, prompt_text } = payload;
    const { session } = this.#ctx;
    const entry = this.#held.get(target_id);
    if (entry === undefined) {
      const tabId = session.tabIdOf(target_id);
      throw new TabpilotError(
        'ELEMENT_NOT_FOUND',
        session.config.dialogs.auto_answer
          ? `No JavaScript dialog is open in tab ${tabId}: dialogs.auto_answer is on, so each is answered as it opens (the next state lists them)`
          : `No JavaScript dialog is open in tab ${tabId}`,
        { details: { tab_id: tabId, reason: 'no_dialog' } },
      );
    }
    await answerDialog(entry.session, { accept, prompt_text });
    // Released here, not only on Page.javascriptDialogClosed, so the next command already finds the
    // page free; the closed event then finds nothing held.
    this.release(target_id, accept ? 'accepted' : 'dismissed');
    return { target_id, dialog_type: entry.dialog.dialog_type, message: entry.dialog.message, accepted: accept };
  }

  /** Forgets a held dialog; `answer` says how it closed (none: the page went with it). */
  release(targetId: string, answer?: 'accepted' | 'dismissed'): void {
    const { conditions, targets } = this.#ctx.session;
    const entry = this.#held.get(targetId);
    if (entry === undefined) {
      return;
    }
    this.#held.delete(targetId);
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
      this.#announce(targetId, entry.dialog, answer);
    }
  }

  releaseAll(): void {
    for (const targetId of [...this.#held.keys()]) {
      this.release(targetId);
    }
  }

  #announce(targetId: string, dialog: OpenDialog, answer: 'accepted' | 'dismissed' | 'failed'): void {
    if (this.#ctx.signal.aborted) {
      return;
    }
    this.#ctx.emit(DialogOpenedEvent, {
      dialog_type: dialog.dialog_type,
      message: dialog.message,
      url: dialog.url,
      frame_id: dialog.frame_id,
      target_id: targetId,
      answer,
    });
  }

  #autoAnswer(type: Protocol.Page.DialogType, session: CdpSession, targetId: string, dialog: OpenDialog): void {
    const { log } = this.#ctx;
    const accept = shouldAccept(type, this.#ctx.session.config.dialogs);
    const answer = async (): Promise<void> => {
      try {
        await answerDialog(session, { accept });
      } catch (error) {
        log.warn('could not answer a JavaScript dialog', { type, error: errorMessageOf(error) });
        this.#announce(targetId, dialog, 'failed');
        return;
      }
      this.#announce(targetId, dialog, accept ? 'accepted' : 'dismissed');
    };
    void bestEffort(answer(), log, 'announcing a JavaScript dialog');
  }

  #hold(session: CdpSession, targetId: string, frameTargetId: string, dialog: OpenDialog): void {
    const { conditions, targets } = this.#ctx.session;
    const tabId = this.#ctx.session.tabIdOf(targetId);
    const suspended = frameTargetId === targetId ? [targetId] : [targetId, frameTargetId];
    this.#held.set(targetId, { dialog, session, suspended });
    conditions.set(targetId, dialogCondition(tabId, dialog));
    for (const target of suspended) {
      targets.suspendTarget(target, dialogSuspension(tabId, dialog));
    }
  }
}
