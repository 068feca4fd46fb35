import { svg } from 'lit';

/** Line icons (24×24, stroked with currentColor); decorative, so hidden from assistive technology. */
const icon = (paths: ReturnType<typeof svg>) =>
  svg`<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">${paths}</svg>`;

export const chatIcon = icon(svg`<path d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.6A8 8 0 1 1 21 12z" />`);
export const closeIcon = icon(svg`<path d="M6 6l12 12M18 6L6 18" />`);
export const backIcon = icon(svg`<path d="M15 5l-7 7 7 7" />`);
export const sendIcon = icon(svg`<path d="M4 12l16-8-6 16-2.5-6.5z" /><path d="M11.5 13.5L20 4" />`);
export const checkIcon = icon(svg`<path d="M5 12.5l4.5 4.5L19 7.5" />`);
export const doubleCheckIcon = icon(svg`<path d="M2 12.5l4.5 4.5L16 7.5" /><path d="M11 16l1 1 9.5-9.5" />`);
export const clockIcon = icon(svg`<circle cx="12" cy="12" r="8" /><path d="M12 8v4l3 2" />`);
export const alertIcon = icon(svg`<circle cx="12" cy="12" r="9" /><path d="M12 7.5v5.5M12 16.5v.01" />`);
export const attachIcon = icon(
  svg`<path d="M20 11.5l-8 8a5 5 0 0 1-7-7l8.5-8.5a3.3 3.3 0 0 1 4.7 4.7L9.7 17.2a1.7 1.7 0 0 1-2.4-2.4L15 7" />`,
);
