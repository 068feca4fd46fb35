import { css } from 'lit';
import { tokens, base } from './theme.js';

/** The styles of <parley-chat>. */
export const chatStyles = [
  tokens,
  base,
  css`
    :host {
      display: block;
      inline-size: var(--_w, 100%);
      block-size: var(--_h, 600px);
      font-size: var(--parley-font-size, 15px);
      line-height: 1.4;
    }
    :host([docked]) {
      display: contents;
    }
    .window {
      display: flex;
      flex-direction: column;
      inline-size: 100%;
      block-size: 100%;
      min-inline-size: 0;
      overflow: hidden;
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      background: var(--_bg);
      color: var(--_text);
    }
    .docked {
      position: fixed;
      z-index: 2147483000;
      inset-block-end: 96px;
      inset-inline-end: 24px;
      inline-size: min(var(--_w, 380px), calc(100vw - 32px));
      block-size: min(var(--_h, 600px), calc(100vh - 120px));
      box-shadow: var(--_shadow);
      border: 0;
    }
    :host([alignment='left']) .docked {
      inset-inline: 24px auto;
    }
    parley-launcher {
      position: fixed;
      z-index: 2147483000;
      inset-block-end: 24px;
      inset-inline-end: 24px;
    }
    :host([alignment='left']) parley-launcher {
      inset-inline: 24px auto;
    }
    .top {
      display: flex;
      align-items: center;
      gap: 8px;
      padding: 12px 12px 12px 18px;
      background: var(--_accent);
      color: var(--_on-accent);
    }
    .top h2 {
      flex: 1;
      margin: 0;
      font-size: 1.05em;
    }
    .banner {
      margin: 0;
      padding: 6px 12px;
      background: color-mix(in srgb, var(--_danger) 12%, var(--_bg));
      color: var(--_text);
      font-size: 0.85em;
    }
    .panes {
      flex: 1;
      display: flex;
      min-block-size: 0;
    }
    parley-conversation-list {
      flex: 1;
    }
    parley-thread {
      flex: 1;
      min-inline-size: 0;
    }
    .wide parley-conversation-list {
      flex: 0 0 clamp(220px, 34%, 320px);
      border-inline-end: 1px solid var(--_border);
    }
    .placeholder,
    .notice {
      flex: 1;
      display: grid;
      place-content: center;
      gap: 12px;
      padding: 24px;
      color: var(--_muted);
      text-align: center;
    }
    .notice button {
      padding: 8px 14px;
      border: 0;
      border-radius: 8px;
      background: var(--_accent);
      color: var(--_on-accent);
    }
    @media (max-width: 480px) {
      .docked {
        inset: var(--_vvt, 0px) 0 auto 0;
        inline-size: 100%;
        block-size: var(--_vvh, 100dvh);
        border-radius: 0;
      }
      :host([open]) parley-launcher {
        display: none;
      }
    }
  `,
];
