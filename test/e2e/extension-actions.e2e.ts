import { defineActionsContract } from './contract/actions-contract';
import { ExtensionDriver } from './harness/drivers';

defineActionsContract('the extension chrome.debugger transport', () => ExtensionDriver.start(), {
  configure: async (driver, config) => {
    const saved = await (driver as ExtensionDriver).inWorker<{ ok: boolean; error?: { message: string } }>(
      `globalThis.tabpilot.settings.save(${JSON.stringify(config)})`,
    );
    if (!saved.ok) {
      throw new Error(`the extension refused the config: ${saved.error?.message ?? ''}`);
    }
  },
  history: async (driver) =>
    (driver as ExtensionDriver).inWorker<string>('JSON.stringify(globalThis.tabpilot.session.bus.history())'),
});
