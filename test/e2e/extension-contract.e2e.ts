import { defineCoreContract } from './contract/core-contract';
import { ExtensionDriver } from './harness/drivers';

defineCoreContract('the extension chrome.debugger transport', () => ExtensionDriver.start());
