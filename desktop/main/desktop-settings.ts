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

const SECRET_NAMES: readonly SecretName[] = ['agentApiKey', 'languageModelKey'];

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
    const { plainSecretsAllowed, ...settings } = this.current;
    return {
      ...settings,
      agentApiKeySet: await this.secrets.has('agentApiKey'),
      languageModelKeySet: await this.secrets.has('languageModelKey'),
      secretStorage: this.secrets.kind(plainSecretsAllowed),
      plainSecretsAllowed,
    };
  }

  async agentKeys(): Promise<AgentKeys> {
    const [agentApiKey, languageModelKey] = await Promise.all(
      SECRET_NAMES.map((name) => this.secrets.get(name)),
    );
    return { ...(agentApiKey ? { agentApiKey } : {}), ...(languageModelKey ? { languageModelKey } : {}) };
  }

  /**
   * Checks and saves a change from the window: keys go to the secret store (refused when they
   * cannot be kept safely), the rest to the settings file. Says whether the agent must restart.
   */
  async save(change: unknown): Promise<{ restart: boolean }> {
    const next = applySettingsChange(this.current, change);
    const keys = SettingsChangeInput.parse(change);
    let keysChanged = false;
    for (const name of SECRET_NAMES) {
      const value = keys[name];
      if (value === undefined) continue;
      if (value === null) await this.secrets.delete(name);
      else await this.secrets.set(name, value, { plainAllowed: next.plainSecretsAllowed });
      keysChanged = true;
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
