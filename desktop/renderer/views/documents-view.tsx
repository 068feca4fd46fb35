import { useCallback, useEffect, useState, type ReactElement } from 'react';
import type { DocumentSummary } from '../../../shared/agent.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { Icon } from '../components/icons.js';
import { messageOf, useWindow } from '../context.js';
import { formatBytes, formatName, formatTime } from '../lib/format.js';
import { routeHref } from '../lib/routes.js';

/** The documents of a namespace: what each is, and removing or re-reading it. */
export function DocumentsView({ namespace }: { namespace: string }): ReactElement {
  const { client, refreshNamespaces, openSource, bridge, announce } = useWindow();
  const [documents, setDocuments] = useState<DocumentSummary[]>();
  const [error, setError] = useState<string>();
  const [removing, setRemoving] = useState<DocumentSummary>();
  const [busy, setBusy] = useState<string>();

  const load = useCallback(async () => {
    try {
      setDocuments(await client.documents(namespace));
      setError(undefined);
    } catch (failure) {
      setError(messageOf(failure));
    }
  }, [client, namespace]);
  useEffect(() => {
    void load();
  }, [load]);

  const reingest = async (document: DocumentSummary) => {
    setBusy(document.documentId);
    try {
      const [result] = (await client.reingestDocument(namespace, document.documentId)).results;
      if (result?.status === 'failed')
        announce(`“${document.title}” could not be read again: ${result.error}`, 'error');
      else announce(`“${result?.title ?? document.title}” was read again.`);
    } catch (failure) {
      announce(messageOf(failure), 'error');
    }
    setBusy(undefined);
    await Promise.all([load(), refreshNamespaces()]);
  };

  if (error) {
    return (
      <div className="banner error" role="alert">
        The documents could not be listed: {error}{' '}
        <button type="button" className="link-button" onClick={() => void load()}>
          Try again
        </button>
      </div>
    );
  }
  if (!documents) return <p className="muted">Loading documents…</p>;
  if (documents.length === 0) {
    return (
      <div className="empty-state">
        <Icon name="documents" size={32} />
        <h2>No documents yet</h2>
        <p>
          Documents you add to “{namespace}” are listed here with their pages and passages.{' '}
          <a href={routeHref({ page: 'namespace', namespace, view: 'sources' })}>Add sources</a>
        </p>
      </div>
    );
  }
  return (
    <>
      <table className="documents">
        <caption className="visually-hidden">Documents in {namespace}</caption>
        <thead>
          <tr>
            <th scope="col">Title</th>
            <th scope="col">Type</th>
            <th scope="col" className="number">
              Size
            </th>
            <th scope="col" className="number">
              Pages
            </th>
            <th scope="col" className="number">
              Passages
            </th>
            <th scope="col">Added</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {documents.map((document) => (
            <tr key={document.documentId} aria-busy={busy === document.documentId}>
              <td>
                <button
                  type="button"
                  className="link-button document-title"
                  onClick={() =>
                    openSource({
                      namespace,
                      documentId: document.documentId,
                      title: document.title,
                      ...(document.url ? { url: document.url } : {}),
                      ...(document.path ? { path: document.path } : {}),
                      ...(document.format === 'pdf' ? { page: 1 } : {}),
                      passage: '',
                    })
                  }
                >
                  {document.title}
                </button>
                <span className="document-source" title={document.source}>
                  {document.source}
                </span>
                {document.warnings.length > 0 ? (
                  <span className="document-warning">{document.warnings.join('; ')}</span>
                ) : null}
              </td>
              <td>{formatName(document.format)}</td>
              <td className="number">{formatBytes(document.size)}</td>
              <td className="number">{document.pages ?? '—'}</td>
              <td className="number">{document.chunks}</td>
              <td>{formatTime(document.ingestedAt)}</td>
              <td className="row-actions">
                {bridge && document.path ? (
                  <button
                    type="button"
                    className="icon-button"
                    aria-label={`Show ${document.title} in its folder`}
                    title="Show in folder"
                    onClick={() => void bridge.revealFile(document.path ?? '')}
                  >
                    <Icon name="folder" />
                  </button>
                ) : null}
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Re-ingest ${document.title}`}
                  title="Read it again"
                  disabled={busy !== undefined}
                  onClick={() => void reingest(document)}
                >
                  <Icon name="refresh" />
                </button>
                <button
                  type="button"
                  className="icon-button danger"
                  aria-label={`Remove ${document.title}`}
                  title="Remove"
                  onClick={() => setRemoving(document)}
                >
                  <Icon name="trash" />
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {removing ? (
        <ConfirmDialog
          title={`Remove “${removing.title}”?`}
          confirmLabel="Remove document"
          onClose={() => setRemoving(undefined)}
          onConfirm={async () => {
            await client.removeDocument(namespace, removing.documentId);
            announce(`“${removing.title}” was removed.`);
            await Promise.all([load(), refreshNamespaces()]);
          }}
        >
          <p>Its passages leave the index of “{namespace}”. The original file is not touched.</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
