/** One sample line of Prometheus' text exposition format. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface MetricFamily {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  samples: Sample[];
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL = `([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\\\\n]|\\\\[\\\\"n])*)"`;
const SAMPLE = new RegExp(`^(${NAME})(?:\\{((?:${LABEL})(?:,${LABEL})*,?)?\\})? (\\S+)(?: -?\\d+)?$`);
const COMMENT = new RegExp(`^# (HELP|TYPE) (${NAME}) ?(.*)$`);
const TYPES = ['counter', 'gauge', 'histogram', 'summary', 'untyped'];
const SUFFIXES: Record<string, string[]> = {
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
};

/** As Prometheus reads them (Go's ParseFloat): Inf and NaN in any case; prom-client writes a lag not yet measured as `Nan`. */
function parseValue(text: string, line: string) {
  const word = text.toLowerCase();
  if (word === '+inf' || word === 'inf') return Infinity;
  if (word === '-inf') return -Infinity;
  if (word === 'nan') return NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`bad value in: ${line}`);
  return Number(text);
}

const unescape = (value: string) => value.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));

/**
 * A strict reader of the text format (version 0.0.4), as a Prometheus server reads a scrape: every line must be
 * a HELP, a TYPE or a sample of a family declared before it, each family declared once; anything else throws.
 */
export function parsePrometheusText(text: string): Map<string, MetricFamily> {
  const families = new Map<string, MetricFamily>();
  let current: MetricFamily | undefined;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const comment = COMMENT.exec(line);
    if (comment) {
      const [, kind, name, rest] = comment as unknown as [string, string, string, string];
      if (current?.name !== name) {
        if (families.has(name)) throw new Error(`family ${name} declared twice`);
        current = { name, help: '', type: 'untyped', samples: [] };
        families.set(name, current);
      }
      if (kind === 'HELP') current.help = rest;
      else if (TYPES.includes(rest)) current.type = rest as MetricFamily['type'];
      else throw new Error(`bad type in: ${line}`);
      continue;
    }
    if (line.startsWith('#')) continue;
    const sample = SAMPLE.exec(line);
    if (!sample) throw new Error(`not a sample line: ${line}`);
    const name = sample[1]!;
    const suffixes = current ? (SUFFIXES[current.type] ?? ['']) : [];
    if (!current || !suffixes.some((suffix) => name === current!.name + suffix)) {
      throw new Error(`sample outside its family: ${line}`);
    }
    const labels: Record<string, string> = {};
    for (const [, label, value] of (sample[2] ?? '').matchAll(new RegExp(LABEL, 'g'))) {
      if (label! in labels) throw new Error(`label ${label} twice in: ${line}`);
      labels[label!] = unescape(value!);
    }
    current.samples.push({ name, labels, value: parseValue(sample.at(-1)!, line) });
  }
  return families;
}

/** The value of the sample `name` whose labels include `labels`; 0 when there is none yet (a counter not moved). */
export function sampleValue(
  families: Map<string, MetricFamily>,
  name: string,
  labels: Record<string, string> = {},
): number {
  for (const family of families.values()) {
    for (const sample of family.samples) {
      if (sample.name !== name) continue;
      if (Object.entries(labels).every(([key, value]) => sample.labels[key] === value)) return sample.value;
    }
  }
  return 0;
}
