import { useEffect, useRef, type ReactElement, type ReactNode } from 'react';
import { Icon } from './icons.js';

interface ModalProps {
  title: string;
  /** Shown under the title; also the dialog's description for screen readers. */
  description?: ReactNode;
  onClose(): void;
  children: ReactNode;
  className?: string;
  /** Keys the dialog handles besides Escape, e.g. page turns in the viewer. */
  onKeyDown?: (event: React.KeyboardEvent<HTMLDialogElement>) => void;
}

/**
 * A modal dialog on the native <dialog>: focus stays inside it, Escape closes it, and focus goes
 * back to what opened it.
 */
export function Modal({
  title,
  description,
  onClose,
  children,
  className,
  onKeyDown,
}: ModalProps): ReactElement {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    element?.showModal();
    return () => {
      element?.close();
      opener?.focus();
    };
  }, []);
  return (
    <dialog
      ref={dialog}
      className={`modal ${className ?? ''}`}
      aria-labelledby="modal-title"
      aria-describedby={description ? 'modal-description' : undefined}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onKeyDown={onKeyDown}
    >
      <header className="modal-header">
        <div>
          <h2 id="modal-title">{title}</h2>
          {description ? (
            <p id="modal-description" className="muted">
              {description}
            </p>
          ) : null}
        </div>
        <button type="button" className="icon-button" onClick={onClose} aria-label="Close">
          <Icon name="close" />
        </button>
      </header>
      {children}
    </dialog>
  );
}
