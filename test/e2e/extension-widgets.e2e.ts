import { defineWidgetsContract } from './contract/widgets-contract';
import { ExtensionDriver } from './harness/drivers';

defineWidgetsContract('the extension chrome.debugger transport', () => ExtensionDriver.start());
