import Mustache from 'mustache';

/**
 * Logic-less template rendering with mustache, limited to the data's own members. Mustache's own
 * lookup walks prototypes (`{{constructor.name}}` renders "Object", `{{text.constructor.name}}`
 * "String") and calls functions it finds; this context only follows own properties of plain data,
 * so a template stored by an app can read the view and nothing else. Output is plain text.
 */

type Lookup = { found: true; value: unknown } | { found: false };

const MISSING: Lookup = { found: false };

function own(holder: unknown, name: string): Lookup {
  if (holder === null || holder === undefined || typeof holder === 'function') return MISSING;
  if (typeof holder === 'object') {
    return Object.hasOwn(holder, name)
      ? { found: true, value: (holder as Record<string, unknown>)[name] }
      : MISSING;
  }
  // Of a string, only its own index and length members (`{{message.data.text.length}}`).
  if (typeof holder === 'string' && Object.hasOwn(Object(holder), name)) {
    return { found: true, value: (holder as unknown as Record<string, unknown>)[name] };
  }
  return MISSING;
}

function resolve(view: unknown, name: string): Lookup {
  if (name === '.') return { found: true, value: view };
  let current: Lookup = { found: true, value: view };
  for (const segment of name.split('.')) {
    if (!current.found) return MISSING;
    current = own(current.value, segment);
  }
  return current;
}

class OwnDataContext extends Mustache.Context {
  override push(view: unknown): OwnDataContext {
    return new OwnDataContext(view, this);
  }

  override lookup(name: string): unknown {
    const hit = resolve(this.view, name);
    if (hit.found) return typeof hit.value === 'function' ? undefined : hit.value;
    // Inside a section, names the section's item lacks come from the enclosing views.
    return this.parent?.lookup(name);
  }
}

/** Values print as text; objects and arrays (a whole entity named by mistake) print as nothing. */
function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return '';
}

/** `{{{…}}}` and `{{&…}}` print the same plain text as `{{…}}`. */
class PlainTextWriter extends Mustache.Writer {
  override unescapedValue(token: string[], context: Mustache.Context): string {
    return asText(context.lookup(token[1] ?? ''));
  }
}

const writer = new PlainTextWriter();

/** Renders `template` against `view`. Partials are not available; values are not HTML-escaped. */
export function renderTemplate(template: string, view: object): string {
  return writer.render(template, new OwnDataContext(view), undefined, { escape: asText });
}
