import { useEffect, useState, type FormEvent, type ReactElement } from 'react';
import type { SettingsChange, SettingsView as Settings } from '../../bridge.js';
import { bridgeMessageOf, useWindow } from '../context.js';

interface Draft {
  port: string;
  host: string;
  corsOrigins: string;
  allowPrivateNetwork: boolean;
  llmBaseUrl: string;
  llmModel: string;
  agentApiKey: string;
  languageModelKey: string;
  chatAppId: string;
  chatRegion: string;
  chatOperatorUid: string;
  chatHost: string;
  chatCertificateFingerprint: string;
  chatAuthKey: string;
  chatAuthToken: string;
  plainSecretsAllowed: boolean;
}

const draftOf = (settings: Settings): Draft => ({
  port: String(settings.port),
  host: settings.host,
  corsOrigins: settings.corsOrigins.join(', '),
  allowPrivateNetwork: settings.allowPrivateNetwork,
  llmBaseUrl: settings.languageModel?.baseUrl ?? '',
  llmModel: settings.languageModel?.model ?? '',
  agentApiKey: '',
  languageModelKey: '',
  chatAppId: settings.chat?.appId ?? '',
  chatRegion: settings.chat?.region ?? 'us',
  chatOperatorUid: settings.chat?.operatorUid ?? '',
  chatHost: settings.chat?.host ?? '',
  chatCertificateFingerprint: settings.chat?.certificateFingerprint ?? '',
  chatAuthKey: '',
  chatAuthToken: '',
  plainSecretsAllowed: settings.plainSecretsAllowed,
});

/** What changed in the form, secrets only when something was typed. */
function changeOf(draft: Draft): SettingsChange {
  const llm = draft.llmBaseUrl.trim() || draft.llmModel.trim();
  const chat = draft.chatAppId.trim() || draft.chatOperatorUid.trim();
  return {
    port: Number(draft.port),
    host: draft.host.trim(),
    corsOrigins: draft.corsOrigins
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    allowPrivateNetwork: draft.allowPrivateNetwork,
    languageModel: llm ? { baseUrl: draft.llmBaseUrl.trim(), model: draft.llmModel.trim() } : null,
    chat: chat
      ? {
          appId: draft.chatAppId.trim(),
          region: draft.chatRegion.trim(),
          operatorUid: draft.chatOperatorUid.trim(),
          host: draft.chatHost.trim() || null,
          certificateFingerprint: draft.chatCertificateFingerprint.trim() || null,
        }
      : null,
    plainSecretsAllowed: draft.plainSecretsAllowed,
    ...(draft.chatAuthKey ? { chatAuthKey: draft.chatAuthKey } : {}),
    ...(draft.chatAuthToken ? { chatAuthToken: draft.chatAuthToken } : {}),
    ...(draft.agentApiKey ? { agentApiKey: draft.agentApiKey } : {}),
    ...(draft.languageModelKey ? { languageModelKey: draft.languageModelKey } : {}),
  };
}

/** The desktop app's settings; saving restarts the agent when the change needs it. */
/** A secret's input: never shows the stored value, only whether one is set. */
function SecretField(props: {
  label: string;
  isSet: boolean;
  value: string;
  onChange: (value: string) => void;
}): ReactElement {
  return (
    <label className="field">
      <span>
        {props.label} {props.isSet ? '(set; type to replace)' : '(none)'}
      </span>
      <input
        type="password"
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        autoComplete="new-password"
      />
    </label>
  );
}

