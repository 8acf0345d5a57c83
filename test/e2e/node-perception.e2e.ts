import { definePerceptionContract } from './contract/perception-contract';
import { NodeDriver } from './harness/drivers';

definePerceptionContract('the Node WebSocket transport', () => NodeDriver.start());
