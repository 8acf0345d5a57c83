import { defineFindContract } from './contract/find-contract';
import { defineOutcomeContract } from './contract/outcome-contract';
import { ExtensionDriver } from './harness/drivers';

defineFindContract('the extension chrome.debugger transport', () => ExtensionDriver.start());
defineOutcomeContract('the extension chrome.debugger transport', () => ExtensionDriver.start());
