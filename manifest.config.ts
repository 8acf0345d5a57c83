import { defineManifest } from '@crxjs/vite-plugin';
import packageJson from './package.json' with { type: 'json' };

/**
 * The public half of a fixed RSA key: it pins the extension id (dakiagajobemlckhchkemohalbompofb) so the
 * native-messaging host manifest and the tests can name it, wherever the unpacked folder lives.
 */
export const EXTENSION_KEY =
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAzFp/bRvtapZoFF/m3l6FSgphjRhjfupAH53ovZUnR2knznS6hkQwFS/C+8F8vHokqnCxP/VXuv85LHKompCWaoP9mJGjPgq8vhCgGLNznZA7pLiITFhzkshJ0cT6IGWchP09SPYHEM/9RzqkNKvsd2mRCiTTS3AMHcRK7GvPYxnUQJ9V5KfsAWFRU9m7UKdscCsFOah1h0VrD2te00q8EGEOtQbQvkCssuSUeH1B0MiZWpFwp2XuaC8N6tYqw2QcQhzOWc1SN0RufEAhVazrhQCHIC2LRm216bJ0YYGitzogurnRv9vkOzFHU0auFSxzSJ+BbWzkVlfg6WPY0NIckwIDAQAB';

export default defineManifest({
  manifest_version: 3,
  name: 'tabpilot',
  description: 'Drive this browser with an agent or a script: typed events, watchdogs and CDP through chrome.debugger.',
  version: packageJson.version,
  key: EXTENSION_KEY,
  minimum_chrome_version: '125',
  background: { service_worker: 'src/entries/extension/background.ts', type: 'module' },
  side_panel: { default_path: 'src/entries/extension/sidepanel.html' },
  // Drawn by scripts/make-icons.mjs into public/, which the build copies to the extension's root.
  icons: { 16: 'icons/icon-16.png', 32: 'icons/icon-32.png', 48: 'icons/icon-48.png', 128: 'icons/icon-128.png' },
  action: {
    default_title: 'Open tabpilot',
    default_icon: { 16: 'icons/icon-16.png', 32: 'icons/icon-32.png', 48: 'icons/icon-48.png' },
  },
  commands: {
    'emergency-stop': {
      suggested_key: { default: 'Alt+Shift+S' },
      description: 'Emergency stop: cancel queued work and detach tabpilot from every tab',
    },
  },
  permissions: [
    'debugger',
    'sidePanel',
    'tabs',
    'webNavigation',
    'storage',
    'nativeMessaging',
    'downloads',
    'contentSettings',
    'tabGroups',
    'offscreen',
    // Blocks the WebSocket handshakes of controlled tabs that the URL policy refuses (websocket-guard.ts):
    // block rules need no host permission.
    'declarativeNetRequest',
  ],
  // No host permission up front: the agent's model servers answer the worker's requests through CORS
  // (OpenAI, Anthropic with its browser header, Ollama, OpenRouter); a server that does not can be granted,
  // one origin at a time, from the panel.
  optional_host_permissions: ['http://*/*', 'https://*/*'],
});
