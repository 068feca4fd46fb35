import { useRef, useState, type ReactElement } from 'react';
import { Icon } from './icons.js';

/** A read-only value with a button that copies it; says when it did. */
export function CopyField({ id, label, value }: { id: string; label: string; value: string }): ReactElement {
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      // Clipboard access can be refused; selecting the text leaves it ready for Ctrl+C.
      input.current?.select();
      return;
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  };
  return (
    <div className="copy-field">
      <label htmlFor={id}>{label}</label>
      <div className="copy-row">
        <input id={id} ref={input} value={value} readOnly onFocus={(event) => event.target.select()} />
        <button type="button" className="button" onClick={() => void copy()} aria-label={`Copy ${label}`}>
          <Icon name={copied ? 'check' : 'copy'} />
          <span aria-live="polite">{copied ? 'Copied' : 'Copy'}</span>
        </button>
      </div>
    </div>
  );
}
