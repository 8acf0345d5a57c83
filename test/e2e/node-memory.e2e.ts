import { defineMemoryContract } from './contract/memory-contract';
import { NodeDriver, type Driver } from './harness/drivers';

defineMemoryContract(
  'the Node WebSocket transport',
  () => NodeDriver.start(),
  async (driver: Driver, tabId: string) => {
    const { session } = driver as NodeDriver;
    const targetId = session.tabIds.targetFor(tabId) ?? '';
    return {
      dom: session.dom.retention(),
      world: await session.dom.worldRetention(targetId),
      history: session.bus.historyStats(),
      timeline: null,
    };
  },
);
