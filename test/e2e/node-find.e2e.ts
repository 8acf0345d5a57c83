import { defineFindContract } from './contract/find-contract';
import { NodeDriver } from './harness/drivers';

defineFindContract('the Node WebSocket transport', () => NodeDriver.start());
