import { defineCoreContract } from './contract/core-contract';
import { NodeDriver } from './harness/drivers';

defineCoreContract('the Node WebSocket transport', () => NodeDriver.start());
