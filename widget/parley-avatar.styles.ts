import { css } from 'lit';
import { base } from './theme.js';

/** The styles of <parley-avatar>. */
export const avatarStyles = [
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
