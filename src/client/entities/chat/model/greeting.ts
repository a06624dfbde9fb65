export interface GreetingSubject {
  name: string;
  description?: string | null;
}

export interface GreetingPersona {
  persona: string;
  /** Tested against the lowercased description; the first persona that matches greets. */
  pattern: RegExp;
  greeting: (name: string) => string;
}

/** The persona greetings of spec §9, in the order they are tried. */
export const GREETING_PERSONAS: readonly GreetingPersona[] = [
  {
    persona: 'dog',
    pattern: /aussiedoodle|chulo/,
    greeting: (name) =>
      `Hello! I'm ${name}, your curious Aussiedoodle companion. Between naps and belly rubs I ponder life's big questions, so I can offer a philosophical and psychological take on whatever is on your mind. What shall we think about today?`,
  },
  {
    persona: 'research',
    pattern: /\b(?:research|study|studies|academic)/,
    greeting: (name) =>
      `Hello! I'm ${name}, your research and academic helper. I can find sources, summarize studies and make sense of complex topics. What are you working on?`,
  },
  {
    persona: 'food',
    pattern: /\b(?:food|recipe|cook)/,
    greeting: (name) =>
      `Hello! I'm ${name}, your culinary expert. Ask me for recipes, cooking techniques or ideas for your next meal. What would you like to cook today?`,
  },
  {
    persona: 'travel',
    pattern: /\b(?:travel|trip|vacation)/,
    greeting: (name) =>
      `Hello! I'm ${name}, your trip planner. I can suggest destinations, build itineraries and help you pack smart. Where would you like to go?`,
  },
  {
    persona: 'wellness',
    pattern: /\b(?:health|fitness|wellness)/,
    greeting: (name) =>
      `Hello! I'm ${name}, your wellness helper. I can share tips on fitness, nutrition and healthy habits. What would you like to work on today?`,
  },
];

const defaultGreeting = (name: string) => `Hello! I'm your ${name} botty. How can I help you today?`;

/** Lead-ins that would make "I specialize in you are a bot that…"; longer phrases first. */
const SELF_DESCRIPTION = /\b(?:you\s+are|i\s+am|a\s+botty\s+that|a\s+bot\s+that)\b/gi;

/** The description as the object of "I specialize in …". */
function specialty(description: string): string {
  const text = description
    .replace(SELF_DESCRIPTION, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.!?]+$/, '');
  // Lowercase a leading capital, but leave acronyms such as "AI" alone.
  return /^[A-Z][a-z]/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
}

/** The chat's opening bubble, built from the bot's name and description (spec §9). */
export function greetingFor({ name, description }: GreetingSubject): string {
  const lowered = (description ?? '').trim().toLowerCase();
  if (!lowered) return defaultGreeting(name);
  const persona = GREETING_PERSONAS.find((p) => p.pattern.test(lowered));
  if (persona) return persona.greeting(name);
  const text = specialty(description ?? '');
  return text ? `Hello! I'm ${name}. I specialize in ${text}. How can I help you today?` : defaultGreeting(name);
}
