import { describe, expect, it } from 'vitest';
import { citedBlocks, textBlocks } from '../../../desktop/renderer/viewer/text-blocks.js';
import { isPartOfPassage } from '../../../desktop/renderer/viewer/passage-match.js';

const NOTES = `# Hangar safety

## Fire extinguishers

Foam extinguishers stand beside every hangar door.
They are inspected monthly.

## Ladders

Ladders are tied off before anyone climbs.`;

describe('a stored document as blocks', () => {
  it('turns # headings into headings with their level and the text between into paragraphs', () => {
    expect(textBlocks(NOTES)).toEqual([
      { kind: 'heading', level: 1, text: 'Hangar safety' },
      { kind: 'heading', level: 2, text: 'Fire extinguishers' },
      {
        kind: 'paragraph',
        text: 'Foam extinguishers stand beside every hangar door.\nThey are inspected monthly.',
      },
      { kind: 'heading', level: 2, text: 'Ladders' },
      { kind: 'paragraph', text: 'Ladders are tied off before anyone climbs.' },
    ]);
  });

  it('ends a paragraph at a page break', () => {
    expect(textBlocks('First page text.\fSecond page text.')).toHaveLength(2);
  });
});

describe('the blocks a citation points at', () => {
  const blocks = textBlocks(NOTES);

  it('are the paragraphs of the cited passage, as the agent flattens it', () => {
    const snippet =
      'Fire extinguishers Foam extinguishers stand beside every hangar door. They are inspected monthly.';
    expect(citedBlocks(blocks, snippet)).toEqual([2]);
  });

  it('include a paragraph that contains where a shortened passage begins', () => {
    expect(citedBlocks(blocks, 'Ladders are tied off…')).toEqual([4]);
  });

  it('fall back to the cited heading when the passage is no longer in the text', () => {
    expect(citedBlocks(blocks, 'Text that was edited away.', 'Ladders')).toEqual([3]);
  });

  it('are none when neither the passage nor the heading is there', () => {
    expect(citedBlocks(blocks, 'Text that was edited away.', 'Gone')).toEqual([]);
  });
});

describe('a line of a PDF page in a passage', () => {
  const passage = 'Gearbox lubrication. The tail rotor gearbox holds 0.4 litres of synthetic turbine oil.';

  it('belongs to it when the passage contains it, spacing and case aside', () => {
    expect(isPartOfPassage('The tail rotor  gearbox holds 0.4 litres', passage)).toBe(true);
  });

  it('does not belong to it when it is elsewhere, or too short to tell', () => {
    expect(isPartOfPassage('Pitch links are tightened to 12 Nm.', passage)).toBe(false);
    expect(isPartOfPassage('oil.', passage)).toBe(false);
  });
});
