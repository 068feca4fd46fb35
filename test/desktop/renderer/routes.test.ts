import { describe, expect, it } from 'vitest';
import { parseRoute, routeHref, type Route } from '../../../desktop/renderer/lib/routes.js';

describe('window routes', () => {
  it('reads a namespace view from the hash', () => {
    expect(parseRoute('#/ns/manuals/search')).toEqual({
      page: 'namespace',
      namespace: 'manuals',
      view: 'search',
    });
  });

  it('opens a namespace on its sources when the view is missing or unknown', () => {
    expect(parseRoute('#/ns/manuals')).toEqual({ page: 'namespace', namespace: 'manuals', view: 'sources' });
    expect(parseRoute('#/ns/manuals/nope')).toEqual({
      page: 'namespace',
      namespace: 'manuals',
      view: 'sources',
    });
  });

  it('falls back to the home page for an empty or unknown hash', () => {
    expect(parseRoute('')).toEqual({ page: 'home' });
    expect(parseRoute('#/elsewhere')).toEqual({ page: 'home' });
  });

  it('writes every route so that reading it gives the same route', () => {
    const routes: Route[] = [
      { page: 'home' },
      { page: 'connect' },
      { page: 'chats' },
      { page: 'settings' },
      { page: 'namespace', namespace: 'a.b_c-1', view: 'chat' },
    ];
    for (const route of routes) expect(parseRoute(routeHref(route))).toEqual(route);
  });
});
