import { describe, expect, it } from 'vitest';
import { tidyDescription } from './description';

describe('tidyDescription', () => {
  it.each([
    ['You are a bot that helps plan weekly meals', 'Helps plan weekly meals'],
    ['you are a botty that finds recipes', 'Finds recipes'],
    ['YOU ARE A BOT THAT answers questions', 'Answers questions'],
    ['You are an assistant who summarizes papers', 'Summarizes papers'],
    ['You are a helpful research assistant', 'A helpful research assistant'],
    ["You're a friendly guide", 'A friendly guide'],
    ['A bot that tracks expenses', 'Tracks expenses'],
    ['a botty that writes poems', 'Writes poems'],
    ['I am a travel planner', 'A travel planner'],
    ["I'm here to help", 'Here to help'],
    ['  plans trips  ', 'Plans trips'],
  ])('%j -> %j', (input, expected) => {
    expect(tidyDescription(input)).toBe(expected);
  });

  it('corrects the misspelling of philosophical, keeping its capital', () => {
    expect(tidyDescription('You are Chulo, a philisophical aussiedoodle')).toBe('Chulo, a philosophical aussiedoodle');
    expect(tidyDescription('Philisophical musings. More philisophical ideas')).toBe(
      'Philosophical musings. More philosophical ideas',
    );
  });

  it('leaves text alone when the phrase is not at the start or is part of a word', () => {
    expect(tidyDescription('Helps people who say you are a bot that')).toBe('Helps people who say you are a bot that');
    expect(tidyDescription('Iambic poetry coach')).toBe('Iambic poetry coach');
    expect(tidyDescription('A bottle collector guide')).toBe('A bottle collector guide');
  });

  it('keeps a description that is nothing but a lead-in, and handles empty input', () => {
    expect(tidyDescription('You are a bot that')).toBe('You are a bot that');
    expect(tidyDescription('')).toBe('');
    expect(tidyDescription(null)).toBe('');
  });
});
