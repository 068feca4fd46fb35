import { css } from 'lit';
import { base } from './theme.js';

/** The styles of <parley-thread>. */
export const threadStyles = [
  base,
  css`
    :host {
      position: relative;
      display: flex;
      flex-direction: column;
      min-block-size: 0;
      background: var(--_bg);
    }
    header {
      display: flex;
      align-items: center;
      gap: 10px;
      padding: 10px 12px;
      border-block-end: 1px solid var(--_border);
    }
    h2 {
      margin: 0;
      font-size: 1em;
      overflow: hidden;
      text-overflow: ellipsis;
      white-space: nowrap;
    }
    .who {
      min-inline-size: 0;
      display: grid;
    }
    .subtitle {
      font-size: 0.8em;
      color: var(--_muted);
    }
    .log {
      flex: 1;
      overflow-y: auto;
      overscroll-behavior: contain;
      /* Positions are kept by hand when older messages are added above. */
      overflow-anchor: none;
      display: flex;
      flex-direction: column;
      padding: 12px;
    }
    .items {
      display: flex;
      flex-direction: column;
      gap: 6px;
    }
    .older {
      align-self: center;
      padding: 6px 12px;
      border: 1px solid var(--_border);
      border-radius: 16px;
      background: var(--_bg);
      font-size: 0.85em;
    }
    .note,
    .day {
      align-self: center;
      margin: 6px 0;
      font-size: 0.8em;
      font-weight: 500;
      color: var(--_muted);
    }
    .day {
      padding: 2px 10px;
      border-radius: 10px;
      background: var(--_surface);
    }
    .unread {
      color: var(--_accent);
    }
    .pending {
      align-self: flex-end;
      display: flex;
      flex-direction: column;
      align-items: flex-end;
      max-inline-size: min(85%, 520px);
    }
    .pending p {
      margin: 0;
      padding: 8px 12px;
      border-radius: var(--_radius);
      border-end-end-radius: 6px;
      background: var(--_mine);
      color: var(--_on-mine);
      opacity: 0.75;
      white-space: pre-wrap;
      overflow-wrap: anywhere;
    }
    .pending .meta {
      display: flex;
      align-items: center;
      gap: 4px;
      margin: 2px 8px 0;
      font-size: 0.75em;
      color: var(--_muted);
    }
    .pending .meta svg {
      inline-size: 14px;
      block-size: 14px;
    }
    .failed .meta {
      color: var(--_danger);
    }
    .typing {
      min-block-size: 1.4em;
      margin: 0;
      padding: 0 16px 2px;
      font-size: 0.8em;
      font-style: italic;
      color: var(--_muted);
    }
  `,
];
