import { useState, type ReactElement, type ReactNode } from 'react';
import { messageOf } from '../context.js';
import { Modal } from './modal.js';

interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** Runs the action; the dialog stays open and shows the error if it fails. */
  onConfirm(): Promise<void>;
  onClose(): void;
}

/** Asks before something that cannot be undone; Cancel has the focus first. */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  onConfirm,
  onClose,
}: ConfirmDialogProps): ReactElement {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const confirm = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await onConfirm();
      onClose();
    } catch (failure) {
      setError(messageOf(failure));
      setBusy(false);
    }
  };
  return (
    <Modal title={title} onClose={onClose}>
      <div className="modal-body">{children}</div>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <footer className="modal-actions">
        <button type="button" className="button" onClick={onClose} autoFocus>
          Cancel
        </button>
        <button type="button" className="button danger" onClick={() => void confirm()} disabled={busy}>
          {busy ? 'Working…' : confirmLabel}
        </button>
      </footer>
    </Modal>
  );
}
