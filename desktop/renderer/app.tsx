import { useCallback, useEffect, useMemo, useState, type ReactElement } from 'react';
import type { NamespaceSummary } from '../../shared/agent.js';
import { AgentApiError, AgentClient } from '../../shared/agent-client.js';
import type { AppInfo } from '../bridge.js';
import { desktopBridge } from './bridge-access.js';
import { ApiKeyDialog } from './components/api-key-dialog.js';
import { Sidebar } from './components/sidebar.js';
import { messageOf, WindowContextValue, type WindowContext } from './context.js';
import { parseRoute, type Route } from './lib/routes.js';
import type { SourceTarget } from './lib/source-target.js';
import { openingOf } from './lib/source-target.js';
import { SourceViewer } from './viewer/source-viewer.js';
import { ChatsView } from './views/chats-view.js';
import { ConnectView } from './views/connect-view.js';
import { HomeView } from './views/home-view.js';
import { NamespacePage } from './views/namespace-page.js';
import { SettingsView } from './views/settings-view.js';

const API_KEY_ITEM = 'parley.agentApiKey';

function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const update = () => setRoute(parseRoute(location.hash));
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return route;
}

interface Announcement {
  id: number;
  message: string;
  tone: 'info' | 'error';
}

/** The knowledge app window: namespaces on the left, the chosen namespace or page on the right. */
export function App(): ReactElement {
  const route = useRoute();
  const bridge = useMemo(desktopBridge, []);
  const [appInfo, setAppInfo] = useState<AppInfo>();
  const [apiKey, setApiKey] = useState(() => sessionStorage.getItem(API_KEY_ITEM) ?? undefined);
  const [needsKey, setNeedsKey] = useState(false);
  const [namespaces, setNamespaces] = useState<NamespaceSummary[]>();
  const [loadError, setLoadError] = useState<string>();
  const [viewing, setViewing] = useState<SourceTarget>();
  const [announcement, setAnnouncement] = useState<Announcement>();

  useEffect(() => {
    void bridge?.appInfo().then(setAppInfo);
  }, [bridge]);

  const client = useMemo(() => {
    const key = appInfo?.agentApiKey ?? apiKey;
    return new AgentClient({
      baseUrl: appInfo?.agentUrl ?? `${location.origin}/api`,
      ...(key ? { apiKey: key } : {}),
    });
  }, [appInfo, apiKey]);

  const refreshNamespaces = useCallback(async () => {
    try {
      setNamespaces(await client.namespaces());
      setLoadError(undefined);
    } catch (error) {
      if (error instanceof AgentApiError && error.status === 401) setNeedsKey(true);
      else setLoadError(messageOf(error));
    }
  }, [client]);

  useEffect(() => {
    if (bridge && !appInfo) return;
    void refreshNamespaces();
  }, [bridge, appInfo, refreshNamespaces]);

  const announce = useCallback((message: string, tone: 'info' | 'error' = 'info') => {
    setAnnouncement({ id: Date.now(), message, tone });
  }, []);

  const openExternal = useCallback(
    (url: string) => {
      if (bridge) void bridge.openExternal(url);
      else window.open(url, '_blank', 'noopener,noreferrer');
    },
    [bridge],
  );

  const openSource = useCallback(
    (target: SourceTarget) => {
      if (openingOf(target) === 'browser' && target.url) openExternal(target.url);
      else setViewing(target);
    },
    [openExternal],
  );

  const context: WindowContext = {
    client,
    bridge,
    appInfo,
    namespaces,
    refreshNamespaces,
    openSource,
    openExternal,
    announce,
  };

  return (
    <WindowContextValue.Provider value={context}>
      <div className="app">
        <Sidebar route={route} />
        <main className="main" id="main">
          {loadError ? (
            <div className="banner error" role="alert">
              <strong>The knowledge agent did not answer.</strong> {loadError}{' '}
              <button type="button" className="link-button" onClick={() => void refreshNamespaces()}>
                Try again
              </button>
            </div>
          ) : null}
          <Page route={route} />
        </main>
      </div>
      <div
        className={`toast ${announcement?.tone ?? ''}`}
        role="status"
        aria-live="polite"
        key={announcement?.id}
      >
        {announcement?.message}
      </div>
      {viewing ? <SourceViewer target={viewing} onClose={() => setViewing(undefined)} /> : null}
      {needsKey ? (
        <ApiKeyDialog
          onSubmit={(key) => {
            sessionStorage.setItem(API_KEY_ITEM, key);
            setApiKey(key);
            setNeedsKey(false);
          }}
        />
      ) : null}
    </WindowContextValue.Provider>
  );
}

function Page({ route }: { route: Route }): ReactElement {
  switch (route.page) {
    case 'home':
      return <HomeView />;
    case 'connect':
      return <ConnectView />;
    case 'chats':
      return <ChatsView />;
    case 'settings':
      return <SettingsView />;
    case 'namespace':
      return <NamespacePage key={route.namespace} namespace={route.namespace} view={route.view} />;
  }
}
