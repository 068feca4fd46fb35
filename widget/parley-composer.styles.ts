import { css } from 'lit';
import { base } from './theme.js';

/** The styles of <parley-composer>. */
export const composerStyles = [
  base,
  css`
    :host {
      display: block;
      position: relative;
      padding: 8px 10px 10px;
      border-block-start: 1px solid var(--_border);
      background: var(--_bg);
    }
    .box {
      display: flex;
      align-items: flex-end;
      gap: 6px;
      padding: 4px 4px 4px 12px;
      border: 1px solid var(--_border);
      border-radius: 22px;
      background: var(--_surface);
    }
    .box:focus-within {
      border-color: var(--_accent);
      box-shadow: 0 0 0 1px var(--_accent);
    }
    textarea:focus-visible {
      outline: none;
    }
    textarea {
      flex: 1;
      min-inline-size: 0;
      padding: 7px 0;
      border: 0;
      background: transparent;
      resize: none;
      line-height: 1.4;
    }
    .send {
      background: var(--_accent);
      color: var(--_on-accent);
    }
    .send:hover {
      background: var(--_accent);
      filter: brightness(1.1);
    }
    .send:disabled {
      opacity: 0.45;
      cursor: default;
    }
    [role='listbox'] {
      position: absolute;
      inset-inline: 10px;
      inset-block-end: calc(100% - 4px);
      margin: 0;
      padding: 4px;
      list-style: none;
      max-block-size: 220px;
      overflow-y: auto;
      border: 1px solid var(--_border);
      border-radius: 12px;
      background: var(--_bg);
      box-shadow: var(--_shadow);
    }
    [role='option'] {
      display: flex;
      align-items: center;
      gap: 8px;
      padding: 6px 8px;
      border-radius: 8px;
      cursor: pointer;
    }
    [role='option'][aria-selected='true'] {
      background: color-mix(in srgb, var(--_accent) 14%, transparent);
    }
    .uid {
      color: var(--_muted);
      font-size: 0.85em;
    }
    .tag {
      margin-inline-start: auto;
      padding: 0 6px;
      border-radius: 6px;
      background: var(--_surface);
      font-size: 0.75em;
      color: var(--_muted);
    }
    @media (max-width: 480px) {
      textarea {
        font-size: 16px;
      }
    }
  `,
];
