import { css } from 'lit';
import { base } from './theme.js';

/** Markdown styles of agent answers, shared with nothing else. */
const markdownStyles = css`
  .md > :first-child {
    margin-block-start: 0;
  }
  .md > :last-child {
    margin-block-end: 0;
  }
  .md p,
  .md ul,
  .md ol,
  .md pre,
  .md blockquote {
    margin-block: 0 0.6em;
  }
  .md ul,
  .md ol {
    padding-inline-start: 1.3em;
  }
  .md pre {
    overflow-x: auto;
    padding: 8px 10px;
    border-radius: 8px;
    background: color-mix(in srgb, currentColor 8%, transparent);
  }
  .md code {
    font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
    font-size: 0.9em;
  }
  .md blockquote {
    padding-inline-start: 10px;
    border-inline-start: 3px solid color-mix(in srgb, currentColor 30%, transparent);
  }
  .md hr {
    border: 0;
    border-block-start: 1px solid color-mix(in srgb, currentColor 20%, transparent);
  }
  .md-h1,
  .md-h2 {
    font-size: 1.1em;
  }
`;

/** The styles of <parley-message>. */
export const messageStyles = [
  base,
  markdownStyles,
  css`
    :host {
      display: flex;
      flex-direction: column;
      align-items: flex-start;
      max-inline-size: 100%;
    }
    :host([mine]) {
      align-items: flex-end;
    }
    .sender {
      margin-inline: 12px;
      margin-block-end: 2px;
      font-size: 0.8em;
      font-weight: 600;
      color: var(--_muted);
    }
    .bubble {
      max-inline-size: min(85%, 520px);
      padding: 8px 12px;
      border-radius: var(--_radius);
      border-end-start-radius: 6px;
      background: var(--_theirs);
      color: var(--_on-theirs);
      line-height: 1.45;
      overflow-wrap: anywhere;
    }
    :host([mine]) .bubble {
      border-end-start-radius: var(--_radius);
      border-end-end-radius: 6px;
      background: var(--_mine);
      color: var(--_on-mine);
    }
    .media {
      display: grid;
      gap: 6px;
      padding: 4px;
    }
    .media img,
    .media video {
      display: block;
      inline-size: 240px;
      max-inline-size: 100%;
      block-size: auto;
      border-radius: 8px;
    }
    .media audio {
      max-inline-size: 100%;
    }
    .file {
      padding: 4px 8px;
      color: inherit;
    }
    .file span {
      display: block;
      font-size: 0.8em;
    }
    .text {
      white-space: pre-wrap;
      margin: 0;
    }
    .deleted {
      font-style: italic;
      color: var(--_muted);
    }
    .form {
      inline-size: min(100%, 360px);
      max-inline-size: min(100%, 360px);
      background: var(--_bg);
      color: var(--_text);
      border: 1px solid var(--_border);
    }
    .agent {
      background: var(--_bg);
      border: 1px solid var(--_border);
      max-inline-size: min(92%, 560px);
    }
    a {
      color: inherit;
    }
    .sources {
      margin-block-start: 8px;
      padding-block-start: 8px;
      border-block-start: 1px solid var(--_border);
      font-size: 0.875em;
    }
    .sources h3 {
      margin: 0 0 4px;
      font-size: 1em;
    }
    .sources ol {
      margin: 0;
      padding-inline-start: 1.4em;
    }
    .sources a {
      color: var(--_accent);
    }
    .page {
      color: var(--_muted);
    }
    .meta {
      display: flex;
      align-items: center;
      gap: 4px;
      margin: 2px 8px 0;
      font-size: 0.75em;
      color: var(--_muted);
    }
    .meta svg {
      inline-size: 16px;
      block-size: 16px;
    }
    .read svg {
      color: var(--_accent);
    }
    .reactions {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: 4px;
      margin: 2px 6px 0;
      font-size: 0.8em;
    }
    .reactions button {
      padding: 1px 8px;
      border: 1px solid var(--_border);
      border-radius: 12px;
      background: var(--_bg);
    }
    .reactions [aria-pressed='true'] {
      border-color: var(--_accent);
      background: var(--_surface);
    }
    .tool {
      color: var(--_muted);
    }
    .chip {
      position: relative;
    }
    [role='tooltip'] {
      display: none;
      position: absolute;
      inset-block-end: 110%;
      inset-inline-start: 0;
      z-index: 1;
      padding: 2px 8px;
      border-radius: 6px;
      background: var(--_text);
      color: var(--_bg);
      white-space: nowrap;
    }
    .chip:hover [role='tooltip'],
    .chip:focus-within [role='tooltip'] {
      display: block;
    }
  `,
];
