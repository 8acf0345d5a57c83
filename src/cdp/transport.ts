import type { CdpIncoming, CdpRequest } from '../protocol/cdp';

/**
 * What a transport can do. Code branches on these, never on "am I in an extension".
 */
export interface TransportCapabilities {
  /** The Browser domain answers (false over chrome.debugger, where it is not exposed). */
  readonly browserDomain: boolean;
  /**
   * tabpilot owns the whole browser: every page is its to drive and focus recovery may open a blank tab.
   * False in the extension, which works only in the tabs it was given.
   */
  readonly ownsBrowser: boolean;
  /**
   * A dropped transport can be reopened to the same browser (a new WebSocket to the browser's own
   * endpoint). False over chrome.debugger, and for an endpoint that gives a new browser per connection
   * (a pool's): reopening that would land in another browser.
   */
  readonly reconnect: boolean;
  /**
   * Pages of the browser itself (chrome://, the Web Store, extensions' pages) can be driven. False over
   * chrome.debugger: Chrome detaches from a tab that goes to one, and the tab is lost.
   */
  readonly browserPages: boolean;
}

/**
 * The seam between the shared CDP core and a platform: object messages out, responses and events in.
 * The connection installs `onmessage` and `onclose`; `onclose` fires once, whoever closed.
 */
export interface CdpTransport {
  readonly capabilities: TransportCapabilities;
  send(message: CdpRequest): void;
  onmessage: ((message: CdpIncoming) => void) | undefined;
  onclose: ((reason: string) => void) | undefined;
  close(reason?: string): void;
}
