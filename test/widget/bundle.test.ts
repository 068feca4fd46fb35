import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { minifyCss, widgetBundles } from '../../widget/bundle.js';

describe('the css templates of the widget build', () => {
  it('are minified when they are stylesheets', () => {
    expect(
      minifyCss(
        '\n  :host {\n    display: inline-block;\n  }\n  button:hover {\n    transform: scale(1.05);\n  }\n',
      ),
    ).toBe(':host{display:inline-block}button:hover{transform:scale(1.05)}');
  });

  it('keep every declaration of a palette spliced into rules', () => {
    expect(minifyCss('\n  --_bg: var(--parley-background, #16181d);\n  color-scheme: dark;\n')).toBe(
      '--_bg: var(--parley-background, #16181d);color-scheme:dark',
    );
  });

  it("reach the widget script minified (the launcher's hover rule)", async () => {
    const options = widgetBundles('/unused').find((bundle) => bundle.outfile?.endsWith('parley-widget.js'))!;
    const { outputFiles } = await build({ ...options, write: false });
    const script = outputFiles[0]!.text;
    expect(script).toContain('button:hover{transform:scale(1.05)}');
  });
});
