import { useState, type FormEvent, type ReactElement } from 'react';
import { NAMESPACE_PATTERN } from '../../../shared/agent.js';
import { messageOf, useWindow } from '../context.js';
import { routeHref } from '../lib/routes.js';
import { Modal } from './modal.js';

/** Why a name cannot be a namespace, in plain words; undefined when it can. */
export function namespaceNameProblem(name: string): string | undefined {
  if (name === '') return 'Give the namespace a name.';
  if (NAMESPACE_PATTERN.test(name)) return undefined;
  if (/[A-Z]/.test(name)) return 'Use lower-case letters only.';
  if (name.length > 64) return 'Keep the name to 64 characters or fewer.';
  return 'Use letters a–z, digits, dots, dashes or underscores, starting with a letter or digit.';
}

/** Creates a namespace and opens it on its Sources view. */
export function CreateNamespaceDialog({ onClose }: { onClose(): void }): ReactElement {
  const { client, refreshNamespaces } = useWindow();
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = namespaceNameProblem(name.trim());
    if (problem) {
      setError(problem);
      return;
    }
    setBusy(true);
    try {
      await client.createNamespace(name.trim());
      await refreshNamespaces();
      onClose();
      location.hash = routeHref({ page: 'namespace', namespace: name.trim(), view: 'sources' });
    } catch (failure) {
      setError(messageOf(failure));
      setBusy(false);
    }
  };
  return (
    <Modal
      title="New namespace"
      description="A namespace is a collection of documents the agent searches and answers from, such as “manuals” or “team-notes”."
      onClose={onClose}
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        <div className="modal-body">
          <label className="field">
            <span>Name</span>
            <input
              name="namespace"
              value={name}
              onChange={(event) => {
                setName(event.target.value);
                setError(undefined);
              }}
              placeholder="manuals"
              autoFocus
              autoComplete="off"
              spellCheck={false}
              aria-invalid={error ? true : undefined}
              aria-describedby="namespace-hint"
            />
          </label>
          <p id="namespace-hint" className={error ? 'form-error' : 'hint'} role={error ? 'alert' : undefined}>
            {error ?? 'Lower-case letters, digits, dots, dashes and underscores.'}
          </p>
        </div>
        <footer className="modal-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? 'Creating…' : 'Create namespace'}
          </button>
        </footer>
      </form>
    </Modal>
  );
}
