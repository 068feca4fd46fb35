import { useState, type ReactElement } from 'react';
import { CreateNamespaceDialog } from '../components/create-namespace-dialog.js';
import { Icon } from '../components/icons.js';
import { useWindow } from '../context.js';

/** The first page: what the app does and where to start. */
export function HomeView(): ReactElement {
  const { namespaces } = useWindow();
  const [creating, setCreating] = useState(false);
  const empty = namespaces !== undefined && namespaces.length === 0;
  return (
    <section className="page home" aria-labelledby="home-title">
      <div className="empty-state large">
        <img src="icon.svg" alt="" width={56} height={56} />
        <h1 id="home-title">Your documents, searchable and answerable</h1>
        <p>
          Add PDFs, Markdown, HTML and text files or web pages to a namespace. The agent indexes them on this
          computer, finds the passages that answer a question, and cites the page they come from. Nothing
          leaves this machine.
        </p>
        {empty ? (
          <>
            <p className="muted">There are no namespaces yet. Create one to start.</p>
            <button type="button" className="button primary" onClick={() => setCreating(true)}>
              <Icon name="plus" /> Create a namespace
            </button>
          </>
        ) : (
          <p className="muted">Choose a namespace on the left, or create a new one with the + button.</p>
        )}
      </div>
      {creating ? <CreateNamespaceDialog onClose={() => setCreating(false)} /> : null}
    </section>
  );
}
