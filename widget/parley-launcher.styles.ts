import { css } from 'lit';
import { base } from './theme.js';

/** The styles of <parley-launcher>. */
export const launcherStyles = [
  base,
  css`
    :host {
      display: inline-block;
    }
    button {
      position: relative;
      display: grid;
      place-items: center;
      inline-size: 60px;
      block-size: 60px;
      border: 0;
      border-radius: 50%;
      background: var(--_accent);
      color: var(--_on-accent);
      box-shadow: var(--_shadow);
      transition: transform 0.15s ease;
    }
    button:hover {
      transform: scale(1.05);
    }
    svg {
      inline-size: 28px;
      block-size: 28px;
    }
    .badge {
      position: absolute;
      inset-block-start: -2px;
      inset-inline-end: -2px;
      min-inline-size: 22px;
      block-size: 22px;
      padding: 0 6px;
      border-radius: 11px;
      background: var(--_danger);
      color: #fff;
      font-size: 12px;
      font-weight: 700;
      line-height: 22px;
      border: 2px solid var(--_bg);
    }
    @media (prefers-reduced-motion: reduce) {
      button {
        transition: none;
      }
    }
  `,
];
