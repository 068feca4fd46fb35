import { describe, expect, it } from 'vitest';
import { makeSnippet } from '../../../knowledge/search/index.js';
import { collapse } from '../../../knowledge/search/snippet.js';

const representative: [text: string, query: string, maxLength?: number][] = [
  [
    "The flutter of a cantilevered wing at transonic Mach numbers (0.85 to 1.2) was measured in the tunnel's slotted test section. The model's bending and torsion frequencies were varied independently, and flutter speeds were compared with those predicted by strip theory using quasi-steady aerodynamic coefficients. At subsonic speeds the agreement is good; near Mach 1.0 the measured flutter speed dips sharply, by as much as 40 per cent, a dip the theory does not predict. Increasing the torsional stiffness moves the dip to higher Mach numbers. Results are given for three sweep angles, 0, 35 and 45 degrees, and the effect of sweep on the transonic dip is discussed. An empirical correction to the strip-theory flutter speed, based on the local Mach number at the three-quarter chord, brings prediction and measurement within 10 per cent for all the configurations tested.",
    'What is the transonic flutter dip of swept wings and can strip theory predict it?',
  ],
  [
    "Heat transfer to a flat plate in hypersonic flow was measured at Mach 6.8 and wall-to-stagnation temperature ratios of 0.2 to 0.6. The laminar boundary layer's heat-transfer rates agree with the reference-temperature method within 8 per cent; transition, fixed by a trip wire at 2.5 inches from the leading edge, raised the rates by a factor of 3.1. Downstream of transition the turbulent rates follow Van Driest's theory. Leading-edge bluntness delays transition: with a 0.03-inch radius the transition Reynolds number doubled. Pressure measurements along the plate show the induced-pressure interaction predicted by weak-interaction theory up to x = 4 inches, after which the pressure is nearly free-stream. Skin friction, inferred by Reynolds analogy, is compared with direct balance measurements made on a second plate of the same shape.",
    'transition Reynolds number of a blunt flat plate at hypersonic speed',
    200,
  ],
  [
    'Die Strömung über einen gepfeilten Flügel wurde bei Überschallgeschwindigkeit gemessen. Müller’s Verfahren für die Grenzschicht liefert Druckverteilungen, die mit der Theorie übereinstimmen. Der Widerstand nimmt mit dem Pfeilwinkel ab; bei 60° ist er halb so groß wie beim ungepfeilten Flügel. Messungen bei Mach 1,5 und 2,0 zeigen, dass die Grenzschicht bis zur Hinterkante laminar bleibt, wenn die Oberfläche glatt ist. Rauhigkeit verlegt den Umschlag nach vorn. Die Ergebnisse werden mit Messungen von Müller und Schmidt verglichen, und die Unterschiede werden auf die Windkanalturbulenz zurückgeführt.',
    'muller grenzschicht umschlag',
    160,
  ],
];

const expected = [
  '…speed dips sharply, by as much as 40 per cent, a dip the theory does not predict. Increasing the torsional stiffness moves the dip to higher Mach numbers. Results are given for three sweep angles, 0, 35 and 45 degrees, and the effect of sweep on the transonic dip is discussed. An empirical…',
  "…Driest's theory. Leading-edge bluntness delays transition: with a 0.03-inch radius the transition Reynolds number doubled. Pressure measurements along the plate show the induced-pressure interaction…",
  '…gemessen. Müller’s Verfahren für die Grenzschicht liefert Druckverteilungen, die mit der Theorie übereinstimmen. Der Widerstand nimmt mit dem Pfeilwinkel ab;…',
];

const filler = (words: number) => Array.from({ length: words }, (_, i) => `word${i}`).join(' ');

describe('makeSnippet', () => {
  it('returns a short text whole, with whitespace collapsed', () => {
    expect(makeSnippet('Wing  loads\n\nin gusts', 'wing')).toBe('Wing loads in gusts');
  });

  it('collapses every kind of whitespace as a regular expression over all of it would', () => {
    const spaces = [' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\u2009', '\u3000', ' \u00a0 '];
    for (const space of spaces) {
      for (const text of [`wing${space}loads`, ` wing loads${space}`, `${space}wing loads in gusts `]) {
        expect(makeSnippet(text, 'wing')).toBe(text.replace(/\s+/g, ' ').trim());
      }
    }
  });

  it('collapses whitespace in a window cut from a longer text as the expression over its slice would', () => {
    // Runs of every kind at the window's edges and inside it, cut anywhere: each window a slice of
    // a longer text (as a chunk's text is of its document's).
    const spaces = [' ', '  ', '\n\n', ' \n ', '\t', '\u00a0', '\u2028', '\ufeff ', '\r\n  '];
    const long = Array.from({ length: 60 }, (_, i) => `w${i}${spaces[i % spaces.length]}`).join('');
    for (let start = 0; start < 40; start += 3) {
      for (let end = start; end <= long.length; end += 7) {
        const window = long.slice(start, end);
        expect(collapse(window)).toBe(window.replace(/\s+/g, ' ').trim());
      }
    }
  });

  it('cuts a long text around the query terms, with ellipses where it was cut', () => {
    const text = `${filler(100)} the flutter of a wing at transonic speed ${filler(100)}`;
    const snippet = makeSnippet(text, 'wing flutter', 120);
    expect(snippet).toContain('flutter of a wing at transonic speed');
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet.length).toBeLessThanOrEqual(122);
  });

  it('prefers the window holding the most distinct query terms', () => {
    const text = `wing ${filler(60)} wing ${filler(60)} wing flutter ${filler(60)}`;
    expect(makeSnippet(text, 'wing flutter', 80)).toContain('wing flutter');
  });

  it('matches stemmed and folded forms of the query words', () => {
    const text = `${filler(80)} as Müller measured the aerodynamics ${filler(80)}`;
    expect(makeSnippet(text, 'muller aerodynamic', 100)).toContain('Müller measured the aerodynamics');
  });

  it('starts at the beginning when no query term occurs', () => {
    const snippet = makeSnippet(filler(200), 'zeppelin', 50);
    expect(snippet.startsWith('word0 word1')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
  });

  it('cuts these snippets from abstract-like chunks, ASCII and not', () => {
    expect(representative.map(([text, query, maxLength]) => makeSnippet(text, query, maxLength))).toEqual(
      expected,
    );
  });
});