export function SettingsView(): ReactElement {
  const { bridge, announce } = useWindow();
  const [settings, setSettings] = useState<Settings>();
  const [draft, setDraft] = useState<Draft>();
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    void bridge?.settings().then((loaded) => {
      setSettings(loaded);
      setDraft(draftOf(loaded));
    });
  }, [bridge]);
  if (!bridge) {
    return (
      <section className="page">
        <div className="empty-state">
          <h1>Settings live in the desktop app</h1>
          <p>
            This window runs in a browser; the agent here is configured by its command line and environment.
          </p>
        </div>
      </section>
    );
  }
  if (!settings || !draft) return <p className="muted">Loading settings…</p>;

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft({ ...draft, [key]: value });
  const save = async (event: FormEvent, extra: SettingsChange = {}) => {
    event.preventDefault();
    setSaving(true);
    setError(undefined);
    try {
      const saved = await bridge.saveSettings({ ...changeOf(draft), ...extra });
      setSettings(saved);
      setDraft(draftOf(saved));
      announce('Settings saved.');
    } catch (failure) {
      setError(bridgeMessageOf(failure));
    }
    setSaving(false);
  };
  const fillFromLocalDemo = async () => {
    setSaving(true);
    setError(undefined);
    try {
      const saved = await bridge.useLocalDemoChat();
      setSettings(saved);
      setDraft(draftOf(saved));
      announce('Chats set up from the local demo.');
    } catch (failure) {
      setError(bridgeMessageOf(failure));
    }
    setSaving(false);
  };
  const secretNote =
    settings.secretStorage === 'encrypted'
      ? 'Keys are encrypted with the system keychain.'
      : settings.secretStorage === 'plain'
        ? 'This system offers no encryption: keys are kept in a file only this user can read, as you agreed.'
        : 'This system offers no encryption. Keys can be kept in a file only this user can read, if you agree below.';

  return (
    <section className="page" aria-labelledby="settings-title">
      <header className="page-header">
        <div>
          <p className="eyebrow">Desktop app</p>
          <h1 id="settings-title">Settings</h1>
          <p className="muted">Changes to the agent restart it; the window reconnects by itself.</p>
        </div>
      </header>
      <form className="settings" onSubmit={(event) => void save(event)}>
        <fieldset className="card">
          <legend>Agent server</legend>
          <label className="field">
            <span>Port</span>
            <input
              inputMode="numeric"
              value={draft.port}
              onChange={(event) => set('port', event.target.value)}
            />
          </label>
          <label className="field">
            <span>Bind address</span>
            <input value={draft.host} onChange={(event) => set('host', event.target.value)} />
          </label>
          <p className="hint">
            127.0.0.1 keeps the agent to this computer. Any other address lets the network reach it.
          </p>
          <SecretField
            label="API key"
            isSet={settings.agentApiKeySet}
            value={draft.agentApiKey}
            onChange={(value) => set('agentApiKey', value)}
          />
          <label className="field">
            <span>Allowed browser origins (CORS), comma-separated</span>
            <input value={draft.corsOrigins} onChange={(event) => set('corsOrigins', event.target.value)} />
          </label>
          <label className="check">
            <input
              type="checkbox"
              checked={draft.allowPrivateNetwork}
              onChange={(event) => set('allowPrivateNetwork', event.target.checked)}
            />
            Allow ingesting web pages on private networks (intranet addresses)
          </label>
        </fieldset>
        <fieldset className="card">
          <legend>Language model (optional)</legend>
          <p className="hint">
            Without one, answers are composed from the passages themselves, offline. Any OpenAI-compatible
            server works: Ollama, LM Studio, llama.cpp, OpenAI.
          </p>
          <label className="field">
            <span>Base URL</span>
            <input
              value={draft.llmBaseUrl}
              placeholder="http://127.0.0.1:11434/v1"
              onChange={(event) => set('llmBaseUrl', event.target.value)}
            />
          </label>
          <label className="field">
            <span>Model</span>
            <input
              value={draft.llmModel}
              placeholder="llama3.1"
              onChange={(event) => set('llmModel', event.target.value)}
            />
          </label>
          <SecretField
            label="API key"
            isSet={settings.languageModelKeySet}
            value={draft.languageModelKey}
            onChange={(value) => set('languageModelKey', value)}
          />
        </fieldset>
        <fieldset className="card">
          <legend>Chats</legend>
          <p className="hint">
            The chat service whose conversations Chats shows. Without a host, CometChat’s cloud for the
            region; with one (e.g. localhost:4000), Parley’s chat service over https.
          </p>
          <div className="form-actions">
            <button
              type="button"
              className="button"
              disabled={saving}
              onClick={() => void fillFromLocalDemo()}
            >
              Use the local demo
            </button>
          </div>
          <p className="hint">
            Fills these in from <code>parley start</code> running on this computer (its app, operator, host
            and certificate fingerprint); its auth key goes to the keys below.
          </p>
          <label className="field">
            <span>App ID</span>
            <input value={draft.chatAppId} onChange={(event) => set('chatAppId', event.target.value)} />
          </label>
          <label className="field">
            <span>Region</span>
            <input value={draft.chatRegion} onChange={(event) => set('chatRegion', event.target.value)} />
          </label>
          <label className="field">
            <span>Operator UID</span>
            <input
              value={draft.chatOperatorUid}
              onChange={(event) => set('chatOperatorUid', event.target.value)}
            />
          </label>
          <label className="field">
            <span>Host (optional)</span>
            <input
              value={draft.chatHost}
              placeholder="localhost:4000"
              onChange={(event) => set('chatHost', event.target.value)}
            />
          </label>
          <label className="field">
            <span>Certificate fingerprint (self-signed hosts)</span>
            <input
              value={draft.chatCertificateFingerprint}
              placeholder="sha256/… as parley start prints it"
              onChange={(event) => set('chatCertificateFingerprint', event.target.value)}
            />
          </label>
          <SecretField
            label="Auth key"
            isSet={settings.chatAuthKeySet}
            value={draft.chatAuthKey}
            onChange={(value) => set('chatAuthKey', value)}
          />
          <SecretField
            label="Or an auth token"
            isSet={settings.chatAuthTokenSet}
            value={draft.chatAuthToken}
            onChange={(value) => set('chatAuthToken', value)}
          />
        </fieldset>
        <fieldset className="card">
          <legend>Keys on this computer</legend>
          <p className="hint">{secretNote}</p>
          {settings.secretStorage !== 'encrypted' ? (
            <label className="check">
              <input
                type="checkbox"
                checked={draft.plainSecretsAllowed}
                onChange={(event) => set('plainSecretsAllowed', event.target.checked)}
              />
              Keep keys unencrypted in a file only my user can read
            </label>
          ) : null}
        </fieldset>
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={saving}>
            {saving ? 'Saving…' : 'Save settings'}
          </button>
          {settings.agentApiKeySet ? (
            <button
              type="button"
              className="button"
              onClick={(event) => void save(event, { agentApiKey: null })}
            >
              Remove the API key
            </button>
          ) : null}
          {settings.chatAuthKeySet ? (
            <button
              type="button"
              className="button"
              onClick={(event) => void save(event, { chatAuthKey: null })}
            >
              Remove the Chats auth key
            </button>
          ) : null}
          {settings.chatAuthTokenSet ? (
            <button
              type="button"
              className="button"
              onClick={(event) => void save(event, { chatAuthToken: null })}
            >
              Remove the Chats auth token
            </button>
          ) : null}
          {settings.languageModelKeySet ? (
            <button
              type="button"
              className="button"
              onClick={(event) => void save(event, { languageModelKey: null })}
            >
              Remove the model key
            </button>
          ) : null}
        </div>
      </form>
    </section>
  );
}
