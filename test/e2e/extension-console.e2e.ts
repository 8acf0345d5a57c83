import { defineConsoleContract } from './contract/console-contract';
import { ExtensionDriver } from './harness/drivers';

defineConsoleContract('the extension chrome.debugger transport', () => ExtensionDriver.start());
