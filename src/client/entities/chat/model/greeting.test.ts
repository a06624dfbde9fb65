import { describe, expect, it } from 'vitest';
import { GREETING_PERSONAS, greetingFor } from './greeting';

const persona = (name: string) => GREETING_PERSONAS.find((p) => p.persona === name)!;

describe('greetingFor', () => {
  it.each([undefined, null, '', '   '])('greets plainly without a description (%j)', (description) => {
    expect(greetingFor({ name: 'Scout', description })).toBe("Hello! I'm your Scout botty. How can I help you today?");
  });

  it.each([
    ['dog', 'Chulo the philosophical Aussiedoodle'],
    ['dog', 'my dog CHULO'],
    ['research', 'Helps with academic writing'],
    ['research', 'Summarizes research papers'],
    ['research', 'Study buddy for exams'],
    ['research', 'Finds case studies'],
    ['food', 'Suggests recipes from what is in the fridge'],
    ['food', 'Teaches cooking basics'],
    ['food', 'Street FOOD guide'],
    ['travel', 'Plans a vacation on a budget'],
    ['travel', 'Road trip companion'],
    ['travel', 'Travel hacks'],
    ['wellness', 'Fitness coach for beginners'],
    ['wellness', 'Mental health and wellness tips'],
  ])('uses the %s persona for %j', (name, description) => {
    expect(greetingFor({ name: 'Scout', description })).toBe(persona(name).greeting('Scout'));
  });

  it('says each persona in words, opening with the name', () => {
    expect(greetingFor({ name: 'Chulo', description: 'an aussiedoodle' })).toBe(
      "Hello! I'm Chulo, your curious Aussiedoodle companion. Between naps and belly rubs I ponder life's big questions, so I can offer a philosophical and psychological take on whatever is on your mind. What shall we think about today?",
    );
    expect(greetingFor({ name: 'Prof', description: 'research helper' })).toBe(
      "Hello! I'm Prof, your research and academic helper. I can find sources, summarize studies and make sense of complex topics. What are you working on?",
    );
    expect(greetingFor({ name: 'Chef', description: 'cook' })).toBe(
      "Hello! I'm Chef, your culinary expert. Ask me for recipes, cooking techniques or ideas for your next meal. What would you like to cook today?",
    );
    expect(greetingFor({ name: 'Atlas', description: 'trip ideas' })).toBe(
      "Hello! I'm Atlas, your trip planner. I can suggest destinations, build itineraries and help you pack smart. Where would you like to go?",
    );
    expect(greetingFor({ name: 'Vita', description: 'health' })).toBe(
      "Hello! I'm Vita, your wellness helper. I can share tips on fitness, nutrition and healthy habits. What would you like to work on today?",
    );
  });

  it('tries the personas in the spec order: dog before research before food before travel before wellness', () => {
    expect(GREETING_PERSONAS.map((p) => p.persona)).toEqual(['dog', 'research', 'food', 'travel', 'wellness']);
    expect(greetingFor({ name: 'X', description: 'Chulo does research on food' })).toBe(persona('dog').greeting('X'));
    expect(greetingFor({ name: 'X', description: 'food for travel' })).toBe(persona('food').greeting('X'));
  });

  it('matches keywords at the start of words only', () => {
    expect(greetingFor({ name: 'X', description: 'Comic strip writer' })).toBe(
      "Hello! I'm X. I specialize in comic strip writer. How can I help you today?",
    );
  });

  it.each([
    ['You are a bot that writes   haiku.', 'writes haiku'],
    ['A botty that tracks expenses', 'tracks expenses'],
    ['I am a poet', 'a poet'],
    ['Knows   SQL\nand databases!', 'knows SQL and databases'],
    ['AI news digests', 'AI news digests'],
  ])('otherwise specializes in the cleaned description: %j', (description, specialty) => {
    expect(greetingFor({ name: 'Scout', description })).toBe(
      `Hello! I'm Scout. I specialize in ${specialty}. How can I help you today?`,
    );
  });

  it('falls back to the plain greeting when nothing is left after cleaning', () => {
    expect(greetingFor({ name: 'Scout', description: 'You are' })).toBe(
      "Hello! I'm your Scout botty. How can I help you today?",
    );
  });
});
