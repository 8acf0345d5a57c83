import { defineWidgetsContract } from './contract/widgets-contract';
import { NodeDriver } from './harness/drivers';

defineWidgetsContract('the Node WebSocket transport', () => NodeDriver.start());
