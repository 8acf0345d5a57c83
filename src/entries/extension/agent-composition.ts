import { modelFromConfig } from '../../agent/model-from-config';
import { installAgentActions } from '../../agent/agent-actions';
import type { AgentConfig } from '../../agent/agent.config';
import type { AgentKeyStore } from '../../platform/extension/agent/agent-keys';
import { localShotArea } from '../../platform/extension/agent/local-shot-area';
import { StorageRunStore } from '../../platform/extension/agent/storage-run-store';
import { StorageStepShots } from '../../platform/extension/agent/storage-step-shots';
import { storageArea } from '../../platform/extension/real-chrome';
import type { Logger } from '../../shared/logger';
import type { CommandServer } from '../../tools/command-server';

/**
 * Anthropic refuses a request from a browser page or worker (one that carries an Origin) unless it says it
 * means to call the API from there; with it, its API answers CORS preflights, so no host permission is needed.
 */
export function browserHeaders(provider: AgentConfig['provider']): Record<string, string> | undefined {
  return provider === 'anthropic' ? { 'anthropic-dangerous-direct-browser-access': 'true' } : undefined;
}

/**
 * The built-in agent in the service worker: the agent's server actions (run, pause_run, resume_run,
 * stop_run, approve, runs, run_history, rerun) on the worker's CommandServer, so the panel, native clients
 * and MCP through the extension can start and steer runs. The key comes from the panel's settings
 * (AgentKeyStore); the model's requests leave from this worker with its fetch; finished runs, and each
 * step's picture as it is taken, are kept in chrome.storage.local, so they outlive the worker and the browser.
 */
export function composeAgent(options: {
  server: CommandServer;
  /** The agent's part of the config in force (the worker's session holds the whole, as the settings apply it). */
  config: () => AgentConfig;
  keys: AgentKeyStore;
  log: Logger;
}): void {
  const { config, keys, server } = options;
  installAgentActions(server, {
    config,
    store: new StorageRunStore(storageArea('local'), () => config().max_kept_runs),
    shots: new StorageStepShots(localShotArea()),
    apiKey: (provider) => Promise.resolve(keys.key(provider)),
    model: (settings, key) => modelFromConfig(settings, key, undefined, browserHeaders(settings.provider)),
    // The person's own profile: their sessions, their downloads folder. The guards are on by default.
    personsBrowser: () => true,
    log: options.log,
  });
}
