import { defineWatchdog } from '../define-watchdog';
import { BrowserKillEvent, BrowserLaunchEvent, BrowserStopEvent } from '../../protocol/events/lifecycle.events';
import type { BrowserLauncher, LaunchedBrowser } from '../launcher';

/**
 * Launches a local Chromium on BrowserLaunchEvent and kills it (removing its temporary profile) on stop.
 * Registered by the Node entry only; the launcher is platform/node's.
 */
export function localBrowserWatchdog(launcher: BrowserLauncher) {
  return defineWatchdog({
    name: 'local-browser',
    listensTo: [BrowserLaunchEvent, BrowserKillEvent, BrowserStopEvent],
    emits: [BrowserKillEvent],
    setup: (ctx) => {
      let browser: LaunchedBrowser | undefined;
      return {
        BrowserLaunchEvent: async () => {
          if (browser !== undefined) {
            return { cdp_url: browser.cdpUrl };
          }
          const launch = ctx.session.config.launch;
          browser = await launcher.launch({
            headless: launch.headless,
            executablePath: launch.executable_path,
            userDataDir: launch.user_data_dir,
            remoteDebuggingPort: launch.remote_debugging_port,
            args: launch.args,
            guardWebSockets: true,
          });
          ctx.log.info('launched Chromium', {
            pid: browser.pid,
            executable: browser.executablePath,
            headless: browser.headless,
          });
          const launched = browser;
          void launched.exited.then(() => {
            if (browser === launched) {
              browser = undefined;
            }
          });
          return { cdp_url: browser.cdpUrl };
        },
        BrowserStopEvent: (event, hctx) => {
          // force: false (a release) disconnects and leaves the browser running.
          if (browser !== undefined && event.payload.force) {
            // Not awaited: as a child it still completes before the stop event does.
            hctx.emit(BrowserKillEvent, {});
          }
        },
        BrowserKillEvent: async () => {
          const launched = browser;
          browser = undefined;
          if (launched === undefined) {
            return;
          }
          await launched.kill();
          ctx.log.info('Chromium stopped', { pid: launched.pid });
        },
      };
    },
  });
}
