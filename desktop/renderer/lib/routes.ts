/** Where the window is, kept in the URL hash so reloads and the back key keep the place. */
export type NamespaceView = 'sources' | 'documents' | 'search' | 'chat';

export type Route =
  | { page: 'home' }
  | { page: 'namespace'; namespace: string; view: NamespaceView }
  | { page: 'connect' }
  | { page: 'chats' }
  | { page: 'settings' };

export const NAMESPACE_VIEWS: readonly NamespaceView[] = ['sources', 'documents', 'search', 'chat'];

const isView = (value: string | undefined): value is NamespaceView =>
  NAMESPACE_VIEWS.includes(value as NamespaceView);

/** Reads `#/ns/<name>/<view>`, `#/connect`, `#/chats` or `#/settings`; anything else is the home page. */
export function parseRoute(hash: string): Route {
  const [first, second, third] = hash
    .replace(/^#\/?/, '')
    .split('/')
    .map((part) => decodeURIComponent(part));
  if (first === 'connect') return { page: 'connect' };
  if (first === 'chats') return { page: 'chats' };
  if (first === 'settings') return { page: 'settings' };
  if (first === 'ns' && second)
    return { page: 'namespace', namespace: second, view: isView(third) ? third : 'sources' };
  return { page: 'home' };
}

export function routeHref(route: Route): string {
  switch (route.page) {
    case 'home':
      return '#/';
    case 'connect':
      return '#/connect';
    case 'chats':
      return '#/chats';
    case 'settings':
      return '#/settings';
    case 'namespace':
      return `#/ns/${encodeURIComponent(route.namespace)}/${route.view}`;
  }
}
