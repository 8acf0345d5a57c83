import { ActionScope } from '../actions/action-scope';
import { waitForText } from '../actions/find-text';
import { FormActions } from '../actions/form-actions';
import { PointerActions } from '../actions/pointer-actions';
import { defineWatchdog } from '../define-watchdog';
import {
  ClickElementEvent,
  DragAndDropEvent,
  GetDropdownOptionsEvent,
  HoverElementEvent,
  ScrollEvent,
  ScrollToTextEvent,
  SelectDropdownOptionEvent,
  SendKeysEvent,
  TypeTextEvent,
  UploadFileEvent,
} from '../../protocol/events/actions.events';
import { WaitForTextEvent } from '../../protocol/actions/navigation.actions';

/**
 * The actions on a page's elements (browser-use's DefaultActionWatchdog): each event goes to its CDP
 * routine in src/browser/actions (through PointerActions and FormActions), which holds its own policy
 * (the actor calls the same routines). An element is named by its index in the tab's latest state and
 * resolved there. Acting on a background tab never brings it forward. Typed text is never logged, and
 * secrets are filled in only inside the typing routine.
 */
export const defaultActionWatchdog = defineWatchdog({
  name: 'default-action',
  listensTo: [
    ClickElementEvent,
    TypeTextEvent,
    ScrollEvent,
    SendKeysEvent,
    UploadFileEvent,
    GetDropdownOptionsEvent,
    SelectDropdownOptionEvent,
    ScrollToTextEvent,
    WaitForTextEvent,
    HoverElementEvent,
    DragAndDropEvent,
  ],
  emits: [],
  setup: (ctx) => {
    const scope = new ActionScope(ctx.session, ctx.log);
    const pointer = new PointerActions(scope);
    const form = new FormActions(scope);
    return {
      ClickElementEvent: (event, hctx) => pointer.click(event.payload, hctx.signal),
      TypeTextEvent: (event, hctx) => form.type(event.payload, hctx.signal),
      ScrollEvent: (event, hctx) => pointer.scroll(event.payload, hctx.signal),
      SendKeysEvent: (event, hctx) => form.sendKeys(event.payload, hctx.signal),
      UploadFileEvent: (event, hctx) => form.upload(event.payload, hctx.signal),
      GetDropdownOptionsEvent: (event, hctx) => form.dropdownOptions(event.payload, hctx.signal),
      SelectDropdownOptionEvent: (event, hctx) => form.selectDropdown(event.payload, hctx.signal),
      ScrollToTextEvent: (event, hctx) => pointer.scrollToText(event.payload, hctx.signal),
      WaitForTextEvent: (event, hctx) => waitForText(scope.routine(hctx.signal), event.payload),
      HoverElementEvent: (event, hctx) => pointer.hover(event.payload, hctx.signal),
      DragAndDropEvent: (event, hctx) => pointer.drag(event.payload, hctx.signal),
    };
  },
});
