import { tidyDescription } from './description';
import { isPurpose, purposeLabel, type Purpose } from './purposes';

interface PurposeGuide {
  focus: string[];
  /** Five starter questions; the last one names the bot. */
  queries: (name: string) => string[];
}

const GUIDES: Record<Purpose | 'general', PurposeGuide> = {
  analyzing: {
    focus: [
      'Interpreting data and identifying meaningful patterns and trends',
      'Explaining findings clearly, with the reasoning behind each conclusion',
      'Pointing out assumptions, limitations and uncertainty in the data',
      'Suggesting useful next steps, further analyses or visualizations',
    ],
    queries: (name) => [
      'What trends do you see in this data?',
      'Summarize the key findings from these numbers.',
      'Which metrics should I track to measure success?',
      'How can I visualize this data clearly?',
      `What kinds of data can ${name} analyze for me?`,
    ],
  },
  answering: {
    focus: [
      'Giving accurate, direct answers to questions',
      'Explaining concepts clearly, with examples where they help',
      'Saying so when you are unsure instead of guessing',
      'Asking a clarifying question when a request is ambiguous',
    ],
    queries: (name) => [
      'Can you explain the basics of this topic in simple terms?',
      'What are the most common misconceptions about this subject?',
      'What are the pros and cons of the main options?',
      'Where can I learn more about this?',
      `What kinds of questions can ${name} answer best?`,
    ],
  },
  creating: {
    focus: [
      'Generating original, engaging content tailored to each request',
      'Matching the requested tone, format and audience',
      'Offering alternatives and suggestions for improvement',
      'Keeping content clear, well structured and free of errors',
    ],
    queries: (name) => [
      'Give me five ideas for a blog post.',
      'Write a short introduction for my project.',
      'Rewrite this paragraph to make it more engaging.',
      'Draft a friendly email announcing our news.',
      `What kinds of content can ${name} create for me?`,
    ],
  },
  planning: {
    focus: [
      'Breaking goals down into clear, actionable steps',
      'Organizing tasks, schedules and priorities',
      'Anticipating obstacles and suggesting alternatives',
      'Keeping plans realistic and easy to follow',
    ],
    queries: (name) => [
      'Help me plan my week.',
      'Break this project down into manageable steps.',
      'How should I prioritize these tasks?',
      'Create a schedule for reaching my goal in three months.',
      `What can ${name} help me organize?`,
    ],
  },
  general: {
    focus: [
      'Understanding what the user actually needs',
      'Giving helpful, accurate and relevant responses',
      'Being clear and concise',
      'Asking a clarifying question when a request is ambiguous',
    ],
    queries: (name) => [
      'What can you help me with?',
      'Can you give me some tips to get started?',
      'Explain this to me in simple terms.',
      'What should I know before I begin?',
      `How can ${name} make my day easier?`,
    ],
  },
};

const guideFor = (purpose: string) => GUIDES[isPurpose(purpose) ? purpose : 'general'];

const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

export interface PromptSubject {
  name: string;
  description: string;
  purpose: string;
}

/**
 * The system prompt built without a model (spec §9): the wizard shows it before training, and it stands in
 * whenever the model is offline, fails or answers with something unusable.
 */
export function buildLocalPrompt({ name, description, purpose }: PromptSubject): string {
  const about = tidyDescription(description);
  return [
    `You are ${name.trim()}, an AI assistant.`,
    ...(about ? [`About you: ${sentence(about)}`] : []),
    `Your main purpose: ${purposeLabel(purpose).toLowerCase()}.`,
    ['Focus on:', ...guideFor(purpose).focus.map((f) => `- ${f}`)].join('\n'),
    [
      'Guidelines:',
      '- Be accurate and honest; if you are not sure, say so instead of guessing.',
      '- Keep answers clear, well organized and relevant to the question.',
      '- Stay within your purpose, and say politely when a request falls outside it.',
    ].join('\n'),
  ].join('\n\n');
}

/** Five example queries that suit the purpose, used with the local prompt. */
export function localExampleQueries(purpose: string, name: string): string[] {
  return guideFor(purpose).queries(name.trim() || 'this botty');
}
