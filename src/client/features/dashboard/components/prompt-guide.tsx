const TIPS = [
  {
    title: 'Give it a role',
    text: 'Say who the botty is and who it helps: "You are a nutrition researcher helping busy parents plan healthy meals."',
  },
  {
    title: 'Set the tone',
    text: 'Describe how it should sound: friendly and encouraging, formal and precise, or plain and brief.',
  },
  {
    title: 'Shape the answers',
    text: 'Ask for the format you want: short bullet lists, a summary first, tables for comparisons, sources at the end.',
  },
  {
    title: 'Draw the boundaries',
    text: 'Name what it should not do: give medical diagnoses, guess when unsure, or stray from its topic.',
  },
];

const EXAMPLE = `You are a meal-planning assistant for a family of four on a weekly budget.
Answer in a friendly, practical tone.
Start with a one-line summary, then give a bulleted plan with quantities.
Prefer seasonal ingredients and recipes under 30 minutes.
If a question is about allergies or medical diets, suggest checking with a professional.`;

/** Practical advice for writing a custom prompt, next to the editor. */
export function PromptGuide() {
  return (
    <div className="grid gap-4 text-sm">
      <p className="text-muted-foreground">
        A good prompt reads like a brief to a new colleague. Be specific: the more the botty knows about its job, the
        better its answers.
      </p>
      <ul className="grid gap-3 sm:grid-cols-2">
        {TIPS.map(({ title, text }) => (
          <li key={title} className="rounded-lg border p-3">
            <h3 className="font-medium">{title}</h3>
            <p className="mt-1 text-muted-foreground">{text}</p>
          </li>
        ))}
      </ul>
      <div>
        <h3 className="font-medium">Example</h3>
        <pre className="mt-2 rounded-lg bg-muted p-3 font-sans text-sm whitespace-pre-wrap">{EXAMPLE}</pre>
      </div>
    </div>
  );
}
