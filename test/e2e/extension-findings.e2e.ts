import { defineFindingsContract } from './contract/findings-contract';
import { ExtensionDriver } from './harness/drivers';

defineFindingsContract('the extension chrome.debugger transport', () => ExtensionDriver.start());
