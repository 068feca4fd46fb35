import { css } from 'lit';

/** The dark theme's defaults, for `theme="dark"` and for `theme="auto"` on a dark system. */
const darkPalette = css`
  --_accent: var(--parley-accent, #8b93ff);
  --_on-accent: var(--parley-on-accent, #0d0f1a);
  --_bg: var(--parley-background, #16181d);
  --_surface: var(--parley-surface, #1f2229);
  --_text: var(--parley-text, #e9ebf1);
  --_muted: var(--parley-muted, #a4abba);
  --_border: var(--parley-border, #30343d);
  --_theirs: var(--parley-bubble-theirs, #2a2e37);
  --_danger: var(--parley-danger, #ff8a80);
  --_success: var(--parley-success, #6fd59b);
  --_shadow: var(--parley-shadow, 0 16px 48px rgb(0 0 0 / 0.5));
  color-scheme: dark;
`;

/**
 * The widget's design tokens. A page themes the widget through the documented `--parley-*` custom
 * properties (see README.md), which win over these defaults in light and dark themes alike; the
 * components read only the internal `--_*` names.
 */
export const tokens = css`
  :host {
    --_font: var(
      --parley-font,
      system-ui,
      -apple-system,
      'Segoe UI',
      Roboto,
      'Helvetica Neue',
      Arial,
      sans-serif
    );
    --_radius: var(--parley-radius, 16px);
    --_accent: var(--parley-accent, #4f46e5);
    --_on-accent: var(--parley-on-accent, #ffffff);
    --_bg: var(--parley-background, #ffffff);
    --_surface: var(--parley-surface, #f5f6f8);
    --_text: var(--parley-text, #1d2130);
    --_muted: var(--parley-muted, #596173);
    --_border: var(--parley-border, #e2e5ea);
    --_mine: var(--parley-bubble-mine, var(--_accent));
    --_on-mine: var(--parley-on-bubble-mine, var(--_on-accent));
    --_theirs: var(--parley-bubble-theirs, #eef0f4);
    --_on-theirs: var(--parley-on-bubble-theirs, var(--_text));
    --_danger: var(--parley-danger, #b42318);
    --_success: var(--parley-success, #067647);
    --_shadow: var(--parley-shadow, 0 16px 48px rgb(16 24 40 / 0.18), 0 2px 8px rgb(16 24 40 / 0.08));
    --_focus: var(--parley-focus, var(--_accent));
    color-scheme: light;
  }
  :host([theme='dark']) {
    ${darkPalette}
  }
  @media (prefers-color-scheme: dark) {
    :host([theme='auto']) {
      ${darkPalette}
    }
  }
`;

/** What every component shares: inherited type, button resets, a visible focus ring, screen-reader-only text. */
export const base = css`
  :host {
    font-family: var(--_font);
    color: var(--_text);
    box-sizing: border-box;
  }
  *,
  *::before,
  *::after {
    box-sizing: inherit;
  }
  button,
  input,
  select,
  textarea {
    font: inherit;
    color: inherit;
  }
  button {
    cursor: pointer;
  }
  :focus-visible {
    outline: 2px solid var(--_focus);
    outline-offset: 2px;
  }
  .sr-only {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    padding: 0;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
    border: 0;
  }
  .icon-button {
    display: inline-grid;
    place-items: center;
    inline-size: 36px;
    block-size: 36px;
    border: 0;
    border-radius: 50%;
    background: transparent;
    color: inherit;
  }
  .icon-button:hover {
    background: color-mix(in srgb, currentColor 10%, transparent);
  }
  svg {
    inline-size: 20px;
    block-size: 20px;
    fill: none;
    stroke: currentColor;
    stroke-width: 2;
    stroke-linecap: round;
    stroke-linejoin: round;
  }
`;
