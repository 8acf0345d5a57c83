import { tabOf } from '../../cdp/session-manager';
import { disposeOnAbort } from '../../shared/dispose';
import { defineWatchdog } from '../define-watchdog';
import { HandleDialogEvent } from '../../protocol/events/dialogs.events';
import { TabClosedEvent, TargetCrashedEvent } from '../../protocol/events/tabs.events';
import { DIALOG_EVENTS, DialogKeeper } from './dialog-keeper';

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
  emits: DIALOG_EVENTS,
  setup: (ctx) => {
    const { targets } = ctx.session;
    const dialogs = new DialogKeeper(ctx);
    disposeOnAbort(ctx.signal, [
      targets.on('Page.javascriptDialogOpening', (params, source) => {
        const frameTargetId = source.target?.targetId;
        const targetId = source.target?.pageTargetId ?? frameTargetId;
        if (targetId !== undefined && frameTargetId !== undefined) {
          dialogs.opened(params, source.session, targetId, frameTargetId);
        }
      }),
      targets.on('Page.javascriptDialogClosed', (params, source) => {
        const targetId = tabOf(source);
        if (targetId !== undefined) {
          dialogs.closed(targetId, source.session, params.result);
        }
      }),
      () => dialogs.releaseAll(),
    ]);
    return {
      HandleDialogEvent: (event) => dialogs.answer(event.payload),
      TabClosedEvent: (event) => dialogs.release(event.payload.target_id),
      // A crashed page takes its dialog with it; the crash watchdog holds the tab now.
      TargetCrashedEvent: (event) => dialogs.release(event.payload.target_id),
    };
  },
});
