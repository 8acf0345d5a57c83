/** The port LocalBrowserWatchdog launches through; platform/node implements it. */
export interface LaunchOptions {
  headless: boolean | null;
  executablePath: string | null;
  userDataDir: string | null;
  /**
   * null: DevTools over a pipe only, no TCP port at all; 0: a free port; N: that port. A port is
   * reachable by every process on the machine, other users' included.
   */
  remoteDebuggingPort: number | null;
  args: readonly string[];
  /**
   * Loads the WebSocket guard extension, through which the URL policy holds WebSocket handshakes (the
   * Fetch domain never sees one): a browser tabpilot drives over CDP wants it; one that runs tabpilot's own
   * extension (which holds them itself) does not.
   */
  guardWebSockets?: boolean;
}

export interface LaunchedBrowser {
  /** The browser's DevTools WebSocket URL; over a pipe, a pipe:// name its launcher opens (no address). */
  readonly cdpUrl: string;
  readonly pid: number | undefined;
  readonly executablePath: string;
  readonly headless: boolean;
  /** The profile in use; removed by kill() when tabpilot created it. */
  readonly userDataDir: string;
  readonly temporaryProfile: boolean;
  /** Ends the process (gracefully, then by force) and removes a temporary profile. Idempotent. */
  kill(): Promise<void>;
  /** Resolves when the process exits, for whatever reason. */
  readonly exited: Promise<void>;
}

export interface BrowserLauncher {
  launch(options: LaunchOptions): Promise<LaunchedBrowser>;
}
