import { defineFindContract } from './contract/find-contract';
import { defineOutcomeContract } from './contract/outcome-contract';
import { NodeDriver } from './harness/drivers';

defineFindContract('the Node WebSocket transport', () => NodeDriver.start());
defineOutcomeContract('the Node WebSocket transport', () => NodeDriver.start());
