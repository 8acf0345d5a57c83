import { defineFindContract } from './contract/find-contract';
import { ExtensionDriver } from './harness/drivers';

defineFindContract('the extension chrome.debugger transport', () => ExtensionDriver.start());
