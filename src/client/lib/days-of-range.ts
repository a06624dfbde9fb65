const DAY_MS = 86_400_000;

/** Every YYYY-MM-DD day (UTC) from `from` to `to`, both included, oldest first. */
export function daysOfRange(from: string, to: string): string[] {
  const days: string[] = [];
  for (let time = Date.parse(from); time <= Date.parse(to); time += DAY_MS) {
    days.push(new Date(time).toISOString().slice(0, 10));
  }
  return days;
}
