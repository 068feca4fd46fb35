import type { ChatConnection, ChatConnectionSettings } from '../shared/chat-connection.js';

/**
 * The typed bridge between the window and the Electron main process, the only way they meet: the
 * preload script exposes it as `window.parleyDesktop`; in a plain browser it is absent and the
 * window does without it. Types only, shared by main, preload and the window.
 */

export interface AppInfo {
  name: string;
  version: string;
  platform: string;
  /** The agent's API root the window talks to, e.g. `http://127.0.0.1:4111/api`. */
  agentUrl: string;
  dataDir: string;
  /** Set when the configured port was taken and another one is used instead. */
  portNote?: string;
  /** The agent's API key when one is set, so the window's own requests carry it. */
  agentApiKey?: string;
}

export interface WatchedFolder {
  folder: string;
  namespace: string;
}

export interface LanguageModelSettings {
  baseUrl: string;
  model: string;
}

/** Where secrets are kept: encrypted by the OS keychain, in plain text after consent, or nowhere yet. */
export type SecretStorageKind = 'encrypted' | 'plain' | 'unavailable';

/** The settings as the window sees them: secrets only as whether they are set. */
export interface SettingsView {
  port: number;
  host: string;
  corsOrigins: string[];
  allowPrivateNetwork: boolean;
  languageModel: LanguageModelSettings | null;
  watchedFolders: WatchedFolder[];
  agentApiKeySet: boolean;
  languageModelKeySet: boolean;
  /** Where Chats connects; null until it is set up. */
  chat: ChatConnectionSettings | null;
  chatAuthKeySet: boolean;
  chatAuthTokenSet: boolean;
  secretStorage: SecretStorageKind;
  plainSecretsAllowed: boolean;
}

/** A change of settings; a secret given as `null` is removed, one left out is kept. */
export interface SettingsChange {
  port?: number;
  host?: string;
  corsOrigins?: string[];
  allowPrivateNetwork?: boolean;
  languageModel?: LanguageModelSettings | null;
  watchedFolders?: WatchedFolder[];
  agentApiKey?: string | null;
  languageModelKey?: string | null;
  chat?: ChatConnectionSettings | null;
  chatAuthKey?: string | null;
  chatAuthToken?: string | null;
  /** The user's consent to keep secrets in plain text where the OS offers no encryption. */
  plainSecretsAllowed?: boolean;
}

export interface DesktopBridge {
  appInfo(): Promise<AppInfo>;
  settings(): Promise<SettingsView>;
  /** Saves and applies the settings, restarting the agent when it must; resolves with the new view. */
  saveSettings(change: SettingsChange): Promise<SettingsView>;
  /** Where Chats connects, with the auth key or token it signs in with; null until set up. */
  chatConnection(): Promise<ChatConnection | null>;
  /**
   * Sets Chats up from the local demo (`parley start`): the main process fetches its connection
   * and keeps its auth key in the secret store; resolves with the new view, never the key.
   */
  useLocalDemoChat(): Promise<SettingsView>;
  /** Asks for a folder with the system dialog; null when cancelled. */
  pickFolder(): Promise<string | null>;
  /** Shows a file in the system file manager (uploads are named `uploads/<namespace>/<file>`). */
  revealFile(path: string): Promise<void>;
  /** Opens an http(s) URL in the default browser. */
  openExternal(url: string): Promise<void>;
}

/** The IPC channel of each bridge method. */
export const BRIDGE_CHANNELS = {
  appInfo: 'parley:app-info',
  settings: 'parley:settings',
  saveSettings: 'parley:save-settings',
  chatConnection: 'parley:chat-connection',
  useLocalDemoChat: 'parley:use-local-demo-chat',
  pickFolder: 'parley:pick-folder',
  revealFile: 'parley:reveal-file',
  openExternal: 'parley:open-external',
} as const satisfies Record<keyof DesktopBridge, string>;
