import { css } from 'lit';
import { base } from './theme.js';

/** The styles of <parley-attachments>. */
export const attachmentsStyles = [
  base,
  css`
    :host {
      display: grid;
      gap: 6px;
      margin-block-end: 8px;
    }
    ul {
      display: flex;
      flex-wrap: wrap;
      gap: 6px;
      margin: 0;
      padding: 0;
      list-style: none;
    }
    li,
    .upload {
      display: flex;
      align-items: center;
      gap: 8px;
      padding: 4px 4px 4px 8px;
      border: 1px solid var(--_border);
      border-radius: 12px;
      background: var(--_surface);
    }
    img {
      inline-size: 48px;
      block-size: 48px;
      object-fit: cover;
      border-radius: 8px;
    }
    .size {
      color: var(--_muted);
      font-size: 0.85em;
    }
    progress {
      flex: 1;
      min-inline-size: 60px;
      accent-color: var(--_accent);
    }
    .upload span,
    [role='alert'] {
      flex: 1;
      margin: 0;
      overflow-wrap: anywhere;
    }
    [role='alert'] {
      color: var(--_danger);
    }
  `,
];
