import { defineStopContract } from './contract/stop-contract';
import { ExtensionDriver } from './harness/drivers';

defineStopContract('the extension chrome.debugger transport', () => ExtensionDriver.start());
