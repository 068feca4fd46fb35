import { css } from 'lit';
import { base } from './theme.js';

/** The styles of <parley-form>. */
export const formStyles = [
  base,
  css`
    :host {
      display: block;
    }
    form {
      display: grid;
      gap: 12px;
    }
    h3 {
      margin: 0;
      font-size: 1em;
    }
    .field {
      display: grid;
      gap: 4px;
    }
    label,
    legend {
      font-weight: 600;
      font-size: 0.875em;
    }
    fieldset {
      margin: 0;
      padding: 0;
      border: 0;
      display: grid;
      gap: 4px;
    }
    .choice {
      display: flex;
      align-items: center;
      gap: 8px;
      font-weight: 400;
    }
    input[type='text'],
    input[type='date'],
    input[type='time'],
    input[type='datetime-local'],
    select,
    textarea {
      inline-size: 100%;
      padding: 8px 10px;
      border: 1px solid var(--_border);
      border-radius: 8px;
      background: var(--_bg);
    }
    textarea {
      resize: vertical;
    }
    [aria-invalid='true'] {
      border-color: var(--_danger);
    }
    .hint {
      font-size: 0.8em;
      color: var(--_muted);
    }
    .error {
      margin: 0;
      font-size: 0.8em;
      color: var(--_danger);
    }
    .buttons {
      display: flex;
      flex-wrap: wrap;
      gap: 8px;
    }
    button {
      padding: 8px 14px;
      border-radius: 8px;
      border: 1px solid var(--_accent);
      background: transparent;
      color: var(--_accent);
      font-weight: 600;
    }
    button.primary {
      background: var(--_accent);
      color: var(--_on-accent);
    }
    button:disabled {
      opacity: 0.55;
      cursor: default;
    }
    .status {
      display: flex;
      align-items: center;
      gap: 6px;
      margin: 0;
      color: var(--_success);
      font-weight: 600;
      font-size: 0.875em;
    }
    @media (max-width: 480px) {
      input,
      select,
      textarea {
        font-size: 16px;
      }
    }
  `,
];
