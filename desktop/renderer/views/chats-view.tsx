import { lazy, Suspense, useEffect, useState, type FormEvent, type ReactElement } from 'react';
import { ChatConnection } from '../../../shared/chat-connection.js';
import type { DesktopBridge } from '../../bridge.js';
import { bridgeMessageOf, messageOf, useWindow } from '../context.js';
import { forgetChatConnection, keepChatConnection, loadChatConnection } from '../lib/chat-connection.js';
import { routeHref } from '../lib/routes.js';

/** Links a stylesheet of the window's build and resolves once it applies. */
function linkStylesheet(href: string): Promise<void> {
  if (document.querySelector(`link[rel="stylesheet"][href="${href}"]`)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', href });
    link.addEventListener('load', () => resolve());
    link.addEventListener('error', () => reject(new Error(`the Chats stylesheet ${href} did not load`)));
    document.head.append(link);
  });
}

/** The UI Kit is large: its code and its stylesheet (chats.css) load only when Chats opens. */
const ChatsConsole = lazy(async () => {
  const [console] = await Promise.all([import('../chats/chats-console.js'), linkStylesheet('chats.css')]);
  return console;
});

/**
 * Chats: the conversations where the agent answers, built from CometChat's UI Kit, connected to
 * the chat service set up in Settings (or, in a browser, typed in here).
 */
export function ChatsView(): ReactElement {
  const { bridge } = useWindow();
  const [connection, setConnection] = useState<ChatConnection | null>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    loadChatConnection(bridge).then(setConnection, (failure: unknown) => setError(messageOf(failure)));
  }, [bridge]);

  if (error) {
    return (
      <p className="form-error" role="alert">
        {error}
      </p>
    );
  }
  if (connection === undefined) return <p className="muted">Loading Chats…</p>;
  if (connection === null) {
    return bridge ? (
      <SetUpChats bridge={bridge} onConnect={setConnection} />
    ) : (
      <ConnectForm onConnect={setConnection} />
    );
  }
  return (
    <Suspense fallback={<p className="muted">Loading Chats…</p>}>
      <ChatsConsole
        connection={connection}
        onDisconnect={
          bridge
            ? undefined
            : () => {
                forgetChatConnection();
                setConnection(null);
              }
        }
      />
    </Suspense>
  );
}

/** The desktop app with no Chats connection: the way to Settings, or the local demo in one click. */
function SetUpChats({
  bridge,
  onConnect,
}: {
  bridge: DesktopBridge;
  onConnect(connection: ChatConnection | null): void;
}): ReactElement {
  const { announce } = useWindow();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const fillFromLocalDemo = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await bridge.useLocalDemoChat();
      announce('Chats set up from the local demo.');
      onConnect(await loadChatConnection(bridge));
    } catch (failure) {
      setError(bridgeMessageOf(failure));
      setBusy(false);
    }
  };
  return (
    <section className="page">
      <div className="empty-state">
        <h1>Set up Chats</h1>
        <p>
          Chats shows the conversations of a chat service. Enter its app ID, region, auth key and your
          operator UID in <a href={routeHref({ page: 'settings' })}>Settings</a>, or use the demo that{' '}
          <code>parley start</code> runs on this computer.
        </p>
        <button
          type="button"
          className="button primary"
          disabled={busy}
          onClick={() => void fillFromLocalDemo()}
        >
          Use the local demo
        </button>
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
    </section>
  );
}

/** The browser build's connection form: the key stays in memory unless the user asks to remember it. */
function ConnectForm({ onConnect }: { onConnect(connection: ChatConnection): void }): ReactElement {
  const [error, setError] = useState<string>();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const parsed = ChatConnection.safeParse({
      appId: text('appId'),
      region: text('region'),
      operatorUid: text('operatorUid'),
      host: text('host') || null,
      ...(text('authKey') ? { authKey: text('authKey') } : {}),
      ...(text('authToken') ? { authToken: text('authToken') } : {}),
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      setError(`${issue?.path.join('.') || 'connection'}: ${issue?.message ?? 'invalid'}`);
      return;
    }
    keepChatConnection(parsed.data, form.get('remember') === 'on');
    onConnect(parsed.data);
  };
  return (
    <section className="page" aria-labelledby="chats-setup-title">
      <header className="page-header">
        <div>
          <p className="eyebrow">Chats</p>
          <h1 id="chats-setup-title">Connect to a chat service</h1>
          <p className="muted">
            A CometChat app, or Parley’s chat service with its host. Sign in as the operator who answers when
            the agent cannot.
          </p>
        </div>
      </header>
      <form className="settings card" onSubmit={submit}>
        <label className="field">
          <span>App ID</span>
          <input name="appId" required />
        </label>
        <label className="field">
          <span>Region</span>
          <input name="region" defaultValue="us" required />
        </label>
        <label className="field">
          <span>Operator UID</span>
          <input name="operatorUid" required />
        </label>
        <label className="field">
          <span>Host (optional, e.g. localhost:4000; empty for CometChat’s cloud)</span>
          <input name="host" />
        </label>
        <label className="field">
          <span>Auth key</span>
          <input name="authKey" type="password" autoComplete="off" />
        </label>
        <label className="field">
          <span>Or an auth token</span>
          <input name="authToken" type="password" autoComplete="off" />
        </label>
        <label className="check">
          <input type="checkbox" name="remember" /> Remember on this computer (keeps the key in this browser’s
          storage)
        </label>
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="form-actions">
          <button type="submit" className="button primary">
            Connect
          </button>
        </div>
      </form>
    </section>
  );
}
