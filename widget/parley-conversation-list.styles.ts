import { css } from 'lit';
import { base } from './theme.js';

/** The styles of <parley-conversation-list>. */
export const conversationListStyles = [
  base,
  css`
    :host {
      display: block;
      overflow-y: auto;
    }
    ul {
      list-style: none;
      margin: 0;
      padding: 6px;
    }
    button {
      display: flex;
      gap: 12px;
      align-items: center;
      inline-size: 100%;
      padding: 10px;
      border: 0;
      border-radius: 12px;
      background: transparent;
      text-align: start;
    }
    button:hover {
      background: var(--_surface);
    }
    button[aria-current='true'] {
      background: color-mix(in srgb, var(--_accent) 12%, transparent);
    }
    .main {
      flex: 1;
      min-inline-size: 0;
      display: grid;
      /* One column no wider than the button, however long the preview. */
      grid-template-columns: minmax(0, 1fr);
      gap: 2px;
    }
    time {
      flex: none;
    }
    .row {
      display: flex;
      align-items: baseline;
      gap: 8px;
    }
    .name,
    .preview {
      flex: 1;
      min-inline-size: 0;
      overflow: hidden;
      text-overflow: ellipsis;
      white-space: nowrap;
    }
    .name {
      font-weight: 600;
    }
    .preview,
    time {
      color: var(--_muted);
      font-size: 0.875em;
    }
    .unread .preview {
      color: var(--_text);
      font-weight: 500;
    }
    .badge {
      min-inline-size: 20px;
      padding: 1px 6px;
      border-radius: 10px;
      background: var(--_accent);
      color: var(--_on-accent);
      font-size: 12px;
      font-weight: 700;
      text-align: center;
    }
    .empty {
      margin: 0;
      padding: 32px 16px;
      color: var(--_muted);
      text-align: center;
    }
  `,
];
