import { useState, type ReactElement } from 'react';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { Icon, type IconName } from '../components/icons.js';
import { useWindow } from '../context.js';
import { plural } from '../lib/format.js';
import { routeHref, type NamespaceView } from '../lib/routes.js';
import { ChatView } from './chat-view.js';
import { DocumentsView } from './documents-view.js';
import { SearchView } from './search-view.js';
import { SourcesView } from './sources-view.js';

const TABS: { view: NamespaceView; label: string; icon: IconName }[] = [
  { view: 'sources', label: 'Add sources', icon: 'upload' },
  { view: 'documents', label: 'Documents', icon: 'documents' },
  { view: 'search', label: 'Search', icon: 'search' },
  { view: 'chat', label: 'Chat', icon: 'chat' },
];

/** One namespace: its counts, its four views, and deleting it. */
export function NamespacePage({ namespace, view }: { namespace: string; view: NamespaceView }): ReactElement {
  const { namespaces, client, refreshNamespaces, announce } = useWindow();
  const [deleting, setDeleting] = useState(false);
  const summary = namespaces?.find((entry) => entry.name === namespace);
  if (namespaces && !summary) {
    return (
      <section className="page">
        <div className="empty-state">
          <h1>There is no namespace “{namespace}”</h1>
          <p>It may have been deleted. Choose another one on the left.</p>
        </div>
      </section>
    );
  }
  return (
    <section className="page" aria-labelledby="namespace-title">
      <header className="page-header">
        <div>
          <p className="eyebrow">Namespace</p>
          <h1 id="namespace-title">{namespace}</h1>
          {summary ? (
            <p className="muted">
              {plural(summary.documents, 'document')} · {plural(summary.chunks, 'passage')} indexed
            </p>
          ) : null}
        </div>
        <button type="button" className="button subtle-danger" onClick={() => setDeleting(true)}>
          <Icon name="trash" /> Delete namespace
        </button>
      </header>
      <nav className="tabs" aria-label={`${namespace} views`}>
        {TABS.map((tab) => (
          <a
            key={tab.view}
            href={routeHref({ page: 'namespace', namespace, view: tab.view })}
            aria-current={tab.view === view ? 'page' : undefined}
          >
            <Icon name={tab.icon} /> {tab.label}
          </a>
        ))}
      </nav>
      <div className="view">
        {view === 'sources' ? <SourcesView namespace={namespace} /> : null}
        {view === 'documents' ? <DocumentsView namespace={namespace} /> : null}
        {view === 'search' ? <SearchView namespace={namespace} /> : null}
        {view === 'chat' ? <ChatView namespace={namespace} /> : null}
      </div>
      {deleting ? (
        <ConfirmDialog
          title={`Delete “${namespace}”?`}
          confirmLabel="Delete namespace"
          onClose={() => setDeleting(false)}
          onConfirm={async () => {
            await client.deleteNamespace(namespace);
            await refreshNamespaces();
            announce(`Namespace “${namespace}” was deleted.`);
            location.hash = routeHref({ page: 'home' });
          }}
        >
          <p>
            This removes {summary ? plural(summary.documents, 'document') : 'its documents'} and the index
            from this computer. Files you added from folders stay where they are. This cannot be undone.
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
