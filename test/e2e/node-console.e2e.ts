import { defineConsoleContract } from './contract/console-contract';
import { NodeDriver } from './harness/drivers';

defineConsoleContract('the Node WebSocket transport', () => NodeDriver.start());
