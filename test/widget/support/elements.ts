import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../support/browser.js';
import { buildWidgetScript } from '../../e2e/widget/support/bundle.js';
import { PageServer } from '../../e2e/widget/support/page-server.js';

/**
 * A blank page with the built widget script loaded, for testing one element at a time in a real
 * browser: `mount` creates an element, gives it properties, and waits for it to render.
 */
export class ElementLab {
  #browser: Browser | undefined;
  #pages: PageServer | undefined;
  #page: Page | undefined;
  #pristine: string[] = [];

  async start(): Promise<void> {
    const [built, browser] = await Promise.all([buildWidgetScript(), launchChromium()]);
    this.#browser = browser;
    this.#pages = await new PageServer(built.script).start();
    this.#pages.pages.set('/', {
      body: '<!doctype html><html lang="en"><head><title>lab</title><script src="/parley-widget.js"></script></head><body><main></main></body></html>',
    });
  }

  async stop(): Promise<void> {
    await this.#browser?.close();
    await this.#pages?.stop();
  }

  /**
   * The lab page, emptied: one page serves every test of a file (elements are independent, and a
   * new browser context per test would cost more than the tests themselves).
   */
  async page(): Promise<Page> {
    if (!this.#page) {
      const context = await this.#browser!.newContext();
      context.setDefaultTimeout(5_000);
      this.#page = await context.newPage();
      await this.#page.goto(`${this.#pages!.origin}/`);
      this.#pristine = await this.#page.evaluate(() => Object.keys(window));
    }
    await this.#page.evaluate((pristine) => {
      document.querySelector('main')!.replaceChildren();
      const keep = new Set(pristine);
      for (const key of Object.keys(window))
        if (!keep.has(key)) delete (window as unknown as Record<string, unknown>)[key];
    }, this.#pristine);
    return this.#page;
  }
}

/** Creates `<tag>` with the given properties in the page's main element and waits for its first render. */
export async function mount(page: Page, tag: string, properties: Record<string, unknown>): Promise<void> {
  await page.evaluate(
    async ({ tag, properties }) => {
      const element = document.createElement(tag) as HTMLElement & { updateComplete: Promise<unknown> };
      Object.assign(element, properties);
      document.querySelector('main')!.append(element);
      await element.updateComplete;
    },
    { tag, properties },
  );
}

/** Records the `type` events the page's elements dispatch (composed, so they reach the document). */
export async function recordEvents(page: Page, type: string): Promise<void> {
  await page.evaluate((type) => {
    const seen: unknown[] = [];
    (window as unknown as Record<string, unknown[]>)[`events:${type}`] = seen;
    document.addEventListener(type, (event) => seen.push((event as CustomEvent).detail ?? null));
  }, type);
}

export function recorded(page: Page, type: string): Promise<unknown[]> {
  return page.evaluate(
    (type) => (window as unknown as Record<string, unknown[]>)[`events:${type}`] ?? [],
    type,
  );
}
