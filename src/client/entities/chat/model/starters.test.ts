import { describe, expect, it } from 'vitest';
import { startersOf } from './starters';

describe('startersOf', () => {
  it('has none for a bot without example queries', () => {
    expect(startersOf({ exampleQueries: [] })).toEqual([]);
  });

  it("takes the bot's example queries, trimmed, without blanks or repeats, at most four", () => {
    expect(startersOf({ exampleQueries: [' What is new? ', '', 'What is new?', 'A', 'B', 'C', 'D'] })).toEqual([
      'What is new?',
      'A',
      'B',
      'C',
    ]);
  });
});
