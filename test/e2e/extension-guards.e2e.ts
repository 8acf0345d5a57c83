import { defineGuardsContract } from './contract/guards-contract';
import { challengeFlags } from './harness/challenge-server';
import { ExtensionDriver } from './harness/drivers';

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
  },
);
