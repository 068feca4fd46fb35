import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: { target: unknown[] }[];
}

let axeSource: Promise<string> | undefined;

/** axe-core's serious and critical violations on the page, each as `rule: [targets]`. */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  axeSource ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.addScriptTag({ content: await axeSource });
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(context: Element): Promise<{ violations: AxeViolation[] }> } }
    ).axe;
    return (await axe.run(document.body)).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
}
