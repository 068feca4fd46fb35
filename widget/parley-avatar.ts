import { css, html, LitElement } from 'lit';
import { base } from './theme.js';

const PALETTE_SIZE = 6;

/** Up to two initials: "Alice Martin" → "AM", "knowledge" → "K". */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0]!, words[words.length - 1]!] : words;
  return letters.map((word) => [...word][0]!.toUpperCase()).join('');
}

/** A stable colour slot per id, so a person keeps their colour across conversations. */
function paletteSlot(id: string): number {
  let hash = 0;
  for (const char of id) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash % PALETTE_SIZE;
}

/** A round picture of a user or group: their avatar image, or initials on a colour. Decorative. */
export class ParleyAvatar extends LitElement {
  static override properties = {
    name: {},
    src: {},
    uid: {},
  };

  static override styles = [
    base,
    css`
      :host {
        display: inline-block;
        flex: none;
        inline-size: var(--size, 40px);
        block-size: var(--size, 40px);
      }
      :host([small]) {
        --size: 28px;
      }
      .avatar {
        display: grid;
        place-items: center;
        inline-size: 100%;
        block-size: 100%;
        border-radius: 50%;
        overflow: hidden;
        font-weight: 600;
        font-size: 0.85em;
        letter-spacing: 0.02em;
        color: #fff;
      }
      img {
        inline-size: 100%;
        block-size: 100%;
        object-fit: cover;
      }
      .c0 {
        background: #4f46e5;
      }
      .c1 {
        background: #0e7490;
      }
      .c2 {
        background: #b45309;
      }
      .c3 {
        background: #be185d;
      }
      .c4 {
        background: #15803d;
      }
      .c5 {
        background: #7e22ce;
      }
    `,
  ];

  // Declared, not initialised as class fields: a class field would shadow Lit's reactive accessor.
  declare name: string;
  declare src: string | undefined;
  declare uid: string;

  constructor() {
    super();
    this.name = '';
    this.uid = '';
  }

  override render() {
    const picture = this.src && /^https?:\/\//i.test(this.src) ? this.src : undefined;
    return html`<span class="avatar c${paletteSlot(this.uid || this.name)}" aria-hidden="true">
      ${picture ? html`<img src=${picture} alt="" referrerpolicy="no-referrer" />` : initials(this.name || '?')}
    </span>`;
  }
}
