import { definePerceptionContract } from './contract/perception-contract';
import { ExtensionDriver } from './harness/drivers';

definePerceptionContract('the extension chrome.debugger transport', () => ExtensionDriver.start());
