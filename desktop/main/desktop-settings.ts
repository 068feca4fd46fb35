import type { ChatConnection } from '../../shared/chat-connection.js';
import type { SettingsView } from '../bridge.js';
import type { SafeStorage } from './electron-api.js';
import type { DesktopPaths } from './paths.js';
import { SecretStore, type SecretName } from './secrets.js';
import {
  agentNeedsRestart,
  applySettingsChange,
  loadSettings,
  saveSettings,
  SettingsChangeInput,
  SettingsError,
  type DesktopSettings,
} from './settings.js';

/** The keys the agent runs with, read from the secret store. */
export interface AgentKeys {
  agentApiKey?: string;
  languageModelKey?: string;
}

const AGENT_SECRETS: readonly SecretName[] = ['agentApiKey', 'languageModelKey'];
const CHAT_SECRETS: readonly SecretName[] = ['chatAuthKey', 'chatAuthToken'];

/** The settings file and the secret store together, as the window and the agent see them. */
export class DesktopSettingsService {
  private constructor(
    private readonly paths: DesktopPaths,
    private readonly secrets: SecretStore,
    private current: DesktopSettings,
    /** Why the settings file was set aside at start, if it was. */
    readonly problem: string | undefined,
  ) {}

  static async open(paths: DesktopPaths, safeStorage: SafeStorage): Promise<DesktopSettingsService> {
    const loaded = await loadSettings(paths.settingsFile);
    return new DesktopSettingsService(
      paths,
      new SecretStore(paths.secretsFile, safeStorage),
      loaded.settings,
      loaded.problem,
    );
  }

  get settings(): DesktopSettings {
    return this.current;
  }

  async view(): Promise<SettingsView> {
    const { plainSecretsAllowed, chatDemoUsed: _chatDemoUsed, ...settings } = this.current;
    return {
      ...settings,
      agentApiKeySet: await this.secrets.has('agentApiKey'),
      languageModelKeySet: await this.secrets.has('languageModelKey'),
      chatAuthKeySet: await this.secrets.has('chatAuthKey'),
      chatAuthTokenSet: await this.secrets.has('chatAuthToken'),
      secretStorage: this.secrets.kind(plainSecretsAllowed),
      plainSecretsAllowed,
    };
  }

  async agentKeys(): Promise<AgentKeys> {
    const [agentApiKey, languageModelKey] = await Promise.all(
      AGENT_SECRETS.map((name) => this.secrets.get(name)),
    );
    return { ...(agentApiKey ? { agentApiKey } : {}), ...(languageModelKey ? { languageModelKey } : {}) };
  }

  /** Where Chats connects, with its auth key or token; null until both are set up. */
  async chatConnection(): Promise<ChatConnection | null> {
    const { chat } = this.current;
    if (chat === null) return null;
    const [authKey, authToken] = await Promise.all(CHAT_SECRETS.map((name) => this.secrets.get(name)));
    if (authKey === undefined && authToken === undefined) return null;
    return { ...chat, ...(authKey ? { authKey } : {}), ...(authToken ? { authToken } : {}) };
  }

  /**
   * Chats' connection; with none set up, and Chats never filled from the local demo before, the
   * demo's (`demo` fetches it) when it answers and its key can be kept, else null.
   */
  async chatConnectionOrDemo(demo: () => Promise<ChatConnection>): Promise<ChatConnection | null> {
    const configured = await this.chatConnection();
    if (configured !== null || this.current.chat !== null || this.current.chatDemoUsed) return configured;
    try {
      await this.useDemoConnection(await demo());
    } catch {
      // No demo runs, or its key cannot be kept here: the window offers to set Chats up instead.
      return null;
    }
    return this.chatConnection();
  }

  /**
   * Sets Chats up with the local demo's connection: the settings (certificate fingerprint
   * included) to the settings file, its auth key or token to the secret store, any other removed.
   */
  async useDemoConnection(connection: ChatConnection): Promise<void> {
    const { authKey, authToken, ...chat } = connection;
    await this.apply(
      { chat, chatAuthKey: authKey ?? null, chatAuthToken: authToken ?? null },
      { chatDemoUsed: true },
    );
  }

  /**
   * Checks and saves a change from the window: keys go to the secret store (refused when they
   * cannot be kept safely), the rest to the settings file. Says whether the agent must restart
   * (not for Chats: the window connects to the chat service itself).
   */
  save(change: unknown): Promise<{ restart: boolean }> {
    return this.apply(change, {});
  }

  /** A checked change, with what only this process sets (never the window). */
  private async apply(
    change: unknown,
    own: Partial<Pick<DesktopSettings, 'chatDemoUsed'>>,
  ): Promise<{ restart: boolean }> {
    const next = { ...applySettingsChange(this.current, change), ...own };
    const keys = SettingsChangeInput.parse(change);
    let keysChanged = false;
    for (const name of [...AGENT_SECRETS, ...CHAT_SECRETS]) {
      const value = keys[name];
      if (value === undefined) continue;
      if (value === null) await this.secrets.delete(name);
      else await this.secrets.set(name, value, { plainAllowed: next.plainSecretsAllowed });
      if (AGENT_SECRETS.includes(name)) keysChanged = true;
    }
    if (this.current.plainSecretsAllowed && !next.plainSecretsAllowed) {
      await this.secrets.deletePlain();
      keysChanged = true;
    }
    const restart = keysChanged || agentNeedsRestart(this.current, next);
    await saveSettings(this.paths.settingsFile, next);
    this.current = next;
    return { restart };
  }
}

export { SettingsError };
