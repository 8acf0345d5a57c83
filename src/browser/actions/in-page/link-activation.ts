/**
 * What a key press did to the focused link: Enter on a link fires a click at it, whose default is
 * following the link (a download link's download). The key routine reads the link before the press and
 * records its click across it, so a download link's download is waited for only when the page let the
 * click follow the link.
 */
import type { FocusedLink, LinkClick } from '../in-page-api';
import { recordClick, type ClickRecord } from './click-record';
import { deepActiveElement } from './describe';

/** The focused element whose next click is recorded (one at a time: a key routine runs alone in its tab). */
let armed: ClickRecord | undefined;

function disarm(): void {
  armed?.stop();
  armed = undefined;
}

/** The focused link's href and download attributes (each only where it has it); null when no link has the focus. */
export function focusedLink(): FocusedLink | null {
  const active = deepActiveElement(document);
  if (active?.localName !== 'a') {
    return null;
  }
  const link: FocusedLink = {};
  for (const name of ['href', 'download'] as const) {
    const value = active.getAttribute(name);
    if (value !== null) {
      link[name] = value;
    }
  }
  return link;
}

/** Starts recording the focused element's next click (replacing a recording left before); false: nothing has focus. */
export function armLinkClick(): boolean {
  disarm();
  const focused = deepActiveElement(document);
  armed = focused === null ? undefined : recordClick(focused);
  return armed !== undefined;
}

/** Whether the recorded link was clicked, and whether the page prevented that click's default; stops recording. */
export function linkClick(): LinkClick {
  const click = armed?.click();
  disarm();
  return { clicked: click !== undefined, prevented: click?.defaultPrevented === true };
}
