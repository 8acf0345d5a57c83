import { defineStopContract } from './contract/stop-contract';
import { NodeDriver } from './harness/drivers';

defineStopContract('the Node WebSocket transport', () => NodeDriver.start());
