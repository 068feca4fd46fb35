import { css, html, LitElement } from 'lit';
import { format, ENGLISH, type Locale } from './i18n.js';
import { chatIcon, closeIcon } from './icons.js';
import { base } from './theme.js';

/** The round button of the docked layout that opens and closes the chat window, with the unread count. */
export class ParleyLauncher extends LitElement {
  static override properties = {
    open: { type: Boolean, reflect: true },
    unread: { type: Number },
    locale: { attribute: false },
  };

  static override styles = [
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

  declare open: boolean;
  declare unread: number;
  declare locale: Locale;

  constructor() {
    super();
    this.open = false;
    this.unread = 0;
    this.locale = ENGLISH;
  }

  override focus(options?: FocusOptions): void {
    void this.updateComplete.then(() => this.renderRoot.querySelector('button')?.focus(options));
  }

  override render() {
    const t = this.locale.strings;
    const label = this.open ? t.closeChat : t.openChat;
    const unread = this.unread > 0 && !this.open ? format(t.unread, { count: this.unread }) : '';
    return html`<button
      type="button"
      aria-label=${unread ? `${label}, ${unread}` : label}
      aria-expanded=${this.open ? 'true' : 'false'}
      @click=${() => this.dispatchEvent(new CustomEvent('parley-toggle', { bubbles: true, composed: true }))}
    >
      ${this.open ? closeIcon : chatIcon}
      ${unread ? html`<span class="badge" aria-hidden="true">${this.unread > 99 ? '99+' : this.unread}</span>` : ''}
    </button>`;
  }
}
