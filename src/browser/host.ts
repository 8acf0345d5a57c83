/**
 * BrowserHost: what CDP cannot do the same way everywhere (DESIGN §4). Each platform implements it
 * (platform/node, platform/extension); watchdogs and handlers see only this port.
 */

/** One tab of the browser as the host sees it, controlled or not. */
export interface HostTab {
  target_id: string;
  title: string;
  url: string;
  /** The selected tab of its window. */
  active: boolean;
}

/**
 * Tabs tabpilot does not own (the extension works only in tabs it was given). Absent where tabpilot owns
 * the whole browser (Node), where every page is already under control.
 */
export interface TabControl {
  /** Every tab of the browser, for `tabs {all: true}`. */
  listAll(): Promise<HostTab[]>;
  /**
   * Puts a tab under control (the given one, or the active tab of the last focused window) and
   * returns its target id. Refuses chrome:// and other extensions' pages with a clear error.
   */
  attach(targetId: string | undefined): Promise<string>;
  /** Lets one controlled tab go (its debugger detaches). */
  release(targetId: string): Promise<void>;
}

export interface BrowserHost {
  readonly tabControl: TabControl | undefined;
}
