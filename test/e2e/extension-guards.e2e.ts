import { defineGuardsContract } from './contract/guards-contract';
import { challengeFlags } from './harness/challenge-server';
import { ExtensionDriver } from './harness/drivers';
import { PanelPage } from './harness/panel';
import { pollUntil } from '../../src/shared/time';

defineGuardsContract(
  'the extension chrome.debugger transport',
  () => ExtensionDriver.start({ args: challengeFlags() }),
  {
    // Through the settings store, as the panel saves them: the timeline reads its secrets from there.
    useSecrets: async (driver, sensitiveData) => {
      const outcome = await (driver as ExtensionDriver).inWorker<{ ok: boolean }>(
        `globalThis.tabpilot.settings.save({ ...globalThis.tabpilot.settings.config, sensitive_data: ${JSON.stringify(sensitiveData)} })`,
      );
      if (!outcome.ok) {
        throw new Error('the settings refused sensitive_data');
      }
    },
    timeline: (driver) => (driver as ExtensionDriver).inWorker<unknown[]>('globalThis.tabpilot.timeline.entries()'),
    panelHandsOver: async (driver, tabId) => {
      const extension = driver as ExtensionDriver;
      const panel = await PanelPage.open(extension.client);
      const alert = `#tab-alerts [data-tab-id="${tabId}"]`;
      const text = await panel.waitForText(alert, 'needs you');
      if (!text.includes('reCAPTCHA')) {
        throw new Error(`the panel's alert does not name the challenge: ${text}`);
      }
      const isActive = (): Promise<boolean> =>
        extension.inWorker<boolean>(`(async () => {
          const session = globalThis.tabpilot.session;
          const targetId = session.tabIds.targetFor(${JSON.stringify(tabId)});
          const tab = globalThis.tabpilot.router.controlled().find((entry) => entry.targetId === targetId);
          return (await chrome.tabs.get(tab.tabId)).active;
        })()`);
      // The person is looking at another tab (the panel's own); Show tab brings the challenge's tab forward.
      await extension.client.root.send('Target.activateTarget', { targetId: panel.targetId });
      await pollUntil(async () => ((await isActive()) ? undefined : true), {
        timeoutMs: 10_000,
        intervalMs: 50,
        onTimeout: () => new Error('the challenge tab stayed in front'),
      });
      await panel.click(`${alert} .show-tab`);
      await pollUntil(async () => ((await isActive()) ? true : undefined), {
        timeoutMs: 10_000,
        intervalMs: 50,
        onTimeout: () => new Error('Show tab did not bring the tab forward'),
      });
      await extension.client.root.send('Target.closeTarget', { targetId: panel.targetId });
    },
  },
);
