import { describe, expect, it } from 'vitest';
import { KnowledgeError } from '../../../knowledge/store/errors.js';
import { namespaceLayout, parseNamespace } from '../../../knowledge/store/layout.js';

describe('namespace names', () => {
  it.each(['docs', 'a', '0-notes', 'team.handbook_v2', 'x'.repeat(64)])('accepts %j', (name) => {
    expect(parseNamespace(name)).toBe(name);
  });

  it.each([
    ['an empty name', ''],
    ['upper case', 'Docs'],
    ['a parent-folder step', '..'],
    ['a path traversal', '../etc'],
    ['a path separator', 'team/docs'],
    ['a backslash', 'team\\docs'],
    ['a leading dot', '.parley'],
    ['a leading dash', '-docs'],
    ['a space', 'my docs'],
    ['65 characters', 'x'.repeat(65)],
    ['a null byte', 'docs\u0000'],
  ])('refuses %s', (_why, name) => {
    expect(() => parseNamespace(name)).toThrow(KnowledgeError);
    expect(() => parseNamespace(name)).toThrow(/invalid namespace/);
  });

  it('refuses a value that is not a string', () => {
    expect(() => parseNamespace(42)).toThrow(/invalid namespace number/);
  });

  it('marks a refused name as invalid input', () => {
    const error = (() => {
      try {
        parseNamespace('../etc');
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toMatchObject({ kind: 'invalid' });
  });

  it('keeps the engine files in a .parley subfolder of the namespace folder', () => {
    const layout = namespaceLayout('/data', 'docs');
    expect(layout.folder).toBe('/data/knowledge/docs');
    expect(layout.manifestFile).toBe('/data/knowledge/docs/.parley/manifest.json');
    expect(layout.documentsFolder).toBe('/data/knowledge/docs/.parley/documents');
  });
});
