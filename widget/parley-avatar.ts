import { html, LitElement } from 'lit';
import { avatarStyles } from './parley-avatar.styles.js';

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

  static override styles = avatarStyles;

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

declare global {
  interface HTMLElementTagNameMap {
    'parley-avatar': ParleyAvatar;
  }
}
