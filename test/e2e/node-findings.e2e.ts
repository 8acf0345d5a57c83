import { defineFindingsContract } from './contract/findings-contract';
import { NodeDriver } from './harness/drivers';

defineFindingsContract('the Node WebSocket transport', () => NodeDriver.start());
