import { useState, type ReactElement } from 'react';
import { Modal } from './modal.js';

/** Asks for the agent's API key when the agent runs with AGENT_API_KEY and the window has none. */
export function ApiKeyDialog({ onSubmit }: { onSubmit(key: string): void }): ReactElement {
  const [key, setKey] = useState('');
  return (
    <Modal
      title="This agent needs its API key"
      description="It was started with AGENT_API_KEY. Enter the key to use it from this window; it is kept only until the tab closes."
      onClose={() => undefined}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (key.trim()) onSubmit(key.trim());
        }}
      >
        <div className="modal-body">
          <label className="field">
            <span>API key</span>
            <input type="password" value={key} onChange={(event) => setKey(event.target.value)} autoFocus />
          </label>
        </div>
        <footer className="modal-actions">
          <button type="submit" className="button primary" disabled={!key.trim()}>
            Use this key
          </button>
        </footer>
      </form>
    </Modal>
  );
}
