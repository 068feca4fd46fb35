import { useState, type ReactElement } from 'react';
import { useWindow } from '../context.js';
import { plural } from '../lib/format.js';
import { routeHref, type Route } from '../lib/routes.js';
import { CreateNamespaceDialog } from './create-namespace-dialog.js';
import { Icon } from './icons.js';

/** Namespaces with their counts, and the ways to the other pages. */
export function Sidebar({ route }: { route: Route }): ReactElement {
  const { namespaces, bridge, appInfo } = useWindow();
  const [creating, setCreating] = useState(false);
  const current = route.page === 'namespace' ? route.namespace : undefined;
  return (
    <aside className="sidebar">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <a className="brand" href={routeHref({ page: 'home' })}>
        <img src="icon.svg" alt="" width={28} height={28} />
        <span>
          Parley <em>Knowledge</em>
        </span>
      </a>
      <nav aria-labelledby="namespaces-heading" className="namespace-nav">
        <div className="sidebar-heading">
          <h2 id="namespaces-heading">Namespaces</h2>
          <button
            type="button"
            className="icon-button"
            onClick={() => setCreating(true)}
            aria-label="New namespace"
            title="New namespace"
          >
            <Icon name="plus" />
          </button>
        </div>
        {namespaces === undefined ? (
          <p className="sidebar-note">Loading…</p>
        ) : namespaces.length === 0 ? (
          <p className="sidebar-note">None yet.</p>
        ) : (
          <ul className="namespace-list">
            {namespaces.map((summary) => (
              <li key={summary.name}>
                <a
                  href={routeHref({ page: 'namespace', namespace: summary.name, view: 'sources' })}
                  aria-current={summary.name === current ? 'page' : undefined}
                >
                  <span className="namespace-name">{summary.name}</span>
                  <span className="namespace-counts">
                    {summary.error
                      ? 'cannot be read'
                      : `${plural(summary.documents, 'document')} · ${plural(summary.chunks, 'passage')}`}
                  </span>
                </a>
              </li>
            ))}
          </ul>
        )}
      </nav>
      <nav className="sidebar-foot" aria-label="App">
        <a href={routeHref({ page: 'chats' })} aria-current={route.page === 'chats' ? 'page' : undefined}>
          <Icon name="chat" /> Chats
        </a>
        <a href={routeHref({ page: 'connect' })} aria-current={route.page === 'connect' ? 'page' : undefined}>
          <Icon name="plug" /> Connect to a chat product
        </a>
        {bridge ? (
          <a
            href={routeHref({ page: 'settings' })}
            aria-current={route.page === 'settings' ? 'page' : undefined}
          >
            <Icon name="settings" /> Settings
          </a>
        ) : null}
        <p className="agent-status">
          <span className="status-dot" aria-hidden="true" />
          Agent at {new URL(appInfo?.agentUrl ?? location.origin).host}
        </p>
      </nav>
      {creating ? <CreateNamespaceDialog onClose={() => setCreating(false)} /> : null}
    </aside>
  );
}
