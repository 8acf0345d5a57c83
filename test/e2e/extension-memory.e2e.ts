import { defineMemoryContract, type Retention } from './contract/memory-contract';
import { ExtensionDriver, type Driver } from './harness/drivers';

defineMemoryContract(
  'the extension (chrome.debugger)',
  () => ExtensionDriver.start(),
  (driver: Driver, tabId: string) =>
    (driver as ExtensionDriver).inWorker<Retention>(`(async () => {
      const { session, timeline } = globalThis.tabpilot;
      const targetId = session.tabIds.targetFor(${JSON.stringify(tabId)});
      // The store is written throttled; write it now, so the stored figure is that of the run's end.
      await timeline.saveNow();
      return {
        dom: session.dom.retention(),
        world: await session.dom.worldRetention(targetId),
        history: session.bus.historyStats(),
        timeline: {
          ...timeline.retention(),
          stored_bytes: await chrome.storage.session.getBytesInUse('tabpilot.timeline'),
          storage_quota: chrome.storage.session.QUOTA_BYTES,
        },
      };
    })()`),
);
