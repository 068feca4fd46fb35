import { css } from 'lit';
import { base } from './theme.js';

/** The styles of <parley-replies>: a panel over its conversation. */
export const repliesStyles = [
  base,
  css`
    :host {
      position: absolute;
      inset: 0;
      z-index: 2;
      display: flex;
      flex-direction: column;
      background: var(--_bg);
    }
    header {
      display: flex;
      align-items: center;
      justify-content: space-between;
      padding: 6px 6px 6px 14px;
      border-block-end: 1px solid var(--_border);
    }
    h2 {
      margin: 0;
      font-size: 1em;
    }
    .log {
      flex: 1;
      overflow-y: auto;
      overscroll-behavior: contain;
      display: flex;
      flex-direction: column;
      gap: 6px;
      padding: 12px;
    }
    .parent {
      padding-block-end: 8px;
      border-block-end: 1px solid var(--_border);
    }
    .older {
      align-self: center;
      padding: 6px 12px;
      border: 1px solid var(--_border);
      border-radius: 16px;
      background: var(--_bg);
      font-size: 0.85em;
    }
    .note {
      align-self: center;
      margin: 6px 0;
      font-size: 0.8em;
      color: var(--_muted);
    }
    [role='alert'] {
      color: var(--_danger);
    }
  `,
];
